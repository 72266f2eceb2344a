fn softmax_loss(z: &[f64], label: usize) -> f64 {
    let mut p = z.to_vec();
    for v in p.iter_mut() {
        *v = v.exp();
    }
    let s: f64 = p.iter().sum();
    p.iter_mut().for_each(|v| *v /= s);
    -p[label].ln()
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct softmax_loss {}
#[doc(hidden)]
impl softmax_loss {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["z", "label"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&softmax_loss),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'z>(
        z: &'z [f64],
        label: usize,
        __ad_b_z: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = softmax_loss;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_z, z.len());
        let __ad_v2 = z.len();
        let __ad_v3 = ::autograd::__private::Vec::with_capacity(__ad_v2);
        let mut __ad_c0_collected = __ad_v3;
        for __ad_v5_i in 0..__ad_v2 {
            let __ad_v4_collected = __ad_c0_collected;
            let __ad_v6 = z[__ad_v5_i];
            let __ad_v7 = {
                let mut __ad_a = __ad_v4_collected;
                __ad_a.push(__ad_v6);
                __ad_a
            };
            __ad_c0_collected = __ad_v7;
        }
        let __ad_v8_collected = __ad_c0_collected;
        let __ad_v9 = __ad_v8_collected.len();
        let mut __ad_c1_p = ::autograd::__private::copy(&__ad_v8_collected);
        let mut __ad_stack1 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v9)).0,
        );
        let mut __ad_cache1 = ::autograd::__private::Cache::for_trips(
            ::core::iter::Iterator::size_hint(&(0..__ad_v9)).0,
        );
        for __ad_v11_v in 0..__ad_v9 {
            let __ad_v10_p = __ad_c1_p;
            let __ad_v12 = __ad_v10_p[__ad_v11_v];
            let __ad_v13 = __ad_v12.exp();
            let __ad_v14_p = {
                let mut __ad_a = __ad_v10_p;
                __ad_a[__ad_v11_v] = __ad_v13;
                __ad_a
            };
            __ad_stack1.push(__ad_v12);
            __ad_cache1.push(__ad_v13);
            __ad_c1_p = __ad_v14_p;
        }
        let __ad_v15_p = __ad_c1_p;
        let __ad_v16 = __ad_v15_p.len();
        let __ad_v17: f64 = -0.0;
        let mut __ad_c2_sum = __ad_v17;
        for __ad_v20_i in 0..__ad_v16 {
            let __ad_v19_sum = __ad_c2_sum;
            let __ad_v21 = __ad_v15_p[__ad_v20_i];
            let __ad_v22 = __ad_v19_sum + __ad_v21;
            __ad_c2_sum = __ad_v22;
        }
        let __ad_v23_sum = __ad_c2_sum;
        let __ad_v24_s: f64 = __ad_v23_sum;
        let __ad_v25 = __ad_v15_p.len();
        let mut __ad_c3_p = ::autograd::__private::copy(&__ad_v15_p);
        let mut __ad_stack3 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v25)).0,
        );
        let mut __ad_cache3 = ::autograd::__private::Cache::for_trips(
            ::core::iter::Iterator::size_hint(&(0..__ad_v25)).0,
        );
        for __ad_v27_v in 0..__ad_v25 {
            let __ad_v26_p = __ad_c3_p;
            let __ad_v28 = __ad_v26_p[__ad_v27_v];
            let __ad_v29 = __ad_v28 / __ad_v24_s;
            let __ad_v30_p = {
                let mut __ad_a = __ad_v26_p;
                __ad_a[__ad_v27_v] = __ad_v29;
                __ad_a
            };
            __ad_stack3.push(__ad_v28);
            __ad_cache3.push(__ad_v29);
            __ad_c3_p = __ad_v30_p;
        }
        let __ad_v31_p = __ad_c3_p;
        let __ad_v32 = __ad_v31_p[label];
        let __ad_v33 = __ad_v32.ln();
        let __ad_v34 = -__ad_v33;
        let __ad_result = __ad_v34;
        let mut __ad_d_z = __ad_b_z;
        let mut __ad_d15_p = ::autograd::__private::zero_like(&__ad_v15_p);
        let mut __ad_d23_sum = 0.0;
        let mut __ad_r23_sum = false;
        let mut __ad_d24_s = 0.0;
        let mut __ad_r24_s = false;
        let __ad_d34 = __ad_seed;
        let __ad_d33 = __ad_rules::neg_grad(__ad_d34);
        let __ad_d32 = __ad_rules::ln_grad(__ad_d33, __ad_v32);
        let mut __ad_d31_p = ::autograd::__private::zero_like(&__ad_v31_p);
        __ad_d31_p[label] += __ad_d32;
        let mut __ad_dc3_p = __ad_d31_p;
        for __ad_v27_v in ::core::iter::Iterator::rev(0..__ad_v25) {
            let __ad_v28 = ::autograd::__private::pop(&mut __ad_stack3);
            let __ad_v29 = match __ad_cache3.pop() {
                ::core::option::Option::Some(__ad_v29) => __ad_v29,
                ::core::option::Option::None => {
                    let __ad_v29 = __ad_v28 / __ad_v24_s;
                    __ad_v29
                }
            };
            let mut __ad_d30_p = __ad_dc3_p;
            let __ad_d29 = __ad_d30_p[__ad_v27_v];
            __ad_d30_p[__ad_v27_v] = 0.0;
            let mut __ad_d26_p = __ad_d30_p;
            let __ad_d28 = __ad_rules::div_grad_lhs(__ad_d29, __ad_v24_s);
            __ad_d24_s += __ad_rules::div_grad_rhs(__ad_d29, __ad_v24_s, __ad_v29);
            __ad_r24_s = true;
            __ad_d26_p[__ad_v27_v] += __ad_d28;
            __ad_dc3_p = __ad_d26_p;
        }
        ::autograd::__private::accumulate(&mut __ad_d15_p, __ad_dc3_p);
        if __ad_r24_s {
            __ad_d23_sum += __ad_d24_s;
            __ad_r23_sum = true;
        }
        let mut __ad_dc2_sum = __ad_d23_sum;
        let mut __ad_rc2_sum = __ad_r23_sum;
        for __ad_v20_i in ::core::iter::Iterator::rev(0..__ad_v16) {
            let mut __ad_d19_sum = 0.0;
            let mut __ad_r19_sum = false;
            let mut __ad_d21 = 0.0;
            let mut __ad_r21 = false;
            let mut __ad_d22 = 0.0;
            let mut __ad_r22 = false;
            __ad_d22 += __ad_dc2_sum;
            __ad_r22 |= __ad_rc2_sum;
            if __ad_r22 {
                __ad_d19_sum += __ad_rules::add_grad_lhs(__ad_d22);
                __ad_r19_sum = true;
                __ad_d21 += __ad_rules::add_grad_rhs(__ad_d22);
                __ad_r21 = true;
            }
            if __ad_r21 {
                __ad_d15_p[__ad_v20_i] += __ad_d21;
            }
            __ad_dc2_sum = __ad_d19_sum;
            __ad_rc2_sum = __ad_r19_sum;
        }
        let mut __ad_dc1_p = __ad_d15_p;
        for __ad_v11_v in ::core::iter::Iterator::rev(0..__ad_v9) {
            let __ad_v12 = ::autograd::__private::pop(&mut __ad_stack1);
            let __ad_v13 = match __ad_cache1.pop() {
                ::core::option::Option::Some(__ad_v13) => __ad_v13,
                ::core::option::Option::None => {
                    let __ad_v13 = __ad_v12.exp();
                    __ad_v13
                }
            };
            let mut __ad_d14_p = __ad_dc1_p;
            let __ad_d13 = __ad_d14_p[__ad_v11_v];
            __ad_d14_p[__ad_v11_v] = 0.0;
            let mut __ad_d10_p = __ad_d14_p;
            let __ad_d12 = __ad_rules::exp_grad(__ad_d13, __ad_v13);
            __ad_d10_p[__ad_v11_v] += __ad_d12;
            __ad_dc1_p = __ad_d10_p;
        }
        let mut __ad_d8_collected = __ad_dc1_p;
        let mut __ad_dc0_collected = __ad_d8_collected;
        for __ad_v5_i in ::core::iter::Iterator::rev(0..__ad_v2) {
            let mut __ad_d7 = __ad_dc0_collected;
            let __ad_d6 = ::autograd::__private::pop(&mut __ad_d7);
            let mut __ad_d4_collected = __ad_d7;
            __ad_d_z[__ad_v5_i] += __ad_d6;
            __ad_dc0_collected = __ad_d4_collected;
        }
        ::autograd::__private::recycle(__ad_v15_p);
        ::autograd::__private::recycle(__ad_v31_p);
        ::autograd::__private::recycle(__ad_dc0_collected);
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'z>(
        z: &'z [f64],
        label: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
            ) + use<'z>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::zeros_like_slice(z),
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| softmax_loss::__grad_acc_full(
                z,
                label,
                &mut __ad_b.0,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`softmax_loss`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `softmax_loss` returns.*/
#[inline]
fn softmax_loss_vjp<'z>(
    z: &'z [f64],
    label: usize,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (::autograd::__private::Vec<f64>,) + use<'z>,
) {
    let (__ad_value, __ad_pullback) = softmax_loss::__vjp_full(z, label);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_z, _) = __ad_pullback(__ad_seed);
            (__ad_d_z,)
        },
    ))
}
/** The value of [`softmax_loss`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `softmax_loss_vjp` with seed 1.*/
#[inline]
fn softmax_loss_grad<'z>(
    z: &'z [f64],
    label: usize,
) -> (f64, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = softmax_loss::__vjp_full(z, label);
    let (__ad_d_z, _) = __ad_pullback(1.0);
    ((__ad_value, __ad_d_z))
}
/** The value of [`softmax_loss`], its gradient added into one buffer per differentiable argument (`d_x += ∂softmax_loss/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn softmax_loss_grad_acc<'z>(z: &'z [f64], label: usize, d_z: &mut [f64]) -> f64 {
    softmax_loss::__grad_acc_full(z, label, d_z, 1.0)
}
/** Compares [`softmax_loss_grad`] at this point with central finite differences of [`softmax_loss`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn softmax_loss_check<'z>(z: &'z [f64], label: usize) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_z) = softmax_loss_grad(z, label);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("z", z, &__ad_d_z, |z| softmax_loss(z, label));
    __ad_check
}
