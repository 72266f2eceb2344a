//! The macro's cost grows with the size of the function, not faster: deep
//! nests and long expressions are expanded here and their work counted.

use crate::analysis::BLOCK_WALKS;
use crate::expand::expand;

/// `depth` nested `for` loops, each with an expensive value and a branch,
/// around one update of a carried variable.
fn nest(depth: usize) -> String {
    let mut src = String::from("fn nest(x: &[f64], w: f64) -> f64 { let mut s = w;");
    for i in 0..depth {
        src += &format!(
            "for i{i} in 0..x.len() {{ let e{i} = (x[i{i}] * s).exp();
             if e{i} > 1.0 {{ s = s * 0.5; }} else {{ s = s + e{i}.sin(); }}"
        );
    }
    src += "s = (s * 0.5).sin() + w;";
    src += &"}".repeat(depth);
    src + "s }"
}

#[test]
fn a_loop_nest_is_analyzed_once_per_block() {
    let depth = 20;
    let item: syn::ItemFn = syn::parse_str(&nest(depth)).unwrap();
    BLOCK_WALKS.with(|w| w.set(0));
    let out = expand(proc_macro2::TokenStream::new(), quote::quote!(#item)).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    // Per level: a loop body walked twice (its saves, its needs) and two
    // branch arms once each; then the function's body. Recomputing each
    // loop's saves where it is used took about 2^depth walks.
    let blocks = 3 * depth + 1;
    let walks = BLOCK_WALKS.with(|w| w.get());
    assert!(walks <= blocks + depth, "{walks} walks of {blocks} blocks");
}
