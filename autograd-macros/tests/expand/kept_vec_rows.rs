fn f(x: &[f64], n: usize, k: usize) -> f64 {
    let mut t = vec![0.0; k];
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..k {
            t[j] = (x[j] * i as f64).sin();
        }
        s += logsumexp(&t);
    }
    s
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct f {}
#[doc(hidden)]
impl f {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "n", "k"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&f),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'x>(
        x: &'x [f64],
        n: usize,
        k: usize,
        __ad_b_x: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = f;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        let __ad_v3_t = ::autograd::__private::filled(0.0, k);
        let __ad_v4_s = 0.0;
        let mut __ad_c0_t = ::autograd::__private::copy(&__ad_v3_t);
        let mut __ad_c0_s = __ad_v4_s;
        let mut __ad_rows0 = ::autograd::__private::Rows::new();
        __ad_rows0.reserve(::core::iter::Iterator::size_hint(&(0..n)).0);
        for __ad_v7_i in 0..n {
            let __ad_v5_t = __ad_c0_t;
            let __ad_v6_s = __ad_c0_s;
            let mut __ad_c1_t = __ad_v5_t;
            for __ad_v10_j in 0..k {
                let __ad_v8_t = __ad_c1_t;
                let __ad_v11 = x[__ad_v10_j];
                let __ad_v12 = __ad_v7_i as f64;
                let __ad_v13 = __ad_v11 * __ad_v12;
                let __ad_v14 = __ad_v13.sin();
                let __ad_v15_t = {
                    let mut __ad_a = __ad_v8_t;
                    __ad_a[__ad_v10_j] = __ad_v14;
                    __ad_a
                };
                __ad_c1_t = __ad_v15_t;
            }
            let __ad_v16_t = __ad_c1_t;
            let __ad_v17 = logsumexp(&__ad_v16_t);
            let __ad_v18_s = __ad_v6_s + &__ad_v17;
            __ad_rows0.push(&__ad_v16_t);
            __ad_c0_t = __ad_v16_t;
            __ad_c0_s = __ad_v18_s;
        }
        let __ad_v19_t = __ad_c0_t;
        let __ad_v20_s = __ad_c0_s;
        let __ad_result = __ad_v20_s;
        let mut __ad_d_x = __ad_b_x;
        let __ad_d20_s = __ad_seed;
        let mut __ad_dc0_t = ::autograd::__private::zero_like(&__ad_v3_t);
        let mut __ad_dc0_s = __ad_d20_s;
        for __ad_v7_i in ::core::iter::Iterator::rev(0..n) {
            let __ad_v16_t = __ad_rows0.pop();
            let mut __ad_d16_t = __ad_dc0_t;
            let __ad_d18_s = __ad_dc0_s;
            let __ad_d6_s = __ad_rules::generic::add_grad_lhs(&__ad_d18_s);
            let __ad_d17 = __ad_rules::generic::add_grad_rhs_owned(__ad_d18_s);
            let (__ad_callee_value, __ad_pb17) = logsumexp::__vjp_full(&__ad_v16_t);
            logsumexp::__same_callee(&logsumexp, &__ad_callee_value, &__ad_pb17);
            let (__ad_pb17_d0,) = ::autograd::__private::adjoints(__ad_pb17(__ad_d17));
            let __ad_pb17_d0 = ::autograd::__private::contribution((__ad_pb17_d0));
            ::autograd::__private::accumulate(&mut __ad_d16_t, __ad_pb17_d0);
            let mut __ad_dc1_t = __ad_d16_t;
            for __ad_v10_j in ::core::iter::Iterator::rev(0..k) {
                let __ad_v11 = x[__ad_v10_j];
                let __ad_v12 = __ad_v7_i as f64;
                let __ad_v13 = __ad_v11 * __ad_v12;
                let mut __ad_d15_t = __ad_dc1_t;
                let __ad_d14 = __ad_d15_t[__ad_v10_j];
                __ad_d15_t[__ad_v10_j] = 0.0;
                let mut __ad_d8_t = __ad_d15_t;
                let __ad_d13 = __ad_rules::sin_grad(__ad_d14, __ad_v13);
                let __ad_d11 = __ad_rules::mul_grad_lhs(__ad_d13, __ad_v12);
                __ad_d_x[__ad_v10_j] += __ad_d11;
                __ad_dc1_t = __ad_d8_t;
            }
            let mut __ad_d5_t = __ad_dc1_t;
            __ad_dc0_t = __ad_d5_t;
            __ad_dc0_s = __ad_d6_s;
            __ad_rows0.give_back(__ad_v16_t);
        }
        ::autograd::__private::recycle(__ad_v3_t);
        ::autograd::__private::recycle(__ad_v19_t);
        ::autograd::__private::recycle(__ad_dc0_t);
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'x>(
        x: &'x [f64],
        n: usize,
        k: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ) + use<'x>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::zeros_like_slice(x),
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| f::__grad_acc_full(
                x,
                n,
                k,
                &mut __ad_b.0,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`f`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `f` returns.*/
#[inline]
fn f_vjp<'x>(
    x: &'x [f64],
    n: usize,
    k: usize,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (::autograd::__private::Vec<f64>,) + use<'x>,
) {
    let (__ad_value, __ad_pullback) = f::__vjp_full(x, n, k);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x, _, _) = __ad_pullback(__ad_seed);
            (__ad_d_x,)
        },
    ))
}
/** The value of [`f`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `f_vjp` with seed 1.*/
#[inline]
fn f_grad<'x>(
    x: &'x [f64],
    n: usize,
    k: usize,
) -> (f64, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = f::__vjp_full(x, n, k);
    let (__ad_d_x, _, _) = __ad_pullback(1.0);
    ((__ad_value, __ad_d_x))
}
/** The value of [`f`], its gradient added into one buffer per differentiable argument (`d_x += ∂f/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn f_grad_acc<'x>(x: &'x [f64], n: usize, k: usize, d_x: &mut [f64]) -> f64 {
    f::__grad_acc_full(x, n, k, d_x, 1.0)
}
/** Compares [`f_grad`] at this point with central finite differences of [`f`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn f_check<'x>(x: &'x [f64], n: usize, k: usize) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x) = f_grad(x, n, k);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("x", x, &__ad_d_x, |x| f(x, n, k));
    __ad_check
}
