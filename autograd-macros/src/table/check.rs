//! The compile-time check of the rule table: for every entry, one
//! assertion per runtime function the generated code may call, coercing the
//! function to the pointer type it is called at (`const _: fn(f64, f64) ->
//! f64 = rules::exp_grad;`). Building `autograd`, which expands
//! `__rule_table_check!()`, proves that each exists with that signature;
//! a missing function or a wrong one is a compile error naming it.
//!
//! Scalar forms (primal, pullbacks, tangent) are checked at `f32` and `f64`; dispatched forms at the
//! entry's types and at those of [`Rule::also`], a matrix as
//! `DMatrix<f64>` (with a matrix, a float is `f64`); element-wise forms at
//! `DMatrix<f64>`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Form, Func, Module, Read, Rule, RuntimeFn, Tangent, Ty};

/// The assertions for `rules`, the path of the runtime's `rules` module,
/// or what is incomplete in an entry (a description no function could
/// satisfy).
pub fn assertions(rules: &TokenStream, table: &[&Rule]) -> Result<TokenStream, String> {
    let mut out = TokenStream::new();
    for rule in table {
        complete(rule)?;
        out.extend(entry(rules, rule));
    }
    let m = ty(Ty::Matrix, &quote!(f64));
    let pullback = quote!(fn(f64, f64) -> f64);
    for (form, sig) in [
        (Form::New, quote!(fn(&#m, &#m, #pullback) -> #m)),
        (Form::Acc, quote!(fn(&mut #m, &#m, &#m, #pullback))),
        (Form::Owned, quote!(fn(#m, &#m, #pullback) -> #m)),
    ] {
        out.extend(assert(rules, super::map_closure(form), sig));
    }
    Ok(quote!(const _: () = { #out };))
}

/// What the check cannot prove by compilation: that an entry describes
/// functions at all.
fn complete(rule: &Rule) -> Result<(), String> {
    let name = rule.name;
    if rule.operator.is_none() && rule.method.is_none() && rule.function.is_none() {
        return Err(format!("`{name}` answers to no syntax"));
    }
    if !rule.params.iter().any(|p| p.diff) {
        return Err(format!("`{name}` has no differentiable operand"));
    }
    for (i, p) in rule.params.iter().enumerate() {
        if p.diff && !matches!(p.ty, Ty::Float | Ty::Matrix) {
            return Err(format!("operand {i} of `{name}` cannot carry an adjoint"));
        }
        for r in p.reads {
            if matches!(r, Read::Arg(j) if *j >= rule.params.len()) {
                return Err(format!("operand {i} of `{name}` reads an operand it lacks"));
            }
        }
    }
    let names: Vec<&str> = rule
        .params
        .iter()
        .filter(|p| p.diff)
        .map(|p| p.name)
        .collect();
    if names.len() > 2 && (1..names.len()).any(|i| names[..i].contains(&names[i])) {
        return Err(format!("`{name}` names two operands alike"));
    }
    let mut k = 0;
    while let Some(i) = rule.differentiable_operand(k) {
        let scalar = !rule.has_scalar_form() || rule.runtime(Func::Pullback(i)).is_some();
        if !scalar || rule.runtime(Func::Dispatched(k, Form::New)).is_none() {
            return Err(format!("operand {i} of `{name}` has no pullback name"));
        }
        k += 1;
    }
    if rule.elementwise && !(rule.params.len() == 1 && rule.params[0].reads.len() <= 1) {
        return Err(format!(
            "`{name}` is element-wise, but its pullback reads more than one value"
        ));
    }
    if rule.tangent == Tangent::Pullback && !rule.has_scalar_form() && !is_elementwise(rule) {
        return Err(format!(
            "`{name}`'s tangent is its pullback, which needs a scalar rule per element"
        ));
    }
    Ok(())
}

/// Whether every operand and the result share one matrix shape.
fn is_elementwise(rule: &Rule) -> bool {
    rule.result == Ty::Matrix && rule.params.iter().all(|p| p.ty == Ty::Matrix)
}

fn entry(rules: &TokenStream, rule: &Rule) -> TokenStream {
    let mut out = TokenStream::new();
    let own: Vec<Ty> = rule.params.iter().map(|p| p.ty).collect();
    if rule.has_scalar_form() {
        for float in [quote!(f32), quote!(f64)] {
            let ty = |t: Ty| ty(t, &float);
            let args = own.iter().map(|t| ty(*t));
            let res = ty(rule.result);
            let sig = quote!(fn(#(#args),*) -> #res);
            out.extend(assert(rules, rule.runtime(Func::Primal), sig));
            for (i, p) in rule.params.iter().enumerate() {
                let reads = p.reads.iter().map(|r| match r {
                    Read::Arg(j) => ty(own[*j]),
                    Read::Out => ty(rule.result),
                });
                let operand = ty(own[i]);
                let sig = quote!(fn(#res #(, #reads)*) -> #operand);
                out.extend(assert(rules, rule.runtime(Func::Pullback(i)), sig));
            }
            let tangents = rule.params.iter().filter(|p| p.diff).map(|p| ty(p.ty));
            let reads = rule.tangent_reads().into_iter().map(|r| match r {
                Read::Arg(j) => ty(own[j]),
                Read::Out => ty(rule.result),
            });
            let sig = quote!(fn(#(#tangents,)* #(#reads),*) -> #res);
            out.extend(assert(rules, rule.runtime(Func::Tangent), sig));
        }
    }
    if rule.tangent == Tangent::Written {
        let reads = rule.generic_reads(0, false).into_iter().map(|r| match r {
            Read::Arg(j) => ty(own[j], &quote!(f64)),
            Read::Out => ty(rule.result, &quote!(f64)),
        });
        let tangents = rule.params.iter().filter(|p| p.diff);
        let tangents = tangents.map(|p| ty(p.ty, &quote!(f64)));
        let res = ty(rule.result, &quote!(f64));
        let sig = quote!(fn(#(&#tangents,)* #(&#reads),*) -> #res);
        out.extend(assert(rules, rule.runtime(Func::Tangent), sig));
    }
    if rule.dual_primal {
        // Checked at `f64`; the function is generic over `MatrixScalar`.
        let (m, res) = (ty(own[0], &quote!(f64)), ty(rule.result, &quote!(f64)));
        out.extend(assert(
            rules,
            rule.runtime(Func::DualPrimal),
            quote!(fn(&#m) -> #res),
        ));
    }
    let mut instances = vec![(own, rule.result)];
    instances.extend(rule.also.iter().map(|i| (i.params.to_vec(), i.result)));
    for (params, result) in &instances {
        for float in floats(params, *result) {
            let ty = |t: Ty| ty(t, &float);
            out.extend(dispatched(rules, rule, params, *result, &ty));
        }
    }
    if rule.elementwise {
        let m = ty(Ty::Matrix, &quote!(f64));
        // What the scalar pullback reads, element by element.
        let reads: Vec<_> = rule.params[0].reads.iter().map(|_| quote!(&#m)).collect();
        let forms = [
            (Form::New, quote!(fn(&#m #(, #reads)*) -> #m)),
            (Form::Acc, quote!(fn(&mut #m, &#m #(, #reads)*))),
            (Form::Owned, quote!(fn(#m #(, #reads)*) -> #m)),
            (Form::Broadcast, quote!(fn(f64, #m) -> #m)),
        ];
        for (form, sig) in forms {
            out.extend(assert(rules, rule.runtime(Func::Mapped(form)), sig));
        }
    }
    if rule.broadcasts {
        out.extend(assert(
            rules,
            rule.runtime(Func::Element),
            quote!(fn(&f64) -> f64),
        ));
    }
    out
}

/// The dispatched forms at one instance.
fn dispatched(
    rules: &TokenStream,
    rule: &Rule,
    params: &[Ty],
    result: Ty,
    ty: &dyn Fn(Ty) -> TokenStream,
) -> TokenStream {
    let mut out = TokenStream::new();
    let res = ty(result);
    let reads: Vec<TokenStream> = rule
        .generic_reads(0, false)
        .into_iter()
        .map(|r| match r {
            Read::Arg(j) => {
                let t = ty(params[j]);
                quote!(&#t)
            }
            Read::Out => quote!(&#res),
        })
        .collect();
    let mut k = 0;
    while let Some(i) = rule.differentiable_operand(k) {
        let own = ty(params[i]);
        let forms = [
            (Form::New, quote!(fn(&#res #(, #reads)*) -> #own)),
            (Form::Acc, quote!(fn(&mut #own, &#res #(, #reads)*))),
            (Form::Owned, quote!(fn(#res #(, #reads)*) -> #own)),
            (Form::Ref, quote!(fn(&#res) -> &#own)),
        ];
        for (form, sig) in forms {
            out.extend(assert(rules, rule.runtime(Func::Dispatched(k, form)), sig));
        }
        k += 1;
    }
    out
}

/// The float types an instance is checked at: both, unless a matrix
/// (of `f64`) is involved.
fn floats(params: &[Ty], result: Ty) -> Vec<TokenStream> {
    if params.iter().chain([&result]).any(|t| *t == Ty::Matrix) {
        vec![quote!(f64)]
    } else {
        vec![quote!(f32), quote!(f64)]
    }
}

fn ty(t: Ty, float: &TokenStream) -> TokenStream {
    match t {
        Ty::Float => float.clone(),
        Ty::Int => quote!(i32),
        Ty::Matrix => quote!(::autograd::nalgebra::DMatrix<f64>),
        Ty::Dim => quote!(::autograd::nalgebra::Dyn),
        Ty::Index => quote!(usize),
    }
}

/// `const _: SIG = PATH;`, or nothing if there is no such function.
fn assert(rules: &TokenStream, f: Option<RuntimeFn>, sig: TokenStream) -> TokenStream {
    let Some(f) = f else {
        return TokenStream::new();
    };
    let name = format_ident!("{}", f.name);
    let path = match f.module {
        Module::Rules => quote!(#rules::#name),
        Module::Generic => quote!(#rules::generic::#name),
    };
    quote!(const _: #sig = #path;)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Instance, Operator, Param, Pass, RULES, Takes};

    fn text(t: TokenStream) -> String {
        t.to_string().replace(' ', "")
    }

    #[test]
    fn a_unary_rule_is_checked_in_every_form_at_both_floats() {
        let out = text(assertions(&quote!(r), &[&crate::table::TANH]).unwrap());
        for wanted in [
            "const_:fn(f32)->f32=r::tanh;",
            "const_:fn(f64,f64)->f64=r::tanh_grad;",
            "const_:fn(f32,f32)->f32=r::tanh_grad;",
            "const_:fn(f64,f64)->f64=r::tanh_tangent;",
            "const_:fn(&f64,&f64,&f64)->f64=r::generic::tanh_grad;",
            "const_:fn(&mutf32,&f32,&f32,&f32)=r::generic::tanh_grad_acc;",
            "const_:fn(f64,&f64,&f64)->f64=r::generic::tanh_grad_owned;",
            "const_:fn(f64,::autograd::nalgebra::DMatrix<f64>)->::autograd::nalgebra::DMatrix<f64>=r::generic::map_tanh_grad_broadcast;",
        ] {
            assert!(out.contains(wanted), "missing `{wanted}` in {out}");
        }
    }

    #[test]
    fn the_whole_table_is_complete() {
        let out = assertions(&quote!(r), RULES).unwrap();
        // One assertion per function: at least the scalar pullbacks at two
        // floats and three dispatched forms per differentiable operand.
        assert!(text(out).matches("const_:fn").count() > 3 * RULES.len());
    }

    static NO_SYNTAX: Rule = Rule {
        operator: None,
        method: None,
        ..crate::table::EXP
    };
    static READS_A_MISSING_OPERAND: Rule = Rule {
        params: &[Param {
            name: "",
            ty: Ty::Float,
            diff: true,
            reads: &[Read::Arg(1)],
            pass: Pass::AsWritten,
        }],
        ..crate::table::EXP
    };
    static ELEMENTWISE_READING_TWO: Rule = Rule {
        params: &[Param {
            name: "",
            ty: Ty::Float,
            diff: true,
            reads: &[Read::Arg(0), Read::Out],
            pass: Pass::AsWritten,
        }],
        ..crate::table::EXP
    };
    static NOTHING_TO_DIFFERENTIATE: Rule = Rule {
        params: &[Param {
            name: "",
            ty: Ty::Int,
            diff: false,
            reads: &[],
            pass: Pass::AsWritten,
        }],
        operator: Some(Operator::Neg),
        takes: Takes::Nothing,
        also: &[Instance {
            params: &[Ty::Matrix],
            result: Ty::Matrix,
        }],
        ..crate::table::EXP
    };

    #[test]
    fn an_incomplete_entry_is_rejected() {
        for (rule, message) in [
            (&NO_SYNTAX, "answers to no syntax"),
            (&READS_A_MISSING_OPERAND, "reads an operand it lacks"),
            (&ELEMENTWISE_READING_TWO, "reads more than one value"),
            (&NOTHING_TO_DIFFERENTIATE, "no differentiable operand"),
        ] {
            let error = assertions(&quote!(r), &[rule]).unwrap_err();
            assert!(error.contains(message), "{error}");
        }
    }
}
