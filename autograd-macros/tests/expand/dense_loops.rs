fn dense_loops(w: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..b.len() {
        let mut acc = b[i];
        for j in 0..n {
            acc += w[i * n + j] * x[j];
        }
        s += acc.tanh();
    }
    s
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct dense_loops {}
#[doc(hidden)]
impl dense_loops {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["w", "x", "b"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&dense_loops),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'w, 'x, 'b>(
        w: &'w [f64],
        x: &'x [f64],
        b: &'b [f64],
        __ad_b_w: &mut [f64],
        __ad_b_x: &mut [f64],
        __ad_b_b: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = dense_loops;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_w, w.len());
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        ::autograd::__private::check_buffer(__ad_b_b, b.len());
        let __ad_v3_n = x.len();
        let __ad_v4_s = 0.0;
        let __ad_v5 = b.len();
        let mut __ad_c0_s = __ad_v4_s;
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v5)).0,
        );
        for __ad_v7_i in 0..__ad_v5 {
            let __ad_v6_s = __ad_c0_s;
            let __ad_v8_acc = b[__ad_v7_i];
            let mut __ad_c1_acc = __ad_v8_acc;
            for __ad_v11_j in 0..__ad_v3_n {
                let __ad_v10_acc = __ad_c1_acc;
                let __ad_v12 = __ad_v7_i * __ad_v3_n;
                let __ad_v13 = __ad_v12 + __ad_v11_j;
                let __ad_v14 = w[__ad_v13];
                let __ad_v15 = x[__ad_v11_j];
                let __ad_v16 = __ad_v14 * __ad_v15;
                let __ad_v17_acc = __ad_v10_acc + __ad_v16;
                __ad_c1_acc = __ad_v17_acc;
            }
            let __ad_v18_acc = __ad_c1_acc;
            let __ad_v19 = __ad_v18_acc.tanh();
            let __ad_v20_s = __ad_v6_s + __ad_v19;
            __ad_stack0.push(__ad_v19);
            __ad_c0_s = __ad_v20_s;
        }
        let __ad_v21_s = __ad_c0_s;
        let __ad_result = __ad_v21_s;
        let mut __ad_d_w = __ad_b_w;
        let mut __ad_d_x = __ad_b_x;
        let mut __ad_d_b = __ad_b_b;
        let __ad_d21_s = __ad_seed;
        let mut __ad_dc0_s = __ad_d21_s;
        for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v5) {
            let __ad_v19 = ::autograd::__private::pop(&mut __ad_stack0);
            let __ad_d20_s = __ad_dc0_s;
            let __ad_d6_s = __ad_rules::add_grad_lhs(__ad_d20_s);
            let __ad_d19 = __ad_rules::add_grad_rhs(__ad_d20_s);
            let __ad_d18_acc = __ad_rules::tanh_grad(__ad_d19, __ad_v19);
            let mut __ad_dc1_acc = __ad_d18_acc;
            for __ad_v11_j in ::core::iter::Iterator::rev(0..__ad_v3_n) {
                let __ad_v12 = __ad_v7_i * __ad_v3_n;
                let __ad_v13 = __ad_v12 + __ad_v11_j;
                let __ad_v14 = w[__ad_v13];
                let __ad_v15 = x[__ad_v11_j];
                let __ad_d17_acc = __ad_dc1_acc;
                let __ad_d10_acc = __ad_rules::add_grad_lhs(__ad_d17_acc);
                let __ad_d16 = __ad_rules::add_grad_rhs(__ad_d17_acc);
                let __ad_d14 = __ad_rules::mul_grad_lhs(__ad_d16, __ad_v15);
                let __ad_d15 = __ad_rules::mul_grad_rhs(__ad_d16, __ad_v14);
                __ad_d_x[__ad_v11_j] += __ad_d15;
                __ad_d_w[__ad_v13] += __ad_d14;
                __ad_dc1_acc = __ad_d10_acc;
            }
            let __ad_d8_acc = __ad_dc1_acc;
            __ad_d_b[__ad_v7_i] += __ad_d8_acc;
            __ad_dc0_s = __ad_d6_s;
        }
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'w, 'x, 'b>(
        w: &'w [f64],
        x: &'x [f64],
        b: &'b [f64],
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::Vec<f64>,
            ) + use<'w, 'x, 'b>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::zeros_like_slice(w),
                ::autograd::__private::zeros_like_slice(x),
                ::autograd::__private::zeros_like_slice(b),
            ),
            move |__ad_b, __ad_seed| dense_loops::__grad_acc_full(
                w,
                x,
                b,
                &mut __ad_b.0,
                &mut __ad_b.1,
                &mut __ad_b.2,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`dense_loops`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `dense_loops` returns.*/
#[inline]
fn dense_loops_vjp<'w, 'x, 'b>(
    w: &'w [f64],
    x: &'x [f64],
    b: &'b [f64],
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
        ) + use<'w, 'x, 'b>,
) {
    dense_loops::__vjp_full(w, x, b)
}
/** The value of [`dense_loops`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `dense_loops_vjp` with seed 1.*/
#[inline]
fn dense_loops_grad<'w, 'x, 'b>(
    w: &'w [f64],
    x: &'x [f64],
    b: &'b [f64],
) -> (
    f64,
    ::autograd::__private::Vec<f64>,
    ::autograd::__private::Vec<f64>,
    ::autograd::__private::Vec<f64>,
) {
    ::autograd::__private::grad(dense_loops::__vjp_full(w, x, b))
}
/** The value of [`dense_loops`], its gradient added into one buffer per differentiable argument (`d_x += ∂dense_loops/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn dense_loops_grad_acc<'w, 'x, 'b>(
    w: &'w [f64],
    x: &'x [f64],
    b: &'b [f64],
    d_w: &mut [f64],
    d_x: &mut [f64],
    d_b: &mut [f64],
) -> f64 {
    dense_loops::__grad_acc_full(w, x, b, d_w, d_x, d_b, 1.0)
}
/** Compares [`dense_loops_grad`] at this point with central finite differences of [`dense_loops`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn dense_loops_check<'w, 'x, 'b>(
    w: &'w [f64],
    x: &'x [f64],
    b: &'b [f64],
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_w, __ad_d_x, __ad_d_b) = dense_loops_grad(w, x, b);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("w", w, &__ad_d_w, |w| dense_loops(w, x, b));
    __ad_check.slice("x", x, &__ad_d_x, |x| dense_loops(w, x, b));
    __ad_check.slice("b", b, &__ad_d_b, |b| dense_loops(w, x, b));
    __ad_check
}
