//! The attribute's own arguments: `implicit = residual`, `backward = rule`,
//! and the opt-in forward mode `jvp` (or `jvp = rule` next to a
//! `backward = rule`).

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

/// Whether and how `NAME_jvp` is generated.
pub enum Jvp {
    /// Not asked for.
    Off,
    /// `jvp`: from the body, or for a solver from its residual's `jvp`.
    On,
    /// `jvp = rule`: a hand-written tangent rule
    /// `fn(args.., tangents.., output) -> output_tangent`.
    Rule(Path),
}

/// Everything the attribute says.
pub struct Options {
    pub mode: Mode,
    pub jvp: Jvp,
    /// `hessian`: `NAME_hvp` and `NAME_hessian`, at the key's span.
    pub hessian: Option<syn::Ident>,
}

/// `key` or `key = path`.
struct Arg {
    key: syn::Ident,
    value: Option<Path>,
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let key = input.parse()?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(Arg { key, value })
    }
}

const USAGE: &str = "expected `#[differentiable]`, `#[differentiable(implicit = residual)]`, `#[differentiable(backward = rule)]`, optionally with `jvp` (or `jvp = rule` next to `backward = rule`)";

const SUPPORTED: &str =
    "supported: `jvp`, `jvp = rule`, `hessian`, `implicit = residual`, `backward = rule`";

pub fn parse(cx: &Ctxt, attr: proc_macro2::TokenStream) -> Options {
    let mut options = Options {
        mode: Mode::Generated,
        jvp: Jvp::Off,
        hessian: None,
    };
    if attr.is_empty() {
        return options;
    }
    let args = match syn::parse::Parser::parse2(
        syn::punctuated::Punctuated::<Arg, Token![,]>::parse_terminated,
        attr.clone(),
    ) {
        Ok(args) => args,
        Err(_) => {
            cx.error_spanned_by(&attr, USAGE);
            return options;
        }
    };
    let mut jvp_key = None;
    for arg in args {
        let key = arg.key.to_string();
        match (key.as_str(), arg.value) {
            ("jvp", value) => {
                if jvp_key.is_some() {
                    cx.error_spanned_by(&arg.key, "`jvp` may appear once");
                    continue;
                }
                options.jvp = value.map_or(Jvp::On, Jvp::Rule);
                jvp_key = Some(arg.key);
            }
            ("hessian", None) if options.hessian.is_some() => {
                cx.error_spanned_by(&arg.key, "`hessian` may appear once")
            }
            ("hessian", None) => options.hessian = Some(arg.key),
            ("implicit" | "backward", Some(value)) => {
                if !matches!(options.mode, Mode::Generated) {
                    cx.error_spanned_by(
                        &arg.key,
                        "`implicit` and `backward` exclude each other, and each may appear once",
                    );
                    continue;
                }
                options.mode = match key.as_str() {
                    "implicit" => Mode::Implicit(value),
                    _ => Mode::Backward(value),
                };
            }
            ("implicit" | "backward", None) => {
                cx.error_spanned_by(&arg.key, format!("expected `{key} = ..`; {SUPPORTED}"))
            }
            ("hessian", Some(_)) => {
                cx.error_spanned_by(&arg.key, format!("`hessian` takes no value; {SUPPORTED}"))
            }
            (other, _) => {
                cx.error_spanned_by(&arg.key, format!("unknown argument `{other}`; {SUPPORTED}"))
            }
        }
    }
    if let Some(key) = jvp_key {
        match (&options.jvp, &options.mode) {
            (Jvp::Rule(_), Mode::Generated | Mode::Implicit(_)) => cx.error_spanned_by(
                &key,
                "`jvp = rule` goes with `backward = rule`; without a custom backward rule write `jvp`",
            ),
            (Jvp::On, Mode::Backward(_)) => cx.error_spanned_by(
                &key,
                "a `backward = rule` function's body is not differentiated: give its tangent rule, `jvp = rule`, a `fn(args.., tangents.., output) -> output_tangent`",
            ),
            _ => {}
        }
    }
    options
}
