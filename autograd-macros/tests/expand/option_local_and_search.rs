fn total_variation(x: &[f64], knots: &[f64], t: f64) -> f64 {
    let i = knots.iter().position(|&k| k >= t).unwrap_or(0);
    let mut prev: Option<f64> = None;
    let mut tv = 0.0;
    for &v in x {
        if let Some(p) = prev {
            tv += (v - p).abs();
        }
        prev = Some(v);
    }
    tv * x[i]
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct total_variation {}
#[doc(hidden)]
impl total_variation {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "knots", "t"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&total_variation),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'x, 'knots>(
        x: &'x [f64],
        knots: &'knots [f64],
        t: f64,
        __ad_b_x: &mut [f64],
        __ad_b_t: &mut f64,
        __ad_seed: f64,
    ) -> (f64, [bool; 3]) {
        let _ = total_variation;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        let __ad_v3 = knots.iter().position(|&k| k >= t);
        let __ad_v4_i = __ad_v3.unwrap_or(0);
        let __ad_v5_prev_is_some = false;
        let __ad_v6_prev_value: f64 = 0.0;
        let __ad_v7_tv = 0.0;
        let __ad_v8 = x.len();
        let mut __ad_c0_prev_is_some = __ad_v5_prev_is_some;
        let mut __ad_c0_prev_value = __ad_v6_prev_value;
        let mut __ad_c0_tv = __ad_v7_tv;
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v8)).0,
        );
        for __ad_v12_i in 0..__ad_v8 {
            let __ad_v9_prev_is_some = __ad_c0_prev_is_some;
            let __ad_v10_prev_value = __ad_c0_prev_value;
            let __ad_v11_tv = __ad_c0_tv;
            __ad_stack0.push((__ad_v9_prev_is_some, __ad_v10_prev_value));
            let __ad_v13_v = x[__ad_v12_i];
            let __ad_v17_tv = if __ad_v9_prev_is_some {
                let __ad_v14 = __ad_v13_v - __ad_v10_prev_value;
                let __ad_v15 = __ad_v14.abs();
                let __ad_v16_tv = __ad_v11_tv + __ad_v15;
                __ad_v16_tv
            } else {
                __ad_v11_tv
            };
            let __ad_v18_prev_is_some = true;
            __ad_c0_prev_is_some = __ad_v18_prev_is_some;
            __ad_c0_prev_value = __ad_v13_v;
            __ad_c0_tv = __ad_v17_tv;
        }
        let __ad_v19_prev_is_some = __ad_c0_prev_is_some;
        let __ad_v20_prev_value = __ad_c0_prev_value;
        let __ad_v21_tv = __ad_c0_tv;
        let __ad_v22 = x[__ad_v4_i];
        let __ad_v23 = __ad_v21_tv * __ad_v22;
        let __ad_result = __ad_v23;
        let mut __ad_d_x = __ad_b_x;
        let __ad_d23 = __ad_seed;
        let __ad_d21_tv = __ad_rules::mul_grad_lhs(__ad_d23, __ad_v22);
        let __ad_d22 = __ad_rules::mul_grad_rhs(__ad_d23, __ad_v21_tv);
        __ad_d_x[__ad_v4_i] += __ad_d22;
        let mut __ad_dc0_prev_value = 0.0;
        let mut __ad_rc0_prev_value = false;
        let mut __ad_dc0_tv = __ad_d21_tv;
        for __ad_v12_i in ::core::iter::Iterator::rev(0..__ad_v8) {
            let (__ad_v9_prev_is_some, __ad_v10_prev_value) = ::autograd::__private::pop(
                &mut __ad_stack0,
            );
            let __ad_v13_v = x[__ad_v12_i];
            let mut __ad_d10_prev_value = 0.0;
            let mut __ad_r10_prev_value = false;
            let mut __ad_d11_tv = 0.0;
            let mut __ad_d13_v = 0.0;
            let mut __ad_r13_v = false;
            __ad_d13_v += __ad_dc0_prev_value;
            __ad_r13_v |= __ad_rc0_prev_value;
            let __ad_d17_tv = __ad_dc0_tv;
            if __ad_v9_prev_is_some {
                let __ad_v14 = __ad_v13_v - __ad_v10_prev_value;
                let __ad_d16_tv = __ad_d17_tv;
                __ad_d11_tv += __ad_rules::add_grad_lhs(__ad_d16_tv);
                let __ad_d15 = __ad_rules::add_grad_rhs(__ad_d16_tv);
                let __ad_d14 = __ad_rules::abs_grad(__ad_d15, __ad_v14);
                __ad_d13_v += __ad_rules::sub_grad_lhs(__ad_d14);
                __ad_r13_v = true;
                __ad_d10_prev_value += __ad_rules::sub_grad_rhs(__ad_d14);
                __ad_r10_prev_value = true;
            } else {
                __ad_d11_tv += __ad_d17_tv;
            }
            if __ad_r13_v {
                __ad_d_x[__ad_v12_i] += __ad_d13_v;
            }
            __ad_dc0_prev_value = __ad_d10_prev_value;
            __ad_rc0_prev_value = __ad_r10_prev_value;
            __ad_dc0_tv = __ad_d11_tv;
        }
        (__ad_result, [true, true, false])
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'x, 'knots>(
        x: &'x [f64],
        knots: &'knots [f64],
        t: f64,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (
                    ::autograd::__private::Vec<f64>,
                    ::autograd::__private::NoGradient,
                    f64,
                ),
                3,
            > + use<'x, 'knots>,
    ) {
        ::autograd::__private::vjp_by_acc_reached(
            (
                ::autograd::__private::zeros_like_slice(x),
                ::autograd::__private::NoGradient,
                0.0,
            ),
            move |__ad_b, __ad_seed| total_variation::__grad_acc_full(
                x,
                knots,
                t,
                &mut __ad_b.0,
                &mut __ad_b.2,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`total_variation`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `total_variation` returns.*/
#[inline]
fn total_variation_vjp<'x, 'knots>(
    x: &'x [f64],
    knots: &'knots [f64],
    t: f64,
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (::autograd::__private::Vec<f64>, f64) + use<'x, 'knots>,
) {
    let (__ad_value, __ad_pullback) = total_variation::__vjp_full(x, knots, t);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x, _, __ad_d_t) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_x, __ad_d_t)
        },
    ))
}
/** The value of [`total_variation`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `total_variation_vjp` with seed 1.*/
#[inline]
fn total_variation_grad<'x, 'knots>(
    x: &'x [f64],
    knots: &'knots [f64],
    t: f64,
) -> (f64, ::autograd::__private::Vec<f64>, f64) {
    let (__ad_value, __ad_pullback) = total_variation::__vjp_full(x, knots, t);
    let (__ad_d_x, _, __ad_d_t) = ::autograd::__private::adjoints(__ad_pullback(1.0));
    ((__ad_value, __ad_d_x, __ad_d_t))
}
/** The value of [`total_variation`], its gradient added into one buffer per differentiable argument (`d_x += ∂total_variation/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn total_variation_grad_acc<'x, 'knots>(
    x: &'x [f64],
    knots: &'knots [f64],
    t: f64,
    d_x: &mut [f64],
    d_t: &mut f64,
) -> f64 {
    total_variation::__grad_acc_full(x, knots, t, d_x, d_t, 1.0).0
}
/** Compares [`total_variation_grad`] at this point with central finite differences of [`total_variation`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn total_variation_check<'x, 'knots>(
    x: &'x [f64],
    knots: &'knots [f64],
    t: f64,
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_t) = total_variation_grad(x, knots, t);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("x", x, &__ad_d_x, |x| total_variation(x, knots, t));
    __ad_check.scalar("t", t, __ad_d_t, |t| total_variation(x, knots, t));
    __ad_check
}
