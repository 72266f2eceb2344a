//! The pipeline: parse, lower, analyze, generate.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::attr::{self, Jvp, Mode};
use crate::ctxt::Ctxt;
use crate::{analysis, checkpoint, codegen, lower, sig};

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => {
            let e = syn::Error::new(
                e.span(),
                "`#[differentiable]` goes on a function: `fn name(x: f64, ..) -> f64 { .. }`",
            );
            let mut out = e.to_compile_error();
            out.extend(item);
            return out;
        }
    };
    let cx = Ctxt::default();
    let attr::Options { mode, jvp } = attr::parse(&cx, attr);
    let signature = sig::parse(&cx, &func.sig, matches!(mode, Mode::Implicit(_)));
    if let Some(scalar) = signature.as_ref().and_then(|s| s.scalar.as_ref())
        && !matches!(mode, Mode::Generated)
    {
        cx.error_spanned_by(
            &scalar.ident,
            "`implicit` and `backward` take functions of `f64` or `f32`; a generic function's adjoint is generated from its body",
        );
    }
    // Only a generated adjoint differentiates the body; a solver's or a
    // custom rule's body runs as plain code.
    let generated = signature
        .as_ref()
        .filter(|_| matches!(mode, Mode::Generated))
        .map(|s| {
            let ir = lower::lower(&cx, s, &func.sig, &func.block, Vec::new());
            let differentiable: Vec<bool> = s.params.iter().map(|p| p.differentiable).collect();
            let an = analysis::analyze(&cx, &ir, &differentiable);
            (ir, an)
        });

    // The user's function, unchanged but for our `#[constant]` and
    // `#[checkpoint]` markers.
    for arg in &mut func.sig.inputs {
        if let syn::FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !sig::is_constant_attr(a));
        }
    }
    let checks = checkpoint::strip(&cx, &mut func.block, matches!(mode, Mode::Generated));
    let mut out = func.to_token_stream();
    out.extend(checks);
    match (cx.check(), signature, generated) {
        (Ok(()), Some(s), Some((ir, an))) => {
            out.extend(codegen::generate(&func, &s, &ir, &an));
            if let Jvp::On = jvp {
                out.extend(codegen::tangent::generate(&func, &s, &ir, &an));
            }
        }
        (Ok(()), Some(s), None) => {
            out.extend(match &mode {
                Mode::Implicit(residual) => codegen::implicit(&func, &s, residual),
                Mode::Backward(rule) => codegen::custom(&func, &s, rule),
                Mode::Generated => TokenStream::new(),
            });
            out.extend(match (&mode, &jvp) {
                (Mode::Implicit(residual), Jvp::On) => {
                    codegen::tangent::implicit(&func, &s, residual)
                }
                (Mode::Backward(_), Jvp::Rule(rule)) => codegen::tangent::custom(&func, &s, rule),
                _ => TokenStream::new(),
            });
        }
        (Err(e), s, _) => {
            out.extend(e.to_compile_error());
            if let Some(s) = s {
                out.extend(codegen::stubs(&func, &s));
                if !matches!(jvp, Jvp::Off) {
                    out.extend(codegen::tangent::stub(&func, &s));
                }
            }
        }
        (Ok(()), _, _) => out.extend(quote!(::core::compile_error!(
            "`#[differentiable]` could not read this function"
        );)),
    }
    out
}

/// Compiles the closure of a `map` (given as a scalar function) into its
/// VJP, a closure; `outer` names the enclosing function's variables, which
/// the closure reads as constants. Also returns those it reads.
pub fn scalar_helper(
    cx: &Ctxt,
    item: &syn::ItemFn,
    outer: Vec<String>,
) -> (TokenStream, Vec<syn::Ident>) {
    let Some(s) = sig::parse(cx, &item.sig, false) else {
        return (TokenStream::new(), Vec::new());
    };
    let ir = lower::lower(cx, &s, &item.sig, &item.block, outer);
    let differentiable: Vec<bool> = s.params.iter().map(|p| p.differentiable).collect();
    let an = analysis::analyze(cx, &ir, &differentiable);
    (codegen::helper(item, &s, &ir, &an), ir.captures)
}
