//! The `#[differentiable]` attribute and `#[derive(Tangent)]` of
//! autograd.
//!
//! Depend on the `autograd` crate, not on this one: it re-exports both
//! macros, and the code they generate refers to the runtime through
//! `autograd`'s paths. The reference and the guide are in `autograd`'s
//! documentation.
#![forbid(unsafe_code)]

// A small compiler: the function is parsed (`sig`, syn), lowered to an IR
// of operations with structured control flow (`lower`, `ir`), analyzed for
// activity (`analysis`), and emitted as a primal sweep and an adjoint
// sweep that call the runtime's rules (`emit`). Which syntax maps to
// which rule, and everything else the macro knows of a rule, is in one
// table (`table`).

mod analysis;
mod attr;
mod checkpoint;
mod ctxt;
mod emit;
mod enclosing;
mod expand;
mod facade;
mod hessian;
mod hessian_link;
mod ir;
mod lower;
mod missing;
mod nalgebra_versions;
mod sig;
mod structs;
mod table;
mod tangent_derive;
mod unannotated;

use proc_macro::TokenStream;

/// Differentiates a numeric function at compile time: keeps the function
/// exactly as written and writes its derivatives next to it.
///
/// ```ignore
/// use autograd::differentiable;
///
/// #[differentiable]
/// fn w(x: f64, y: f64) -> f64 {
///     let z = x * y;
///     z + x
/// }
///
/// assert_eq!(w_grad(3.0, 4.0), (15.0, 5.0, 3.0));
/// ```
///
/// expands to `w` as written and, with the same visibility, functions of
/// this shape (abridged; the sweeps are one `let` per operation, each
/// derivative rule an inlined call of the runtime):
///
/// ```text
/// fn w_grad(x: f64, y: f64) -> (f64, f64, f64) {
///     let (value, pullback) = w_vjp(x, y);
///     let (d_x, d_y) = pullback(1.0);
///     (value, d_x, d_y)
/// }
/// fn w_vjp(x: f64, y: f64) -> (f64, impl FnOnce(f64) -> (f64, f64)) {
///     let z = x * y;
///     let value = z + x;
///     (value, move |seed| {
///         let d_z = seed;       // d(z + x)/dz
///         let d_x = seed + d_z * y;
///         let d_y = d_z * x;
///         (d_x, d_y)
///     })
/// }
/// fn w_check(x: f64, y: f64) -> autograd::GradientCheck { .. }
/// fn w_grad_acc(x: f64, y: f64, d_x: &mut f64, d_y: &mut f64) -> f64 { .. }
/// ```
///
/// # Generated items
///
/// | item | exists | returns |
/// |---|---|---|
/// | `NAME_grad(args..)` | float result | the value, then one adjoint per differentiable argument |
/// | `NAME_vjp(args..)` | every supported result | the value and a pullback from the result's adjoint (the seed) to the tuple of argument adjoints |
/// | `NAME_check(args..)` | float result | `autograd::GradientCheck`: `NAME_grad` against central differences |
/// | `NAME_grad_acc(args.., d_args..)` | float result | the value; adds the gradient into one `&mut` buffer per differentiable argument |
/// | `NAME_jacobian(args..)` | several floats (`Vec`, array, tuple, vector) | the value and the Jacobian, a `DMatrix<f64>` (rows outputs, columns flattened inputs) |
/// | `NAME_jacobian_acc(args.., jac)` | several floats | the value; adds the Jacobian into `jac: &mut DMatrix<f64>` (also for an `f32` function) |
/// | `NAME_jvp(args.., tangents..)` | option `jvp` | the value and the directional derivative |
/// | `NAME_hvp(args.., directions..)` | option `hessian` | the value, the gradient and the Hessian-vector product |
/// | `NAME_hessian(args..)` | option `hessian` | the value, the flattened gradient (`DVector`) and the Hessian (`DMatrix`) |
///
/// Every item takes the function's arguments as the function does.
/// Arguments marked `#[constant]`, integers and `bool`s are not
/// differentiable: they get no adjoint, buffer, tangent, direction or
/// Jacobian column. On an `impl` block, or on a function in one, the
/// items are associated functions of the type.
///
/// # Options
///
/// | option | effect |
/// |---|---|
/// | (none) | the first-order items |
/// | `jvp` | adds `NAME_jvp` (forward mode); callees need `jvp` too |
/// | `hessian` | adds `NAME_hvp` and `NAME_hessian` (forward over reverse); callees need `hessian` too |
/// | `implicit = residual` | the body is a solver returning the root of `residual(solution, args..)`; its derivative comes from the implicit function theorem, and `NAME_grad` returns the solver's `Result` |
/// | `backward = rule` | a hand-written reverse rule `fn rule(grad_output, args.., output) -> (adjoints..)` instead of a generated one |
/// | `jvp = rule` | with `backward = rule`: a hand-written tangent rule `fn rule(args.., tangents.., output) -> output_tangent` |
///
/// `implicit` and `backward` exclude each other; `jvp` and `hessian`
/// combine with either and with each other.
///
/// # Attributes inside the function
///
/// - `#[constant]` on an argument: not differentiated (removed from the
///   emitted function).
/// - `#[checkpoint]` or `#[checkpoint(snapshots = S)]` on a `for`,
///   `while` or `loop`: the reverse sweep keeps at most S snapshots of the
///   loop's state and re-runs iterations between them (removed from the
///   emitted function).
/// - `#[cfg(..)]` and `#[cfg_attr(..)]` on statements: as rustc reads
///   them.
///
/// # Errors
///
/// A construct the macro does not differentiate is one compile error at
/// its span, saying what to write instead; a call of a function without
/// `#[differentiable]` with an argument that carries a derivative is one
/// error at its name. The guide in `autograd::guide` lists what a body
/// may contain (`body`) and what is rejected (`errors`).
#[proc_macro_attribute]
pub fn differentiable(attr: TokenStream, item: TokenStream) -> TokenStream {
    let enclosing = match function_name(&item) {
        Some(name) => unannotated::enclosing(name.span().local_file(), &name.to_string()),
        None => enclosing::Enclosing::Unknown,
    };
    let (attr, item): (proc_macro2::TokenStream, proc_macro2::TokenStream) =
        (attr.into(), item.into());
    // An `impl` block cannot hold the stand-ins' module.
    let stand_ins = match enclosing {
        enclosing::Enclosing::Free | enclosing::Enclosing::Unknown => {
            missing::stand_ins(attr.clone(), &item)
        }
        _ => proc_macro2::TokenStream::new(),
    };
    let mut out = expand::expand_user(attr, item, enclosing);
    out.extend(stand_ins);
    facade::rename(out).into()
}

/// The name of the function an attribute is on: the identifier after the
/// first `fn` (an attribute's or a visibility's group comes before it).
fn function_name(item: &TokenStream) -> Option<proc_macro::Ident> {
    let mut tokens = item.clone().into_iter();
    tokens.find(|t| matches!(t, proc_macro::TokenTree::Ident(i) if i.to_string() == "fn"))?;
    match tokens.next()? {
        proc_macro::TokenTree::Ident(name) => Some(name),
        _ => None,
    }
}

/// `#[derive(Tangent)]`: a struct of parameters usable as an argument of a
/// `#[differentiable]` function; its adjoint is the same struct.
///
/// Fields of type `f64`/`f32`, `Vec<f64>`, `[f64; N]`, `DVector<f64>`,
/// `DMatrix<f64>`, fixed-size nalgebra types of `f64` and nested `Tangent`
/// structs are differentiable. In the adjoint, each of them holds its
/// derivative, and every other field (marked `#[constant]`, an integer, a
/// `bool`, any type that holds no float) holds a clone of the argument's
/// field, not a derivative. Any other type holding floats is one error at
/// the field, saying to mark it `#[constant]`.
#[proc_macro_derive(Tangent, attributes(constant))]
pub fn derive_tangent(item: TokenStream) -> TokenStream {
    facade::rename(tangent_derive::derive(item.into())).into()
}

/// Proves at compile time that every runtime function of the rule table
/// exists with the signature the generated code calls it at; `autograd`
/// expands it once. The argument is the path of the runtime's `rules`
/// module, `::autograd::__private::rules` if omitted.
#[doc(hidden)]
#[proc_macro]
pub fn __rule_table_check(input: TokenStream) -> TokenStream {
    let rules = proc_macro2::TokenStream::from(input);
    let rules = if rules.is_empty() {
        quote::quote!(::autograd::__private::rules)
    } else {
        rules
    };
    match table::check::assertions(&rules, table::RULES) {
        Ok(assertions) => assertions.into(),
        Err(incomplete) => quote::quote!(::core::compile_error!(#incomplete);).into(),
    }
}

#[cfg(test)]
mod snapshot_tests;

#[cfg(test)]
mod fuzz_tests;

#[cfg(test)]
mod scaling_tests;

#[cfg(test)]
mod size_tests;

#[cfg(test)]
mod layer_tests;

#[cfg(test)]
mod ir_snapshot_tests;
