//! `#[checkpoint]` and `#[checkpoint(snapshots = S)]` on a loop of a
//! differentiable body: read where lowering meets a `for` or `while`, and
//! removed from the function the macro emits (rustc knows no such
//! attribute; on stable it may stand on a statement only because the
//! macro removes it).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};

use crate::ctxt::Ctxt;
use crate::ir::Checkpoint;

fn is_checkpoint(a: &syn::Attribute) -> bool {
    a.path().is_ident("checkpoint")
}

const USAGE: &str = "write `#[checkpoint]` or `#[checkpoint(snapshots = 16)]` (an integer literal or a `const` of type `usize`)";

/// The `#[checkpoint]` among a loop's attributes, if any; a malformed one
/// is reported and read as the default. The same one twice (one under
/// `#[cfg_attr(P, checkpoint)]`, which the macro reads wherever `P` may
/// hold) asks for one schedule and is read once; two different ones are
/// an error at the second.
pub fn of_loop(cx: &Ctxt, attrs: &[syn::Attribute]) -> Option<Checkpoint> {
    let mut found = attrs.iter().filter(|a| is_checkpoint(a));
    let attr = found.next()?;
    let written = attr.meta.to_token_stream().to_string();
    for extra in found.filter(|a| a.meta.to_token_stream().to_string() != written) {
        cx.error_spanned_by(
            extra,
            "`#[checkpoint]` is given twice on this loop, with different schedules; keep one (a `#[cfg_attr(P, checkpoint ..)]` counts wherever `P` may hold)",
        );
    }
    let snapshots = match &attr.meta {
        syn::Meta::Path(_) => None,
        syn::Meta::List(list) => match list.parse_args::<syn::MetaNameValue>() {
            Ok(nv) if nv.path.is_ident("snapshots") => snapshots(cx, &nv.value),
            Ok(nv) => {
                cx.error_spanned_by(
                    &nv.path,
                    format!("`#[checkpoint]` takes only `snapshots`; {USAGE}"),
                );
                None
            }
            Err(_) => {
                cx.error_spanned_by(list, format!("malformed `#[checkpoint]`; {USAGE}"));
                None
            }
        },
        syn::Meta::NameValue(nv) => {
            cx.error_spanned_by(nv, format!("malformed `#[checkpoint]`; {USAGE}"));
            None
        }
    };
    Some(Checkpoint { snapshots })
}

/// The expression of `snapshots = S`: a literal checked here, a constant
/// by an item `strip` returns.
fn snapshots(cx: &Ctxt, value: &syn::Expr) -> Option<TokenStream> {
    match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) if matches!(lit.suffix(), "" | "usize") => match lit.base10_parse::<usize>() {
            Ok(s) if s >= 1 => {
                let s = proc_macro2::Literal::usize_suffixed(s);
                Some(quote_spanned!(lit.span()=> #s))
            }
            _ => {
                cx.error_spanned_by(lit, "`snapshots` must be at least 1");
                None
            }
        },
        // Checked by the item `strip` returns.
        syn::Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => Some(quote!(#p)),
        other => {
            cx.error_spanned_by(other, format!("unsupported `snapshots`; {USAGE}"));
            None
        }
    }
}

/// Removes every `#[checkpoint]` from the body the macro emits. One on a
/// `for` or `while` of a differentiated body was read by lowering (a
/// `loop` is reported there); any other is an error at its span. Returns
/// the items checking at compile time that each constant given as
/// `snapshots` is at least 1 (items next to the function, so an error
/// names no generated item).
pub fn strip(cx: &Ctxt, body: &mut syn::Block, differentiated: bool) -> TokenStream {
    let mut strip = Strip {
        cx,
        differentiated,
        checks: TokenStream::new(),
    };
    strip.visit_block_mut(body);
    strip.checks
}

struct Strip<'a> {
    cx: &'a Ctxt,
    differentiated: bool,
    checks: TokenStream,
}

impl Strip<'_> {
    /// Removes the attributes, reporting them unless they are on a loop
    /// lowering has read.
    fn remove(&mut self, attrs: &mut Vec<syn::Attribute>, on_loop: bool) {
        // `#[cfg_attr(P, checkpoint ..)]`: lowering has read it as the
        // loop with `#[checkpoint ..]` where `P` holds and without it where
        // it does not; the `cfg_attr` keeps what else it adds.
        let mut configured: Vec<(syn::Attribute, Option<syn::Meta>)> = Vec::new();
        let mut kept = Vec::with_capacity(attrs.len());
        for a in std::mem::take(attrs) {
            let Some((predicate, metas)) = crate::sig::cfg_attr_parts(&a.meta) else {
                kept.push(a);
                continue;
            };
            let (checkpoints, others): (Vec<_>, Vec<_>) = metas
                .into_iter()
                .partition(|m| m.path().is_ident("checkpoint"));
            if checkpoints.is_empty() {
                kept.push(a);
                continue;
            }
            for m in checkpoints {
                configured.push((
                    syn::parse_quote_spanned!(m.span()=> #[#m]),
                    Some(predicate.clone()),
                ));
            }
            if !others.is_empty() {
                kept.push(
                    syn::parse_quote_spanned!(a.span()=> #[cfg_attr(#predicate, #(#others),*)]),
                );
            }
        }
        *attrs = kept;
        let plain = attrs
            .iter()
            .filter(|a| is_checkpoint(a))
            .map(|a| (a.clone(), None));
        let all: Vec<_> = plain.chain(configured).collect();
        for (a, predicate) in &all {
            let cfg = predicate.as_ref().map(|p| quote!(#[cfg(#p)]));
            if !self.differentiated {
                self.cx.error_spanned_by(
                    a,
                    "`#[checkpoint]` has no effect here: the body of a function with `implicit = ..` or `backward = ..` runs as plain code and is not differentiated",
                );
            } else if !on_loop {
                self.cx.error_spanned_by(
                    a,
                    "`#[checkpoint]` goes on a `for` or `while` loop of a `#[differentiable]` body",
                );
            } else if let syn::Meta::List(list) = &a.meta
                && let Ok(nv) = list.parse_args::<syn::MetaNameValue>()
                && let syn::Expr::Path(p) = &nv.value
            {
                self.checks.extend(quote_spanned! {p.span()=>
                    #cfg
                    const _: () = ::core::assert!(#p >= 1, "`snapshots` must be at least 1");
                });
            }
        }
        attrs.retain(|a| !is_checkpoint(a));
    }
}

impl VisitMut for Strip<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        let on_loop = matches!(
            e,
            syn::Expr::ForLoop(_) | syn::Expr::While(_) | syn::Expr::Loop(_)
        );
        if let Some(attrs) = expr_attrs_mut(e) {
            self.remove(attrs, on_loop);
        }
        visit_mut::visit_expr_mut(self, e);
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        self.remove(&mut l.attrs, false);
        visit_mut::visit_local_mut(self, l);
    }

    fn visit_stmt_macro_mut(&mut self, m: &mut syn::StmtMacro) {
        self.remove(&mut m.attrs, false);
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        self.remove(&mut arm.attrs, false);
        visit_mut::visit_arm_mut(self, arm);
    }

    /// Items in a body are scopes of their own (and reported by lowering).
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

macro_rules! expr_attrs_mut {
    ($($variant:ident),*) => {
        fn expr_attrs_mut(e: &mut syn::Expr) -> Option<&mut Vec<syn::Attribute>> {
            match e {
                $(syn::Expr::$variant(x) => Some(&mut x.attrs),)*
                _ => None,
            }
        }
    };
}

expr_attrs_mut!(
    Array, Assign, Async, Await, Binary, Block, Break, Call, Cast, Closure, Const, Continue, Field,
    ForLoop, Group, If, Index, Infer, Let, Lit, Loop, Macro, Match, MethodCall, Paren, Path, Range,
    RawAddr, Reference, Repeat, Return, Struct, Try, TryBlock, Tuple, Unary, Unsafe, While, Yield
);

/// `Some(S)` or `None`, the schedule's argument.
pub fn snapshots_arg(c: &Checkpoint) -> TokenStream {
    match &c.snapshots {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

#[cfg(test)]
mod tests {
    use crate::snapshot_tests::expand_to_string;

    /// `#[cfg_attr(P, checkpoint)]`: the primal loses the `checkpoint` (rustc
    /// knows no such attribute) and keeps the rest of the `cfg_attr`; the
    /// sweeps checkpoint the loop where `P` holds and only there.
    #[test]
    fn checkpoint_under_cfg_attr() {
        let out = expand_to_string(
            "",
            "fn f(x: f64) -> f64 { let mut s = 1.0; #[cfg_attr(all(), checkpoint(snapshots = 2), allow(unused_mut))] for _ in 0..4 { s = s * x; } s }",
        );
        let primal = &out[..out.find("#[doc(hidden)]").expect("generated items")];
        assert!(!primal.contains("checkpoint"), "{primal}");
        assert!(
            primal.contains("#[cfg_attr(all(), allow(unused_mut))]"),
            "{primal}"
        );
        assert!(out.contains("#[cfg(all())]") && out.contains("#[cfg(not(all()))]"));
        let checkpointed = out.matches("checkpoint::Checkpoints").count();
        assert!(checkpointed > 0, "{out}");

        let off = expand_to_string(
            "",
            "fn f(x: f64) -> f64 { let mut s = 1.0; #[cfg_attr(any(), checkpoint)] for _ in 0..4 { s = s * x; } s }",
        );
        assert!(!off[..off.find("#[doc(hidden)]").unwrap()].contains("cfg_attr"));
        assert!(off.contains("checkpoint::Checkpoints") && off.contains("#[cfg(any())]"));
    }

    #[test]
    fn checkpoint_under_cfg_attr_off_a_loop_is_reported() {
        let out = expand_to_string(
            "",
            "fn f(x: f64) -> f64 { #[cfg_attr(all(), checkpoint)] let y = x * x; y }",
        );
        assert!(out.contains("goes on a `for` or `while` loop"), "{out}");
    }
}
