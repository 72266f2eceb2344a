fn f(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for i in 0..n {
        for k in 0..3 {
            for j in 0..d {
                a[j] = x * w[j] - (i * k) as f64;
            }
            for j in 0..d {
                s += a[j] * a[d - 1 - j] * x;
            }
        }
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
    const __PARAMS: &[&str] = &["x", "w", "n"];
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
    fn __grad_acc_full<'w>(
        x: f64,
        w: &'w [f64],
        n: usize,
        __ad_b_x: &mut f64,
        __ad_b_w: &mut [f64],
        __ad_seed: f64,
    ) -> (f64, [bool; 3]) {
        let _ = f;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_w, w.len());
        let __ad_v3_d = w.len();
        let __ad_v4_a = ::autograd::__private::vec![0.5; __ad_v3_d];
        let __ad_v5_s = 0.0;
        let mut __ad_c0_a = ::core::clone::Clone::clone(&__ad_v4_a);
        let mut __ad_c0_s = __ad_v5_s;
        for __ad_v8_i in 0..n {
            let __ad_v6_a = __ad_c0_a;
            let __ad_v7_s = __ad_c0_s;
            let mut __ad_c1_a = __ad_v6_a;
            let mut __ad_c1_s = __ad_v7_s;
            for __ad_v11_k in 0..3 {
                let __ad_v9_a = __ad_c1_a;
                let __ad_v10_s = __ad_c1_s;
                let mut __ad_c2_a = __ad_v9_a;
                for __ad_v14_j in 0..__ad_v3_d {
                    let __ad_v12_a = __ad_c2_a;
                    let __ad_v15 = w[__ad_v14_j];
                    let __ad_v16 = x * __ad_v15;
                    let __ad_v17 = __ad_v8_i * __ad_v11_k;
                    let __ad_v18 = __ad_v17 as f64;
                    let __ad_v19 = __ad_v16 - __ad_v18;
                    let __ad_v20_a = {
                        let mut __ad_a = __ad_v12_a;
                        __ad_a[__ad_v14_j] = __ad_v19;
                        __ad_a
                    };
                    __ad_c2_a = __ad_v20_a;
                }
                let __ad_v21_a = __ad_c2_a;
                let mut __ad_c3_s = __ad_v10_s;
                for __ad_v24_j in 0..__ad_v3_d {
                    let __ad_v23_s = __ad_c3_s;
                    let __ad_v25 = __ad_v21_a[__ad_v24_j];
                    let __ad_v26 = __ad_v3_d - 1;
                    let __ad_v27 = __ad_v26 - __ad_v24_j;
                    let __ad_v28 = __ad_v21_a[__ad_v27];
                    let __ad_v29 = __ad_v25 * __ad_v28;
                    let __ad_v30 = __ad_v29 * x;
                    let __ad_v31_s = __ad_v23_s + __ad_v30;
                    __ad_c3_s = __ad_v31_s;
                }
                let __ad_v32_s = __ad_c3_s;
                __ad_c1_a = __ad_v21_a;
                __ad_c1_s = __ad_v32_s;
            }
            let __ad_v33_a = __ad_c1_a;
            let __ad_v34_s = __ad_c1_s;
            __ad_c0_a = __ad_v33_a;
            __ad_c0_s = __ad_v34_s;
        }
        let __ad_v35_a = __ad_c0_a;
        let __ad_v36_s = __ad_c0_s;
        let __ad_result = __ad_v36_s;
        let mut __ad_d_w = __ad_b_w;
        let mut __ad_d_x = 0.0;
        let mut __ad_r_x = false;
        let __ad_d36_s = __ad_seed;
        let mut __ad_dc0_a = ::autograd::__private::zero_like(&__ad_v4_a);
        let mut __ad_dc0_s = __ad_d36_s;
        let mut __ad_spare1_a = ::core::option::Option::None;
        for __ad_v8_i in ::core::iter::Iterator::rev(0..n) {
            let mut __ad_d33_a = __ad_dc0_a;
            let __ad_d34_s = __ad_dc0_s;
            let mut __ad_dc1_a = __ad_d33_a;
            let mut __ad_dc1_s = __ad_d34_s;
            for __ad_v11_k in ::core::iter::Iterator::rev(0..3) {
                let __ad_v9_a = match __ad_spare1_a.take() {
                    ::core::option::Option::Some(__ad_buffer) => __ad_buffer,
                    ::core::option::Option::None => {
                        ::core::clone::Clone::clone(&__ad_v4_a)
                    }
                };
                let mut __ad_c2_a = __ad_v9_a;
                for __ad_v14_j in 0..__ad_v3_d {
                    let __ad_v12_a = __ad_c2_a;
                    let __ad_v15 = w[__ad_v14_j];
                    let __ad_v16 = x * __ad_v15;
                    let __ad_v17 = __ad_v8_i * __ad_v11_k;
                    let __ad_v18 = __ad_v17 as f64;
                    let __ad_v19 = __ad_v16 - __ad_v18;
                    let __ad_v20_a = {
                        let mut __ad_a = __ad_v12_a;
                        __ad_a[__ad_v14_j] = __ad_v19;
                        __ad_a
                    };
                    __ad_c2_a = __ad_v20_a;
                }
                let __ad_v21_a = __ad_c2_a;
                let mut __ad_d21_a = __ad_dc1_a;
                let __ad_d32_s = __ad_dc1_s;
                let mut __ad_dc3_s = __ad_d32_s;
                for __ad_v24_j in ::core::iter::Iterator::rev(0..__ad_v3_d) {
                    let __ad_v25 = __ad_v21_a[__ad_v24_j];
                    let __ad_v26 = __ad_v3_d - 1;
                    let __ad_v27 = __ad_v26 - __ad_v24_j;
                    let __ad_v28 = __ad_v21_a[__ad_v27];
                    let __ad_v29 = __ad_v25 * __ad_v28;
                    let __ad_d31_s = __ad_dc3_s;
                    let __ad_d23_s = __ad_rules::add_grad_lhs(__ad_d31_s);
                    let __ad_d30 = __ad_rules::add_grad_rhs(__ad_d31_s);
                    let __ad_d29 = __ad_rules::mul_grad_lhs(__ad_d30, x);
                    __ad_d_x += __ad_rules::mul_grad_rhs(__ad_d30, __ad_v29);
                    __ad_r_x = true;
                    let __ad_d25 = __ad_rules::mul_grad_lhs(__ad_d29, __ad_v28);
                    let __ad_d28 = __ad_rules::mul_grad_rhs(__ad_d29, __ad_v25);
                    __ad_d21_a[__ad_v27] += __ad_d28;
                    __ad_d21_a[__ad_v24_j] += __ad_d25;
                    __ad_dc3_s = __ad_d23_s;
                }
                let __ad_d10_s = __ad_dc3_s;
                let mut __ad_dc2_a = __ad_d21_a;
                for __ad_v14_j in ::core::iter::Iterator::rev(0..__ad_v3_d) {
                    let __ad_v15 = w[__ad_v14_j];
                    let mut __ad_d20_a = __ad_dc2_a;
                    let __ad_d19 = __ad_d20_a[__ad_v14_j];
                    __ad_d20_a[__ad_v14_j] = 0.0;
                    let mut __ad_d12_a = __ad_d20_a;
                    let __ad_d16 = __ad_rules::sub_grad_lhs(__ad_d19);
                    __ad_d_x += __ad_rules::mul_grad_lhs(__ad_d16, __ad_v15);
                    __ad_r_x = true;
                    let __ad_d15 = __ad_rules::mul_grad_rhs(__ad_d16, x);
                    __ad_d_w[__ad_v14_j] += __ad_d15;
                    __ad_dc2_a = __ad_d12_a;
                }
                let mut __ad_d9_a = __ad_dc2_a;
                __ad_dc1_a = __ad_d9_a;
                __ad_dc1_s = __ad_d10_s;
                __ad_spare1_a = ::core::option::Option::Some(__ad_v21_a);
            }
            let mut __ad_d6_a = __ad_dc1_a;
            let __ad_d7_s = __ad_dc1_s;
            __ad_dc0_a = __ad_d6_a;
            __ad_dc0_s = __ad_d7_s;
        }
        *__ad_b_x += __ad_d_x;
        (__ad_result, [__ad_r_x, true, true])
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'w>(
        x: f64,
        w: &'w [f64],
        n: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (
                    f64,
                    ::autograd::__private::Vec<f64>,
                    ::autograd::__private::NoGradient,
                ),
                3,
            > + use<'w>,
    ) {
        ::autograd::__private::vjp_by_acc_reached(
            (
                0.0,
                ::autograd::__private::zeros_like_slice(w),
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| f::__grad_acc_full(
                x,
                w,
                n,
                &mut __ad_b.0,
                &mut __ad_b.1,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`f`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `f` returns.*/
#[inline]
fn f_vjp<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (f64, ::autograd::__private::Vec<f64>) + use<'w>,
) {
    let (__ad_value, __ad_pullback) = f::__vjp_full(x, w, n);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x, __ad_d_w, _) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_x, __ad_d_w)
        },
    ))
}
/** The value of [`f`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `f_vjp` with seed 1.*/
#[inline]
fn f_grad<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> (f64, f64, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = f::__vjp_full(x, w, n);
    let (__ad_d_x, __ad_d_w, _) = ::autograd::__private::adjoints(__ad_pullback(1.0));
    ((__ad_value, __ad_d_x, __ad_d_w))
}
/** The value of [`f`], its gradient added into one buffer per differentiable argument (`d_x += ∂f/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn f_grad_acc<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
    d_x: &mut f64,
    d_w: &mut [f64],
) -> f64 {
    f::__grad_acc_full(x, w, n, d_x, d_w, 1.0).0
}
/** Compares [`f_grad`] at this point with central finite differences of [`f`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn f_check<'w>(x: f64, w: &'w [f64], n: usize) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_w) = f_grad(x, w, n);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x", x, __ad_d_x, |x| f(x, w, n));
    __ad_check.slice("w", w, &__ad_d_w, |w| f(x, w, n));
    __ad_check
}
