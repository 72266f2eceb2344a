//! The pipeline: parse, lower, analyze, generate.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::attr::{self, Jvp, Mode};
use crate::ctxt::Ctxt;
use crate::enclosing::Enclosing;
use crate::{analysis, checkpoint, emit, hessian, lower, sig};

/// The attribute as the user wrote it: [`expand`], but for a function
/// naming `Self` on its own (see [`self_outside_its_impl`]). Code the
/// macro writes and expands again may name `Self` where it is in an impl.
/// `enclosing` is where the function stands, where the macro could tell
/// (see [`Enclosing`]): a function of an `impl` block gets associated
/// functions only, and one of a trait impl gets them in an inherent impl
/// written in its body ([`in_trait_impl`]).
pub fn expand_user(attr: TokenStream, item: TokenStream, enclosing: Enclosing) -> TokenStream {
    let Ok(func) = syn::parse2::<syn::ItemFn>(item.clone()) else {
        return expand(attr, item);
    };
    if let Some(out) = self_outside_its_impl(&func) {
        return out;
    }
    if let Enclosing::TraitImpl { header } = &enclosing {
        return in_trait_impl(&attr, &func, header);
    }
    if enclosing == Enclosing::Inherent
        && let Some(out) = crate::structs::expand(&attr, &func, true)
    {
        return out;
    }
    expand(attr, item)
}

/// A function of a trait impl with `#[differentiable]` on itself alone.
/// The trait impl holds only the trait's items, so the generated ones go
/// where the block's attribute puts them, in an inherent impl of the type,
/// written inside the function's body (an `impl` there is global): the
/// expansion of the block holding the function alone, but for the trait
/// impl itself. Where the block is generic (its parameters are not
/// visible in the body), one error at the name saying what to write.
fn in_trait_impl(attr: &TokenStream, func: &syn::ItemFn, header: &str) -> TokenStream {
    let name = &func.sig.ident;
    let block: Option<syn::ItemImpl> = syn::parse_str(&format!("{header} {{}}")).ok();
    if let Some(mut block) = block.filter(|b| {
        b.generics.params.is_empty()
            && matches!(&*b.self_ty, syn::Type::Path(p) if p.path.segments.iter().all(|s| s.arguments.is_none()))
    }) {
        let mut marked: syn::ImplItemFn = syn::parse_quote!(#func);
        marked.attrs.push(syn::parse_quote!(#[differentiable(#attr)]));
        block.items.push(syn::ImplItem::Fn(marked));
        let expanded = crate::structs::expand_impl(TokenStream::new(), block);
        if let Ok(file) = syn::parse2::<syn::File>(expanded) {
            // Everything but the trait impl, whose function is the user's.
            let generated = file.items.into_iter().filter_map(|item| match item {
                syn::Item::Impl(i) if i.trait_.is_some() => None,
                syn::Item::Impl(mut i) => {
                    i.attrs.push(syn::parse_quote!(#[allow(non_local_definitions)]));
                    Some(i.into_token_stream())
                }
                item => Some(item.into_token_stream()),
            });
            let mut user: syn::ItemFn = syn::parse2(as_written(func)).expect("a function");
            let body = &user.block.stmts;
            let block: syn::Block = syn::parse_quote!({ #(#generated)* #(#body)* });
            user.block = Box::new(block);
            return user.into_token_stream();
        }
    }
    let mut out = syn::Error::new(
        name.span(),
        format!(
            "`#[differentiable]` on `{name}` alone, in the generic `{header}`: the generated functions (`{name}_grad`, ..) go in an inherent impl of the type, which the macro writes for a type without parameters only; write the body as a free `#[differentiable]` function generic over the scalar and call it from `{name}`"
        ),
    )
    .to_compile_error();
    out.extend(as_written(func));
    out
}

/// The function as the user wrote it, without the macro's markers
/// (`#[constant]`, `#[checkpoint]`): what compiles where the macro has
/// reported an error instead of generating.
fn as_written(func: &syn::ItemFn) -> TokenStream {
    let mut user = func.clone();
    for arg in &mut user.sig.inputs {
        if let syn::FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !sig::is_constant_attr(a));
        }
    }
    let cx = Ctxt::default();
    let _ = checkpoint::strip(&cx, &mut user.block, false);
    let _ = cx.check();
    user.to_token_stream()
}

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) if let Ok(imp) = syn::parse2::<syn::ItemImpl>(item.clone()) => {
            return crate::structs::expand_impl(attr, imp);
        }
        Err(e) => {
            let e = syn::Error::new(
                e.span(),
                "`#[differentiable]` goes on a function, `fn name(x: f64, ..) -> f64 { .. }`, or on an `impl` block whose functions it marks",
            );
            let mut out = e.to_compile_error();
            out.extend(item);
            return out;
        }
    };
    if let Some(out) = crate::structs::expand(&attr, &func, false) {
        return out;
    }
    if let Some(out) = crate::structs::expand_struct_result(&attr, &func) {
        return out;
    }
    let cx = Ctxt::default();
    let attr::Options { mode, jvp, hessian } = attr::parse(&cx, attr);
    // Two nalgebras: one error, and stand-ins for the generated items.
    if let Some((span, message)) = crate::nalgebra_versions::mismatch(&func.sig) {
        cx.error_at(span, message);
    }
    let signature = sig::parse(&cx, &func.sig, matches!(mode, Mode::Implicit(_)));
    // In-out arguments: of a body the macro differentiates.
    if let Some(s) = &signature
        && let Some(p) = s.params.iter().find(|p| p.inout)
    {
        let option = match (&mode, &jvp) {
            (Mode::Implicit(_), _) => Some("implicit"),
            (Mode::Backward(_), _) => Some("backward"),
            (_, Jvp::Rule(_)) => Some("jvp = rule"),
            _ => None,
        };
        if let Some(option) = option {
            cx.error_spanned_by(
                &p.ident,
                format!("`#[differentiable({option})]` does not support in-out (`&mut`) arguments yet; use `#[differentiable]` (with `jvp`, `hessian`), or take `{}` by value and return its new value", p.ident),
            );
        }
    }
    let second_order = match (&hessian, &signature) {
        (Some(key), Some(s)) => hessian::float_of(&cx, key, s, &mode),
        _ => None,
    };
    // The twin is made from the function as written.
    let original = second_order.is_some().then(|| func.clone());
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
            lower::check_hoisted_items(&cx, &func.block);
            // Structs returned by calls, built as locals.
            let rewritten =
                crate::structs::has_struct_results(&func.sig.ident, &func.block).then(|| {
                    let mut block = (*func.block).clone();
                    for call in crate::structs::rewrite_struct_results(&func.sig.ident, &mut block)
                    {
                        if second_order.is_some() {
                            cx.error_at(call, crate::structs::HESSIAN_OF_STRUCT_RESULT);
                        }
                    }
                    block
                });
            let ir = lower::lower(&cx, s, &func.sig, rewritten.as_ref().unwrap_or(&func.block));
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
    let mut primal = func.to_token_stream();
    primal.extend(checks.clone());
    // The generated items, after the function.
    let mut out = TokenStream::new();
    match (cx.check(), signature, generated) {
        (Ok(()), Some(s), Some((ir, an))) => {
            let generated = emit::generate(&func, &s, &ir, &an, matches!(jvp, Jvp::On));
            if second_order.is_some() && s.scalar.is_some() {
                out.extend(hessian::own_twin(&generated, &func.sig.ident));
            }
            out.extend(generated);
            out.extend(an.conditional_errors.clone());
            if let Jvp::On = jvp {
                out.extend(emit::tangent::generate(&func, &s, &ir, &an));
            }
            if let (Some(float), Some(original)) = (&second_order, &original) {
                if s.scalar.is_none() && s.params.iter().any(|p| p.differentiable) {
                    out.extend(twin(original, float, &s));
                }
                out.extend(emit::hessian::generate(
                    &func,
                    &s,
                    float,
                    lower::builds_matrices(&func.block),
                ));
            }
        }
        (Ok(()), Some(s), None) => {
            out.extend(match &mode {
                Mode::Implicit(residual) => emit::implicit(&func, &s, residual),
                Mode::Backward(rule) => emit::custom(&func, &s, rule),
                Mode::Generated => TokenStream::new(),
            });
            out.extend(match (&mode, &jvp) {
                (Mode::Implicit(residual), Jvp::On) => emit::tangent::implicit(&func, &s, residual),
                (Mode::Backward(_), Jvp::Rule(rule)) => emit::tangent::custom(&func, &s, rule),
                _ => TokenStream::new(),
            });
            if let (Mode::Implicit(residual), Some(float)) = (&mode, &second_order) {
                out.extend(emit::hessian::implicit(&func, &s, residual, float));
            }
        }
        (Err(e), s, _) => {
            // The function with a body that type-checks whatever the one
            // written: rustc does not report the construct the macro has
            // reported a second time, in its own words.
            let mut stand_in = func.clone();
            stand_in.block = syn::parse_quote!({ ::core::unreachable!() });
            // Nor an argument attribute it has reported.
            for arg in &mut stand_in.sig.inputs {
                if let syn::FnArg::Typed(pt) = arg {
                    pt.attrs.retain(sig::is_lint_attr);
                }
            }
            stand_in
                .attrs
                .push(syn::parse_quote!(#[allow(unused_variables, unused_mut)]));
            primal = stand_in.to_token_stream();
            primal.extend(checks);
            out.extend(e.to_compile_error());
            if let Some(s) = s {
                out.extend(emit::stubs(&func, &s));
                if !matches!(jvp, Jvp::Off) {
                    out.extend(emit::tangent::stub(&func, &s));
                }
            }
        }
        (Ok(()), _, _) => out.extend(quote!(::core::compile_error!(
            "`#[differentiable]` could not read this function"
        );)),
    }
    primal.extend(out);
    primal
}

/// A function naming `Self` with `#[differentiable]` on itself alone (an
/// associated function or method of an `impl` block whose block has no
/// attribute): its derivative code is generated in items outside the
/// block, where `Self` names nothing. One error at the first `Self`, and
/// the function as written, which compiles in its block.
/// Whether the function's own code names `Self` (so it is an item of an
/// `impl` block).
pub fn names_self(func: &syn::ItemFn) -> bool {
    self_outside_its_impl(func).is_some()
}

fn self_outside_its_impl(func: &syn::ItemFn) -> Option<TokenStream> {
    fn first_self(tokens: TokenStream) -> Option<proc_macro2::Span> {
        tokens.into_iter().find_map(|t| match t {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => Some(i.span()),
            proc_macro2::TokenTree::Group(g) => first_self(g.stream()),
            _ => None,
        })
    }
    /// The first `Self` of the function's own code: an item declared in
    /// the body (`impl H { fn g() -> Self }`) has its own.
    struct FirstSelf(Option<proc_macro2::Span>);
    impl<'ast> syn::visit::Visit<'ast> for FirstSelf {
        fn visit_item(&mut self, _: &'ast syn::Item) {}
        // The receiver's type (`&Self` for `&self`) stays in the impl.
        fn visit_receiver(&mut self, _: &'ast syn::Receiver) {}
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if self.0.is_none()
                && let Some(first) = p.segments.first()
                && first.ident == "Self"
            {
                self.0 = Some(first.ident.span());
            }
            syn::visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if self.0.is_none() {
                self.0 = first_self(m.tokens.clone());
            }
        }
    }
    let mut found = FirstSelf(None);
    syn::visit::Visit::visit_signature(&mut found, &func.sig);
    syn::visit::Visit::visit_block(&mut found, &func.block);
    let at = found.0?;
    let mut out = syn::Error::new(
        at,
        "`Self` in a function with `#[differentiable]` on itself alone: its derivative code is generated outside the `impl` block, where `Self` names nothing; write the type's name (`Model::K`), or put `#[differentiable]` on the `impl` block too",
    )
    .to_compile_error();
    out.extend(as_written(func));
    Some(out)
}

/// The expansion of `item`'s twin (see [`hessian`]), all of it hidden:
/// its errors, if any, are the rewriting's and reported as they are.
fn twin(item: &syn::ItemFn, float: &syn::Ident, sig: &sig::Signature) -> TokenStream {
    // Structs built in the body first: their fields are then the twin's
    // scalar.
    let looped = lower::struct_locals(sig, &item.block).map(|block| syn::ItemFn {
        block: Box::new(block),
        ..item.clone()
    });
    let mut twin = hessian::twin(looped.as_ref().unwrap_or(item), float, sig);
    let cx = Ctxt::default();
    let mut out = TokenStream::new();
    let mut callees = Default::default();
    if let Some(mut s) = sig::parse(&cx, &twin.sig, false) {
        if let Some(scalar) = &mut s.scalar {
            scalar.twin = true;
        }
        // Matrices of dual numbers compute `norm`, `max` and `determinant`
        // with the runtime's functions (the table's `dual_primal`).
        if let Some(scalar) = &mut s.scalar
            && hessian::takes_matrices(item)
        {
            scalar.bound = sig::ScalarBound::DualMatrices;
        }
        let mut ir = lower::lower(&cx, &s, &twin.sig, &twin.block);
        callees = hessian::call_twins(&mut ir);
        let differentiable: Vec<bool> = s.params.iter().map(|p| p.differentiable).collect();
        let an = analysis::analyze(&cx, &ir, &differentiable);
        for arg in &mut twin.sig.inputs {
            if let syn::FnArg::Typed(pt) = arg {
                pt.attrs.retain(|a| !sig::is_constant_attr(a));
            }
        }
        let checks = checkpoint::strip(&cx, &mut twin.block, true);
        out.extend(hessian::twin_primal(&twin, &s).to_token_stream());
        out.extend(checks);
        if !cx.has_errors() {
            out.extend(emit::generate(&twin, &s, &ir, &an, false));
        }
    }
    if let Err(e) = cx.check() {
        out.extend(e.to_compile_error());
    }
    hessian::hide(
        out,
        &item.sig.ident,
        &callees,
        hessian::takes_matrices(item),
    )
}
