//! The macro's cost grows with the size of the function, not faster: deep
//! nests and long expressions are expanded here and their work counted.

use syn::visit::Visit;

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

/// The deepest chain of `let` scopes in the functions of the tokens other
/// than `skip`: each `let` opens a scope that ends with its block, and
/// rustc's debug info recurses once per scope (a closure is counted inside
/// its function).
fn let_depth(tokens: proc_macro2::TokenStream, skip: Option<&str>) -> usize {
    struct Depth {
        current: usize,
        max: usize,
    }
    impl<'a> Visit<'a> for Depth {
        fn visit_block(&mut self, b: &'a syn::Block) {
            let outer = self.current;
            for s in &b.stmts {
                if let syn::Stmt::Local(_) = s {
                    self.current += 1;
                    self.max = self.max.max(self.current);
                }
                self.visit_stmt(s);
            }
            self.current = outer;
        }
    }
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses");
    let mut depth = Depth { current: 0, max: 0 };
    for item in &file.items {
        match item {
            syn::Item::Fn(f) if skip.is_some_and(|s| f.sig.ident == s) => {}
            _ => depth.visit_item(item),
        }
    }
    depth.max
}

/// The `let` depth of the function `f` as written and of the functions
/// generated for it.
fn depths(src: &str) -> (usize, usize) {
    let item: syn::ItemFn = syn::parse_str(src).unwrap();
    let written = let_depth(quote::quote!(#item), None);
    let out = expand(proc_macro2::TokenStream::new(), quote::quote!(#item));
    assert!(!out.to_string().contains("compile_error"), "{out}");
    (written, let_depth(out, Some("f")))
}

#[test]
fn a_long_sum_expands_to_shallow_scopes() {
    let terms: Vec<String> = (1..=2000).map(|i| format!("x * {i}.0")).collect();
    let (written, expanded) = depths(&format!("fn f(x: f64) -> f64 {{ {} }}", terms.join(" + ")));
    assert_eq!(written, 0);
    // One `let` per operation would nest 10 000 deep: about 4 000 in the
    // forward sweep and 6 000 in the reverse; rustc overflows near 3 000.
    assert!(expanded <= 200, "{expanded} nested `let` scopes");
}

#[test]
fn many_lets_expand_to_fewer_nested_scopes_than_written() {
    let lets: String = (1..=1500)
        .map(|i| format!("let a{i} = a{} * 1.0001 + x;", i - 1))
        .collect();
    let (written, expanded) = depths(&format!(
        "fn f(x: f64) -> f64 {{ let a0 = x; {lets} a1500 }}"
    ));
    assert_eq!(written, 1501);
    assert!(expanded < written / 4, "{expanded} nested `let` scopes");
}
