//! Long blocks declare their locals up front.
//!
//! Every `let` opens a scope nested in the one before it, and rustc's debug
//! info writer (LLVM's DWARF emitter) recurses once per nested scope: a block
//! of about 3 000 `let`s overflows rustc's stack in a debug build. The sweeps
//! write about two `let`s per operation of the user's, so a function of
//! 1 500 `let`s, or one sum of 2 000 terms, compiled plain but not annotated.
//! A block with more than [`MAX_LETS`] `let`s instead declares its locals
//! some dozens at a time, `let (a, mut b, c);`, and assigns them, `a = ..;`:
//! one scope per declaration, so a block of n `let`s nests about n / 64
//! deep (√n beyond 4 096).

use std::collections::HashMap;

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::parse::Parser;
use syn::{Expr, Pat, Stmt};

/// Blocks with at most this many `let`s are left as written.
const MAX_LETS: usize = 64;

/// `body` (statements and a tail) with every block of more than
/// [`MAX_LETS`] `let`s declaring its locals up front, and whether any did.
/// Only those blocks are parsed and printed again, inner blocks first.
pub fn declare_up_front(body: TokenStream) -> (TokenStream, bool) {
    let mut changed = false;
    let body = rewrite(body, &mut changed);
    (body, changed)
}

/// The statements of a block (or other tokens) with their long blocks
/// rewritten. A `let` at the top of a brace group is a statement of the
/// block the group is.
fn rewrite(tokens: TokenStream, changed: &mut bool) -> TokenStream {
    let mut lets = 0;
    let tokens: TokenStream = tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut inner_changed = false;
                let inner = rewrite(g.stream(), &mut inner_changed);
                if !inner_changed {
                    return TokenTree::Group(g);
                }
                *changed = true;
                let mut rewritten = proc_macro2::Group::new(g.delimiter(), inner);
                rewritten.set_span(g.span());
                TokenTree::Group(rewritten)
            }
            TokenTree::Ident(i) => {
                lets += usize::from(i == "let");
                TokenTree::Ident(i)
            }
            t => t,
        })
        .collect();
    if lets <= MAX_LETS {
        return tokens;
    }
    let Ok(stmts) = syn::Block::parse_within.parse2(tokens.clone()) else {
        return tokens;
    };
    *changed = true;
    // At most √n declarations of at most √n locals each.
    declare_block(stmts, lets.isqrt().max(MAX_LETS))
}

/// One local a `let` binds.
struct Binding {
    ident: syn::Ident,
    mutable: bool,
    ty: Option<syn::Type>,
}

/// What a `let` binds, if its pattern is a name (typed or not) or a tuple
/// of names and `_`, and what its assignment writes instead of the pattern.
fn bindings(pat: &Pat) -> Option<(Vec<Binding>, TokenStream)> {
    let simple = |p: &Pat, ty: Option<&syn::Type>| match p {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() && pi.attrs.is_empty() => {
            Some(Binding {
                ident: pi.ident.clone(),
                mutable: pi.mutability.is_some(),
                ty: ty.cloned(),
            })
        }
        _ => None,
    };
    match pat {
        Pat::Ident(pi) => {
            let b = simple(pat, None)?;
            Some((vec![b], pi.ident.to_token_stream()))
        }
        Pat::Type(pt) => {
            let b = simple(&pt.pat, Some(&pt.ty))?;
            let ident = b.ident.to_token_stream();
            Some((vec![b], ident))
        }
        Pat::Tuple(t) if t.attrs.is_empty() => {
            let mut out = Vec::new();
            let mut places = Vec::new();
            for p in &t.elems {
                match p {
                    Pat::Wild(_) => places.push(quote!(_)),
                    _ => {
                        let b = simple(p, None)?;
                        places.push(b.ident.to_token_stream());
                        out.push(b);
                    }
                }
            }
            Some((out, quote!((#(#places,)*))))
        }
        _ => None,
    }
}

/// Whether the initializer of a `let` may extend a temporary's lifetime to
/// the block (`let r = &f();`); an assignment would not, so such a `let`
/// stays. A borrow of a place (`&x`, `&x[i]`) creates no temporary.
fn extends_temporaries(e: &Expr) -> bool {
    match e {
        Expr::Reference(r) => !matches!(&*r.expr, Expr::Path(_) | Expr::Field(_) | Expr::Index(_)),
        Expr::Paren(p) => extends_temporaries(&p.expr),
        Expr::Group(g) => extends_temporaries(&g.expr),
        Expr::Cast(c) => extends_temporaries(&c.expr),
        Expr::Tuple(t) => t.elems.iter().any(extends_temporaries),
        Expr::Array(a) => a.elems.iter().any(extends_temporaries),
        Expr::Call(c) => c.args.iter().any(extends_temporaries),
        Expr::Struct(s) => s.fields.iter().any(|f| extends_temporaries(&f.expr)),
        Expr::Block(b) => block_tail_extends(&b.block),
        Expr::Unsafe(u) => block_tail_extends(&u.block),
        Expr::If(i) => {
            block_tail_extends(&i.then_branch)
                || i.else_branch
                    .as_ref()
                    .is_some_and(|(_, e)| extends_temporaries(e))
        }
        Expr::Match(m) => m.arms.iter().any(|a| extends_temporaries(&a.body)),
        _ => false,
    }
}

fn block_tail_extends(b: &syn::Block) -> bool {
    match b.stmts.last() {
        Some(Stmt::Expr(e, None)) => extends_temporaries(e),
        _ => false,
    }
}

/// The statements of one long block, its `let`s turned into assignments
/// after declarations of their locals. A `let` stays as written if it binds
/// a name the block binds twice (which binding an assignment would write
/// is then ambiguous), has attributes or `else`, or extends a temporary.
///
/// Declaring a local earlier than its `let` is sound because no statement
/// of the sweeps reads a name before the `let` that binds it in the same
/// block (each value's local is bound once, where it is defined); if one
/// did, rustc would reject the read of an unassigned local, never run it.
fn declare_block(stmts: Vec<Stmt>, per_declaration: usize) -> TokenStream {
    let mut times_bound = HashMap::new();
    for s in &stmts {
        if let Stmt::Local(l) = s {
            for_each_ident(&l.pat, &mut |i| {
                *times_bound.entry(i.to_string()).or_insert(0) += 1
            });
        }
    }
    let mut out = TokenStream::new();
    let mut declared = Vec::new();
    let mut assigned = TokenStream::new();
    for stmt in stmts {
        match assignment(&stmt, &times_bound) {
            Some((bindings, assignment)) => {
                if declared.len() + bindings.len() > per_declaration {
                    out.extend(declaration(std::mem::take(&mut declared)));
                    out.extend(std::mem::take(&mut assigned));
                }
                declared.extend(bindings);
                assigned.extend(assignment);
            }
            None if declared.is_empty() => stmt.to_tokens(&mut out),
            None => stmt.to_tokens(&mut assigned),
        }
    }
    out.extend(declaration(declared));
    out.extend(assigned);
    out
}

/// A `let` as an assignment (`a = ..;`, `(a, _) = ..;`) with the locals it
/// binds, if it can be one.
fn assignment(
    stmt: &Stmt,
    times_bound: &HashMap<String, usize>,
) -> Option<(Vec<Binding>, TokenStream)> {
    let Stmt::Local(l) = stmt else { return None };
    let init = l.init.as_ref()?;
    if !l.attrs.is_empty() || init.diverge.is_some() || extends_temporaries(&init.expr) {
        return None;
    }
    let (bindings, place) = bindings(&l.pat)?;
    if bindings.is_empty()
        || bindings
            .iter()
            .any(|b| times_bound[&b.ident.to_string()] > 1)
    {
        return None;
    }
    let (eq, expr, semi) = (&init.eq_token, &init.expr, &l.semi_token);
    Some((bindings, quote!(#place #eq #expr #semi)))
}

/// `let (a, mut b, c);`, or `let (a, b): (_, f32);` if one has a type.
fn declaration(bindings: Vec<Binding>) -> Option<TokenStream> {
    if bindings.is_empty() {
        return None;
    }
    let names = bindings.iter().map(|b| {
        let (m, i) = (b.mutable.then(|| quote!(mut)), &b.ident);
        quote!(#m #i)
    });
    let ty = bindings.iter().any(|b| b.ty.is_some()).then(|| {
        let tys = bindings.iter().map(|b| match &b.ty {
            Some(t) => t.to_token_stream(),
            None => quote!(_),
        });
        quote!(: (#(#tys,)*))
    });
    Some(quote!(let (#(#names,)*) #ty;))
}

fn for_each_ident(pat: &Pat, f: &mut impl FnMut(&syn::Ident)) {
    match pat {
        Pat::Ident(pi) => {
            f(&pi.ident);
            if let Some((_, sub)) = &pi.subpat {
                for_each_ident(sub, f);
            }
        }
        Pat::Type(pt) => for_each_ident(&pt.pat, f),
        Pat::Tuple(t) => t.elems.iter().for_each(|p| for_each_ident(p, f)),
        Pat::TupleStruct(t) => t.elems.iter().for_each(|p| for_each_ident(p, f)),
        Pat::Reference(r) => for_each_ident(&r.pat, f),
        Pat::Paren(p) => for_each_ident(&p.pat, f),
        Pat::Slice(s) => s.elems.iter().for_each(|p| for_each_ident(p, f)),
        Pat::Struct(s) => s.fields.iter().for_each(|fp| for_each_ident(&fp.pat, f)),
        Pat::Or(o) => o.cases.iter().for_each(|p| for_each_ident(p, f)),
        _ => {}
    }
}
