fn euler_step(s: [f64; 2], h: f64, k: f64) -> f64 {
    let d: [f64; 2] = std::array::from_fn(|j| if j == 0 { s[1] } else { -k * s[0] });
    let next: [f64; 2] = std::array::from_fn(|i| s[i] + h * d[i]);
    next[0] * next[1]
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct euler_step {}
#[doc(hidden)]
impl euler_step {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["s", "h", "k"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&euler_step),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full(
        s: [f64; 2],
        h: f64,
        k: f64,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<([f64; 2], f64, f64), 3> + use<>,
    ) {
        let _ = euler_step;
        use ::autograd::__private::rules as __ad_rules;
        let __ad_v3_out: [f64; 2] = [0.0; 2];
        let mut __ad_c0_out = __ad_v3_out;
        for __ad_v5_j in 0..2 {
            let __ad_v4_out = __ad_c0_out;
            let __ad_v6 = __ad_v5_j == 0;
            let __ad_v11 = if __ad_v6 {
                let __ad_v7 = s[1];
                __ad_v7
            } else {
                let __ad_v8 = -k;
                let __ad_v9 = s[0];
                let __ad_v10 = __ad_v8 * __ad_v9;
                __ad_v10
            };
            let __ad_v12_out = {
                let mut __ad_a = __ad_v4_out;
                __ad_a[__ad_v5_j] = __ad_v11;
                __ad_a
            };
            __ad_c0_out = __ad_v12_out;
        }
        let __ad_v13_out = __ad_c0_out;
        let __ad_v14_out: [f64; 2] = [0.0; 2];
        let mut __ad_c1_out = __ad_v14_out;
        for __ad_v16_i in 0..2 {
            let __ad_v15_out = __ad_c1_out;
            let __ad_v17 = s[__ad_v16_i];
            let __ad_v18 = __ad_v13_out[__ad_v16_i];
            let __ad_v19 = h * __ad_v18;
            let __ad_v20 = __ad_v17 + __ad_v19;
            let __ad_v21_out = {
                let mut __ad_a = __ad_v15_out;
                __ad_a[__ad_v16_i] = __ad_v20;
                __ad_a
            };
            __ad_c1_out = __ad_v21_out;
        }
        let __ad_v22_out = __ad_c1_out;
        let __ad_v23 = __ad_v22_out[0];
        let __ad_v24 = __ad_v22_out[1];
        let __ad_v25 = __ad_v23 * __ad_v24;
        (
            __ad_v25,
            move |__ad_seed: f64| {
                let mut __ad_d_s = ::autograd::__private::zero_like(&s);
                let mut __ad_d_h = 0.0;
                let mut __ad_r_h = false;
                let mut __ad_d_k = 0.0;
                let mut __ad_r_k = false;
                let mut __ad_d13_out = ::autograd::__private::zero_like(&__ad_v13_out);
                let __ad_d25 = __ad_seed;
                let __ad_d23 = __ad_rules::mul_grad_lhs(__ad_d25, __ad_v24);
                let __ad_d24 = __ad_rules::mul_grad_rhs(__ad_d25, __ad_v23);
                let mut __ad_d22_out = ::autograd::__private::zero_like(&__ad_v22_out);
                __ad_d22_out[1] += __ad_d24;
                __ad_d22_out[0] += __ad_d23;
                let mut __ad_dc1_out = __ad_d22_out;
                for __ad_v16_i in ::core::iter::Iterator::rev(0..2) {
                    let __ad_v18 = __ad_v13_out[__ad_v16_i];
                    let mut __ad_d21_out = __ad_dc1_out;
                    let __ad_d20 = __ad_d21_out[__ad_v16_i];
                    __ad_d21_out[__ad_v16_i] = 0.0;
                    let mut __ad_d15_out = __ad_d21_out;
                    let __ad_d17 = __ad_rules::add_grad_lhs(__ad_d20);
                    let __ad_d19 = __ad_rules::add_grad_rhs(__ad_d20);
                    __ad_d_h += __ad_rules::mul_grad_lhs(__ad_d19, __ad_v18);
                    __ad_r_h = true;
                    let __ad_d18 = __ad_rules::mul_grad_rhs(__ad_d19, h);
                    __ad_d13_out[__ad_v16_i] += __ad_d18;
                    __ad_d_s[__ad_v16_i] += __ad_d17;
                    __ad_dc1_out = __ad_d15_out;
                }
                let mut __ad_dc0_out = __ad_d13_out;
                for __ad_v5_j in ::core::iter::Iterator::rev(0..2) {
                    let __ad_v6 = __ad_v5_j == 0;
                    let mut __ad_d12_out = __ad_dc0_out;
                    let __ad_d11 = __ad_d12_out[__ad_v5_j];
                    __ad_d12_out[__ad_v5_j] = 0.0;
                    let mut __ad_d4_out = __ad_d12_out;
                    if __ad_v6 {
                        let __ad_d7 = __ad_d11;
                        __ad_d_s[1] += __ad_d7;
                    } else {
                        let __ad_v8 = -k;
                        let __ad_v9 = s[0];
                        let __ad_d10 = __ad_d11;
                        let __ad_d8 = __ad_rules::mul_grad_lhs(__ad_d10, __ad_v9);
                        let __ad_d9 = __ad_rules::mul_grad_rhs(__ad_d10, __ad_v8);
                        __ad_d_s[0] += __ad_d9;
                        __ad_d_k += __ad_rules::neg_grad(__ad_d8);
                        __ad_r_k = true;
                    }
                    __ad_dc0_out = __ad_d4_out;
                }
                ::autograd::__private::Reached(
                    (__ad_d_s, __ad_d_h, __ad_d_k),
                    [true, __ad_r_h, __ad_r_k],
                )
            },
        )
    }
}
/** The value of [`euler_step`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `euler_step` returns.*/
#[inline]
fn euler_step_vjp(
    s: [f64; 2],
    h: f64,
    k: f64,
) -> (f64, impl ::core::ops::FnOnce(f64) -> ([f64; 2], f64, f64) + use<>) {
    ::autograd::__private::vjp(euler_step::__vjp_full(s, h, k))
}
/** The value of [`euler_step`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `euler_step_vjp` with seed 1.*/
#[inline]
fn euler_step_grad(s: [f64; 2], h: f64, k: f64) -> (f64, [f64; 2], f64, f64) {
    ::autograd::__private::grad(euler_step::__vjp_full(s, h, k))
}
/** The value of [`euler_step`], its gradient added into one buffer per differentiable argument (`d_x += ∂euler_step/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn euler_step_grad_acc(
    s: [f64; 2],
    h: f64,
    k: f64,
    d_s: &mut [f64],
    d_h: &mut f64,
    d_k: &mut f64,
) -> f64 {
    ::autograd::__private::grad_acc(euler_step::__vjp_full(s, h, k), (d_s, d_h, d_k))
}
/** Compares [`euler_step_grad`] at this point with central finite differences of [`euler_step`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn euler_step_check(s: [f64; 2], h: f64, k: f64) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_s, __ad_d_h, __ad_d_k) = euler_step_grad(
        ::core::clone::Clone::clone(&s),
        h,
        k,
    );
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check
        .array("s", &s, &__ad_d_s, |s| euler_step(::core::clone::Clone::clone(s), h, k));
    __ad_check
        .scalar("h", h, __ad_d_h, |h| euler_step(::core::clone::Clone::clone(&s), h, k));
    __ad_check
        .scalar("k", k, __ad_d_k, |k| euler_step(::core::clone::Clone::clone(&s), h, k));
    __ad_check
}
