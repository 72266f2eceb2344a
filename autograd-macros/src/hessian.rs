//! Second order, `#[differentiable(hessian)]`: forward over reverse.
//!
//! The function's reverse sweep is generated a second time, from a *twin*:
//! the user's function rewritten generic over its scalar (`f64` becomes a
//! type parameter, a literal `2.0` becomes `S::from(2.0f64).unwrap()`, in
//! `vec![..]` too, a call of `g` a call of `g`'s twin). The twin goes through the ordinary
//! generic pipeline, and `NAME_hvp` instantiates its gradient at the dual
//! number `autograd::Dual<f64>`: the real parts are the value and the
//! gradient, the dual parts the Hessian-vector product (`NAME_hessian`
//! runs it at `autograd::dual::DualLanes<f64, 8>`, eight products a sweep). No second
//! derivative rule exists anywhere: `Dual`'s arithmetic takes its
//! derivatives from the runtime's tangent rules, applied to the generated
//! reverse sweep.
//!
//! The twin is rewritten rather than the emitter parameterised on a dual
//! scalar because the generic pipeline already produces a sweep with no
//! `f64` literal in it, and the twin's items are hidden and unused at
//! `f64`, so the plain expansion stays byte for byte what it was.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use crate::ir::{Block, Function, LoopHeader, Op, Stmt, ValueId};
use crate::sig::{scalar_param, twin_name};

/// The user's function rewritten generic over its float type `float`.
pub fn twin(item: &syn::ItemFn, float: &syn::Ident, sig: &crate::sig::Signature) -> syn::ItemFn {
    let mut twin = item.clone();
    twin.attrs
        .retain(|a| !a.path().is_ident("doc") && !a.path().is_ident("inline"));
    twin.sig.ident = twin_name(&item.sig.ident);
    let s = scalar_param();
    // An assertion's message may print a float, and `assert_eq!` shows
    // both sides: the scalars the copy runs at print their values.
    let printed = asserts(&item.block).then(|| quote!(+ ::core::fmt::Debug + ::core::fmt::Display));
    // Matrices of the scalar multiply, and scale from the left, as
    // nalgebra's of `f64` do.
    let scalar: syn::GenericParam = if takes_matrices(item) {
        syn::parse_quote!(
            #s: ::autograd::__private::Float + ::autograd::__private::rules::linalg::MatrixScalar #printed + 'static
        )
    } else {
        syn::parse_quote!(#s: ::autograd::__private::Float #printed + 'static)
    };
    // Before the lengths (`const N: usize`), where the generated items put
    // a scalar parameter.
    let params = std::mem::take(&mut twin.sig.generics.params);
    let (lengths, others): (Vec<_>, Vec<_>) = params
        .into_iter()
        .partition(|p| matches!(p, syn::GenericParam::Const(_)));
    twin.sig.generics.params = others
        .into_iter()
        .chain(std::iter::once(scalar))
        .chain(lengths)
        .collect();
    let mut rewrite = Generic {
        float: float.clone(),
        scalar: s,
        constant_data: Vec::new(),
    };
    rewrite.visit_signature_mut(&mut twin.sig);
    // A `#[constant]` argument of a type the macro does not differentiate
    // keeps it: the twin is called with the caller's data (`&[Vec<f64>]`,
    // a struct of `f64`s), and lowering converts each float it reads to
    // the scalar. (Constant floats, slices and matrices are converted to
    // dual numbers by `NAME_hvp`, as before.)
    for (arg, written) in twin.sig.inputs.iter_mut().zip(&item.sig.inputs) {
        if let (syn::FnArg::Typed(arg), syn::FnArg::Typed(written)) = (arg, written)
            && let syn::Pat::Ident(name) = &*written.pat
            && sig.params.iter().any(|p| {
                p.ident == name.ident
                    && !p.differentiable
                    && matches!(p.kind, crate::sig::ParamKind::Other)
            })
        {
            arg.ty = written.ty.clone();
            rewrite.constant_data.push(name.ident.clone());
        }
    }
    rewrite.visit_block_mut(&mut twin.block);
    twin
}

/// Whether `item` takes a nalgebra matrix or vector, or builds one from
/// floats: its twin computes with matrices of the dual scalar.
pub fn takes_matrices(item: &syn::ItemFn) -> bool {
    crate::lower::builds_matrices(&item.block)
        || item.sig.inputs.iter().any(|a| {
            matches!(a, syn::FnArg::Typed(pt) if {
                let ty = match &*pt.ty {
                    syn::Type::Reference(r) => &*r.elem,
                    t => t,
                };
                crate::sig::is_matrix(ty)
            })
        })
}

/// Rewrites `float` code into code generic over `scalar`.
struct Generic {
    float: syn::Ident,
    scalar: syn::Ident,
    /// The `#[constant]` arguments that keep their types.
    constant_data: Vec<syn::Ident>,
}

impl Generic {
    /// Whether `e` reads a part of a `#[constant]` argument that keeps its
    /// type (`&sched.times`, `rows[0]`): a `let` naming its type keeps it.
    fn reads_constant_data(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Reference(r) => self.reads_constant_data(&r.expr),
            syn::Expr::Paren(p) => self.reads_constant_data(&p.expr),
            syn::Expr::Field(f) => self.reads_constant_data(&f.base),
            syn::Expr::Index(i) => self.reads_constant_data(&i.expr),
            syn::Expr::Path(p) => {
                p.qself.is_none()
                    && p.path.get_ident().is_some_and(|i| {
                        self.constant_data
                            .iter()
                            .any(|c| crate::lower::same_binding(i, c))
                    })
            }
            _ => false,
        }
    }
}

impl Generic {
    /// `S::from(expr).unwrap()`: a constant the lowering reads as one.
    fn constant(&self, expr: TokenStream, span: Span) -> syn::Expr {
        let s = &self.scalar;
        syn::parse_quote_spanned!(span=> #s::from(#expr).unwrap())
    }

    /// Whether `path` is `f64`, `std::f64` or `core::f64`, followed by
    /// at least one segment (`f64::consts::PI`, `f64::EPSILON`, `f64::max`).
    fn is_float_item(&self, path: &syn::Path) -> bool {
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let float = self.float.to_string();
        match segs.as_slice() {
            [first, _, ..] if *first == float => true,
            [std, first, _, ..] => (std == "std" || std == "core") && *first == float,
            _ => false,
        }
    }
}

impl Generic {
    /// Whether `path` names a function of the float (`f64::tanh`), not a
    /// constant (`f64::EPSILON`, `f64::consts::PI`): asked of the rule
    /// table, as lowering asks it of a method.
    fn is_float_function(&self, path: &syn::Path) -> bool {
        // `f64::tanh` or `std::f64::tanh`: the segment after the float's.
        let float_at = usize::from(path.segments[0].ident != self.float);
        self.is_float_item(path)
            && path.segments.len() == float_at + 2
            && path
                .segments
                .last()
                .is_some_and(|s| crate::table::is_float_function(&s.ident.to_string()))
    }
}

impl VisitMut for Generic {
    /// A `const` or `static` item of the body keeps its declared type (the
    /// twin's scalar is a parameter of the function, which an item cannot
    /// name); lowering converts its reads as it does a module item's.
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        if let syn::Pat::Type(typed) = &mut l.pat
            && let Some(init) = &mut l.init
            && self.reads_constant_data(&init.expr)
        {
            // `let times: &[f64] = &sched.times;`: the data's own type.
            self.visit_pat_mut(&mut typed.pat);
            self.visit_expr_mut(&mut init.expr);
            return;
        }
        syn::visit_mut::visit_local_mut(self, l);
    }

    fn visit_type_path_mut(&mut self, t: &mut syn::TypePath) {
        if t.qself.is_none() && t.path.is_ident(&self.float) {
            let span = t.path.segments[0].ident.span();
            let mut s = self.scalar.clone();
            s.set_span(span);
            t.path = s.into();
            return;
        }
        syn::visit_mut::visit_type_path_mut(self, t);
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Float(lit),
                ..
            }) => {
                // Suffixed with the function's type, so the conversion is
                // exact: the value is the literal the primal reads.
                let span = lit.span();
                let digits = lit.base10_digits();
                let suffixed = syn::LitFloat::new(&format!("{digits}{}", self.float), span);
                *e = self.constant(suffixed.into_token_stream(), span);
            }
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(lit),
                ..
            }) if self.float == lit.suffix() => {
                let span = lit.span();
                let exact =
                    syn::LitFloat::new(&format!("{}.0{}", lit.base10_digits(), self.float), span);
                *e = self.constant(exact.into_token_stream(), span);
            }
            syn::Expr::Cast(c) if matches!(&*c.ty, syn::Type::Path(t) if t.path.is_ident(&self.float)) =>
            {
                self.visit_expr_mut(&mut c.expr);
                let span = c.as_token.span;
                let inner = &c.expr;
                *e = self.constant(quote!(#inner), span);
            }
            syn::Expr::Call(call) => {
                if let syn::Expr::Path(p) = &mut *call.func
                    && p.qself.is_none()
                    && self.is_float_item(&p.path)
                {
                    for arg in &mut call.args {
                        self.visit_expr_mut(arg);
                    }
                    let method = p.path.segments.last().map(|s| s.ident.to_string());
                    let span = p.path.segments[0].ident.span();
                    if method.as_deref() == Some("from") {
                        // `f64::from(n)`: a conversion of a constant.
                        let args = &call.args;
                        *e = self.constant(quote!(#args), span);
                    } else {
                        // `f64::exp(x)` is `S::exp(x)`, a method of `Float`.
                        let s = &self.scalar;
                        let last = p.path.segments.last().cloned();
                        p.path = syn::parse_quote_spanned!(span=> #s::#last);
                    }
                    return;
                }
                syn::visit_mut::visit_expr_mut(self, e);
            }
            // `m.map(f64::tanh)`, `x.iter().copied().map(f64::exp)`: a
            // function path passed to a method is the scalar's method, as
            // in a call (not a constant, which `map` would reject).
            syn::Expr::MethodCall(mc) => {
                for arg in &mut mc.args {
                    if let syn::Expr::Path(p) = arg
                        && p.qself.is_none()
                        && self.is_float_function(&p.path)
                    {
                        let span = p.path.segments[0].ident.span();
                        let s = &self.scalar;
                        let last = p.path.segments.last().cloned();
                        p.path = syn::parse_quote_spanned!(span=> #s::#last);
                    }
                }
                syn::visit_mut::visit_expr_mut(self, e);
            }
            syn::Expr::Path(p) if p.qself.is_none() && self.is_float_item(&p.path) => {
                // `f64::consts::PI`, `f64::EPSILON`: constants of the float.
                let span = p.path.segments[0].ident.span();
                let path = p.to_token_stream();
                *e = self.constant(path, span);
            }
            // `Float` has no `+=`: `a += b` is `a = a + (b)` (as the
            // generic pipeline emits it), harmless on an integer.
            syn::Expr::Binary(b) if compound(&b.op).is_some() => {
                self.visit_expr_mut(&mut b.left);
                self.visit_expr_mut(&mut b.right);
                let op = compound(&b.op);
                let (left, right) = (&b.left, &b.right);
                *e = syn::parse_quote_spanned!(b.op.span()=> #left = #left #op (#right));
            }
            // `vec![0.0; n]`, `vec![1.0, x[0]]`: the elements are
            // expressions of the body as `[0.0; n]`'s are, and lowering
            // reads them with the same grammar (a literal left `{float}`
            // would fill a `Vec` the scalar's sweep cannot write into).
            syn::Expr::Macro(m) if m.mac.path.is_ident("vec") => {
                if let Ok(mut elems) = m.mac.parse_body::<crate::lower::VecMacro>() {
                    for elem in elems.exprs_mut() {
                        self.visit_expr_mut(elem);
                    }
                    m.mac.tokens = elems.into_token_stream();
                }
            }
            // `matches!(x * y, p if p > 1.0)`: the scrutinee and the guard
            // are the body's expressions, their literals the scalar's.
            syn::Expr::Macro(m) if crate::lower::matches_parts(&m.mac).is_some() => {
                if let Some((mut scrutinee, pat, guard)) = crate::lower::matches_parts(&m.mac) {
                    self.visit_expr_mut(&mut scrutinee);
                    let guard = guard.map(|mut g| {
                        self.visit_expr_mut(&mut g);
                        quote!(if #g)
                    });
                    m.mac.tokens = quote!(#scrutinee, #pat #guard);
                }
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    /// `debug_assert!(x > 0.0, "..")`, `assert_eq!(a, 1.0)`: the compared
    /// expressions are the body's, their literals the scalar's; the
    /// message is left as written. Other macros are left as written.
    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        let compared = match m.path.segments.last().map(|s| s.ident.to_string()) {
            Some(name) if name == "assert" || name == "debug_assert" => 1,
            Some(name) if name.ends_with("assert_eq") || name.ends_with("assert_ne") => 2,
            _ => return,
        };
        let Ok(mut args) = m.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) else {
            return;
        };
        for arg in args.iter_mut().take(compared) {
            self.visit_expr_mut(arg);
        }
        m.tokens = args.into_token_stream();
    }
}

/// Whether a body asserts (`assert!`, `debug_assert_eq!`, ..).
fn asserts(body: &syn::Block) -> bool {
    struct Found(bool);
    impl<'ast> syn::visit::Visit<'ast> for Found {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            self.0 |= m
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident.to_string().contains("assert"));
        }
    }
    let mut found = Found(false);
    syn::visit::Visit::visit_block(&mut found, body);
    found.0
}

/// The operator of a compound assignment: `+` for `+=`.
fn compound(op: &syn::BinOp) -> Option<TokenStream> {
    Some(match op {
        syn::BinOp::AddAssign(t) => quote_spanned!(t.spans[0]=> +),
        syn::BinOp::SubAssign(t) => quote_spanned!(t.spans[0]=> -),
        syn::BinOp::MulAssign(t) => quote_spanned!(t.spans[0]=> *),
        syn::BinOp::DivAssign(t) => quote_spanned!(t.spans[0]=> /),
        _ => return None,
    })
}

/// Calls `f` on the callee path of every call of another differentiable
/// function in `block`.
fn for_each_call(block: &mut Block, f: &mut impl FnMut(ValueId, &mut syn::Path)) {
    for stmt in &mut block.stmts {
        match stmt {
            Stmt::Let {
                dst,
                op: Op::Call { func, .. },
                ..
            } => f(*dst, func),
            Stmt::Let { .. } => {}
            Stmt::If(i) => {
                for_each_call(&mut i.then_blk, f);
                for_each_call(&mut i.else_blk, f);
            }
            Stmt::Loop(l) => {
                if let LoopHeader::While { cond_blk, .. } = &mut l.header {
                    for_each_call(cond_blk, f);
                }
                for_each_call(&mut l.body, f);
            }
        }
    }
}

/// The twin as emitted: its value is its reverse sweep's, not its body's
/// as written, which need not compile at a generic scalar (`a * b` of two
/// `&f64`, `.sum()` of floats: `Float` has neither).
pub fn twin_primal(twin: &syn::ItemFn, sig: &crate::sig::Signature) -> syn::ItemFn {
    use crate::emit::names;
    let name = &twin.sig.ident;
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let path = if names::has_no_carrier(name) {
        quote!(#vjp_full)
    } else {
        quote!(#name::#vjp_full)
    };
    let args = sig.params.iter().map(|p| &p.ident);
    let mut primal = twin.clone();
    primal.block = Box::new(syn::parse_quote!({ #path(#(#args),*).0 }));
    primal
}

/// The twin's calls go to the callees' twins: `m::g` becomes
/// `m::__ad_hessian_g` in the lowered twin, and a call passing in-out
/// arguments, lowered to the callee's hidden items (`m::g::__inout_call`),
/// goes to its twin's (`m::__ad_hessian_g::__inout_call`); `hessian_link`
/// then routes them through the callees' `SecondOrder` and
/// `InOutSecondOrder` implementations. Returns the callees.
pub fn call_twins(f: &mut Function) -> crate::hessian_link::Callees {
    let mut twins = crate::hessian_link::Callees::new();
    // A function the file shows without the attribute has no twin: its
    // call stays as written (an integer's, `counted(i)`; of a float, the
    // first-order analysis reports it).
    let plain: std::collections::HashSet<ValueId> =
        f.unannotated_calls.iter().map(|c| c.value).collect();
    for_each_call(&mut f.body, &mut |dst, func| {
        if plain.contains(&dst) {
            return;
        }
        // The runtime's `untuple` (a call's tuple as an array) is generic
        // over the tuple's type: the twin calls it as it is.
        if func.leading_colon.is_some() && func.segments[0].ident == "autograd" {
            return;
        }
        let n = func.segments.len();
        let at = if n >= 2 && crate::ir::is_inout_item(&func.segments[n - 1].ident) {
            n - 2
        } else if n >= 1 {
            n - 1
        } else {
            return;
        };
        let callee = &mut func.segments[at].ident;
        twins.insert(twin_name(callee).to_string(), callee.clone());
        *callee = twin_name(callee);
    });
    twins
}

/// Marks every item of the twin's expansion hidden and quiet: the twin is
/// an implementation detail, and only its gradient is used. Its calls of
/// `callees` go through their `SecondOrder` implementations, and it gains its
/// own: `name`'s, through which callers' twins call it.
pub fn hide(
    items: TokenStream,
    name: &syn::Ident,
    callees: &crate::hessian_link::Callees,
    matrices: bool,
) -> TokenStream {
    let Ok(mut file) = syn::parse2::<syn::File>(items.clone()) else {
        return items;
    };
    crate::hessian_link::route_calls(&mut file, callees);
    if matrices {
        // A twin's gradient check compares with `f64` differences, which
        // a matrix of its scalar has none of; the twin's check is unused.
        let check = crate::emit::names::public(&twin_name(name), "check");
        file.items
            .retain(|item| !matches!(item, syn::Item::Fn(f) if f.sig.ident == check));
    }
    for item in &mut file.items {
        let attrs: &mut Vec<syn::Attribute> = match item {
            syn::Item::Fn(i) => &mut i.attrs,
            syn::Item::Struct(i) => &mut i.attrs,
            syn::Item::Impl(i) => &mut i.attrs,
            syn::Item::Const(i) => &mut i.attrs,
            _ => continue,
        };
        attrs.retain(|a| !a.path().is_ident("doc"));
        attrs.push(syn::parse_quote!(#[doc(hidden)]));
        attrs.push(syn::parse_quote!(#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]));
    }
    let mut out = file.to_token_stream();
    if !crate::emit::names::has_no_carrier(name) {
        out.extend(crate::hessian_link::implementation(
            &file,
            name,
            &twin_name(name),
        ));
    }
    out
}

/// The `SecondOrder` implementation of a generic function, which is its own twin,
/// from its expansion `generated`.
pub fn own_twin(generated: &TokenStream, name: &syn::Ident) -> TokenStream {
    match syn::parse2::<syn::File>(generated.clone()) {
        Ok(file) if !crate::emit::names::has_no_carrier(name) => {
            crate::hessian_link::implementation(&file, name, name)
        }
        _ => TokenStream::new(),
    }
}

/// The float type of a function `hessian` can take, or one error at the
/// `hessian` key saying what it takes.
pub fn float_of(
    cx: &crate::ctxt::Ctxt,
    key: &syn::Ident,
    sig: &crate::sig::Signature,
    mode: &crate::attr::Mode,
) -> Option<syn::Ident> {
    use crate::attr::Mode;
    use crate::sig::Ret;
    let reject = |message: &str| {
        cx.error_spanned_by(key, message);
        None
    };
    match mode {
        Mode::Generated => {}
        Mode::Implicit(_) => {}
        Mode::Backward(_) => {
            return reject(
                "a `backward = rule` function has no second order: its body is not differentiated; write the function without `backward` to get `hessian`",
            );
        }
    }
    if let Some(scalar) = &sig.scalar
        && matches!(scalar.bound, crate::sig::ScalarBound::RealField)
    {
        return reject(
            "`hessian` on a generic function takes its scalar bound by `Float` (`T: Float`), which dual numbers implement, not `RealField`",
        );
    }
    match &sig.ret {
        // A generic function is its own twin: its gradient is instantiated
        // at `Dual<T>`.
        Ret::Float(_) if let Some(scalar) = &sig.scalar => Some(scalar.ident.clone()),
        Ret::Float(f) | Ret::Result { ok: f, .. } => Some(f.0.clone()),
        // A helper updating its in-out arguments, or returning several
        // numbers (residuals): no Hessian of its own, but a twin its
        // callers' second order goes through, of the float its types name.
        Ret::Unit | Ret::Outputs(_) if let Some(scalar) = &sig.scalar => Some(scalar.ident.clone()),
        Ret::Outputs(ty) => Some(named_float(ty.to_token_stream())),
        Ret::Unit => Some(named_float(
            sig.params
                .iter()
                .filter(|p| p.inout)
                .map(|p| match &p.kind {
                    crate::sig::ParamKind::Float(f)
                    | crate::sig::ParamKind::Array { elem: f, .. } => f.to_token_stream(),
                    crate::sig::ParamKind::Matrix { owned, .. } => owned.to_token_stream(),
                    _ => TokenStream::new(),
                })
                .collect(),
        )),
        _ => reject("`hessian` needs a function returning one number (`f64` or `f32`)"),
    }
}

/// `f32` if `types` name it (`Vec<f32>`, `&mut [f32]`, `(f32, f32)`), else
/// `f64`.
fn named_float(types: TokenStream) -> syn::Ident {
    fn names_f32(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == "f32",
            proc_macro2::TokenTree::Group(g) => names_f32(g.stream()),
            _ => false,
        })
    }
    let float = if names_f32(types) { "f32" } else { "f64" };
    syn::Ident::new(float, Span::call_site())
}
