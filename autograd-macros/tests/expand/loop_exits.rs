fn sum_squares_until(xs: &[f64], t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > t {
            break;
        }
        s += xs[i] * xs[i];
    }
    s
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct sum_squares_until {}
#[doc(hidden)]
impl sum_squares_until {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["xs", "t"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&sum_squares_until),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'xs>(
        xs: &'xs [f64],
        t: f64,
        __ad_b_xs: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = sum_squares_until;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_xs, xs.len());
        let __ad_v2_s = 0.0;
        let __ad_v3___ag_brk_0: bool = false;
        let __ad_v4 = xs.len();
        let mut __ad_c0_s = __ad_v2_s;
        let mut __ad_c0___ag_brk_0 = __ad_v3___ag_brk_0;
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v4)).0,
        );
        for __ad_v7_i in 0..__ad_v4 {
            let __ad_v5_s = __ad_c0_s;
            let __ad_v6___ag_brk_0 = __ad_c0___ag_brk_0;
            __ad_stack0.push(__ad_v6___ag_brk_0);
            let __ad_v8 = !__ad_v6___ag_brk_0;
            let (__ad_v20_s, __ad_v21___ag_brk_0) = if __ad_v8 {
                let __ad_v9___ag_skip_1: bool = false;
                let __ad_v10 = xs[__ad_v7_i] > t;
                let (__ad_v13___ag_brk_0, __ad_v14___ag_skip_1) = if __ad_v10 {
                    let __ad_v11___ag_brk_0: bool = true;
                    let __ad_v12___ag_skip_1: bool = true;
                    (__ad_v11___ag_brk_0, __ad_v12___ag_skip_1)
                } else {
                    (__ad_v6___ag_brk_0, __ad_v9___ag_skip_1)
                };
                let __ad_v15 = !__ad_v14___ag_skip_1;
                let __ad_v19_s = if __ad_v15 {
                    let __ad_v16 = xs[__ad_v7_i];
                    let __ad_v17 = __ad_v16 * __ad_v16;
                    let __ad_v18_s = __ad_v5_s + __ad_v17;
                    __ad_v18_s
                } else {
                    __ad_v5_s
                };
                (__ad_v19_s, __ad_v13___ag_brk_0)
            } else {
                (__ad_v5_s, __ad_v6___ag_brk_0)
            };
            __ad_c0_s = __ad_v20_s;
            __ad_c0___ag_brk_0 = __ad_v21___ag_brk_0;
        }
        let __ad_v22_s = __ad_c0_s;
        let __ad_v23___ag_brk_0 = __ad_c0___ag_brk_0;
        let __ad_result = __ad_v22_s;
        let mut __ad_d_xs = __ad_b_xs;
        let __ad_d22_s = __ad_seed;
        let mut __ad_dc0_s = __ad_d22_s;
        for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v4) {
            let __ad_v6___ag_brk_0 = ::autograd::__private::pop(&mut __ad_stack0);
            let __ad_v8 = !__ad_v6___ag_brk_0;
            let mut __ad_d5_s = 0.0;
            let __ad_d20_s = __ad_dc0_s;
            if __ad_v8 {
                let __ad_v9___ag_skip_1: bool = false;
                let __ad_v10 = xs[__ad_v7_i] > t;
                let (__ad_v13___ag_brk_0, __ad_v14___ag_skip_1) = if __ad_v10 {
                    let __ad_v11___ag_brk_0: bool = true;
                    let __ad_v12___ag_skip_1: bool = true;
                    (__ad_v11___ag_brk_0, __ad_v12___ag_skip_1)
                } else {
                    (__ad_v6___ag_brk_0, __ad_v9___ag_skip_1)
                };
                let __ad_v15 = !__ad_v14___ag_skip_1;
                let __ad_d19_s = __ad_d20_s;
                if __ad_v15 {
                    let __ad_v16 = xs[__ad_v7_i];
                    let __ad_d18_s = __ad_d19_s;
                    __ad_d5_s += __ad_rules::add_grad_lhs(__ad_d18_s);
                    let __ad_d17 = __ad_rules::add_grad_rhs(__ad_d18_s);
                    let mut __ad_d16 = __ad_rules::mul_grad_lhs(__ad_d17, __ad_v16);
                    __ad_d16 += __ad_rules::mul_grad_rhs(__ad_d17, __ad_v16);
                    __ad_d_xs[__ad_v7_i] += __ad_d16;
                } else {
                    __ad_d5_s += __ad_d19_s;
                }
            } else {
                __ad_d5_s += __ad_d20_s;
            }
            __ad_dc0_s = __ad_d5_s;
        }
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'xs>(
        xs: &'xs [f64],
        t: f64,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
            ) + use<'xs>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::zeros_like_slice(xs),
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| sum_squares_until::__grad_acc_full(
                xs,
                t,
                &mut __ad_b.0,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`sum_squares_until`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `sum_squares_until` returns.*/
#[inline]
fn sum_squares_until_vjp<'xs>(
    xs: &'xs [f64],
    t: f64,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (::autograd::__private::Vec<f64>,) + use<'xs>,
) {
    let (__ad_value, __ad_pullback) = sum_squares_until::__vjp_full(xs, t);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_xs, _) = __ad_pullback(__ad_seed);
            (__ad_d_xs,)
        },
    ))
}
/** The value of [`sum_squares_until`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `sum_squares_until_vjp` with seed 1.*/
#[inline]
fn sum_squares_until_grad<'xs>(
    xs: &'xs [f64],
    t: f64,
) -> (f64, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = sum_squares_until::__vjp_full(xs, t);
    let (__ad_d_xs, _) = __ad_pullback(1.0);
    ((__ad_value, __ad_d_xs))
}
/** The value of [`sum_squares_until`], its gradient added into one buffer per differentiable argument (`d_x += ∂sum_squares_until/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn sum_squares_until_grad_acc<'xs>(xs: &'xs [f64], t: f64, d_xs: &mut [f64]) -> f64 {
    sum_squares_until::__grad_acc_full(xs, t, d_xs, 1.0)
}
/** Compares [`sum_squares_until_grad`] at this point with central finite differences of [`sum_squares_until`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn sum_squares_until_check<'xs>(xs: &'xs [f64], t: f64) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_xs) = sum_squares_until_grad(xs, t);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("xs", xs, &__ad_d_xs, |xs| sum_squares_until(xs, t));
    __ad_check
}
