//! The attribute's own arguments: `implicit = residual`, `backward = rule`.

use syn::parse::{Parse, ParseStream};
use syn::{Path, Token};

use crate::ctxt::Ctxt;

/// How the adjoint of the function is obtained.
pub enum Mode {
    /// Generated from the body (the default).
    Generated,
    /// From the implicit function theorem applied to `residual`, whose
    /// first argument is the solution.
    Implicit(Path),
    /// A hand-written rule `fn(grad_output, args.., output) -> (adjoints..)`.
    Backward(Path),
}

struct Arg {
    key: syn::Ident,
    value: Path,
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key = input.parse()?;
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        Ok(Arg { key, value })
    }
}

const USAGE: &str = "expected `#[differentiable]`, `#[differentiable(implicit = residual)]` or `#[differentiable(backward = rule)]`";

pub fn parse(cx: &Ctxt, attr: proc_macro2::TokenStream) -> Mode {
    if attr.is_empty() {
        return Mode::Generated;
    }
    let args = match syn::parse::Parser::parse2(
        syn::punctuated::Punctuated::<Arg, Token![,]>::parse_terminated,
        attr.clone(),
    ) {
        Ok(args) => args,
        Err(_) => {
            cx.error_spanned_by(&attr, USAGE);
            return Mode::Generated;
        }
    };
    let mut mode = Mode::Generated;
    for arg in args {
        let new = match arg.key.to_string().as_str() {
            "implicit" => Mode::Implicit(arg.value),
            "backward" => Mode::Backward(arg.value),
            other => {
                cx.error_spanned_by(
                    &arg.key,
                    format!("unknown argument `{other}`; supported: `implicit = residual`, `backward = rule`"),
                );
                continue;
            }
        };
        if !matches!(mode, Mode::Generated) {
            cx.error_spanned_by(
                &arg.key,
                "`implicit` and `backward` exclude each other, and each may appear once",
            );
            continue;
        }
        mode = new;
    }
    mode
}
