fn decay(x0: f64, k: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x = x - 1e-3 * k * x.sin();
    }
    let mut t = 0.0;
    while t < 1.0 {
        x = x * (1.0 - 1e-3 * x);
        t = t + 1e-2;
    }
    x
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct decay {}
#[doc(hidden)]
impl decay {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x0", "k", "n"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&decay),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full(
        x0: f64,
        k: f64,
        n: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (f64, f64, ::autograd::__private::NoGradient),
                3,
            > + use<>,
    ) {
        let _ = decay;
        use ::autograd::__private::rules as __ad_rules;
        let mut __ad_c0_x = x0;
        let mut __ad_stack0 = ::autograd::__private::Stack::new();
        let mut __ad_cache0 = ::autograd::__private::Cache::new();
        let mut __ad_ck0 = ::autograd::__private::checkpoint::Checkpoints::for_trips(
            ::core::iter::Iterator::size_hint(&(0..n)).0,
            ::core::option::Option::None,
        );
        for _ in 0..n {
            let __ad_v3_x = __ad_c0_x;
            __ad_ck0.visit(|| (__ad_v3_x,));
            let __ad_v4 = 1e-3 * k;
            let __ad_v5 = __ad_v3_x.sin();
            let __ad_v6 = __ad_v4 * __ad_v5;
            let __ad_v7_x = __ad_v3_x - __ad_v6;
            __ad_c0_x = __ad_v7_x;
        }
        __ad_ck0.finish();
        let __ad_v8_x = __ad_c0_x;
        let __ad_v9_t = 0.0;
        let mut __ad_c1_x = __ad_v8_x;
        let mut __ad_c1_t = __ad_v9_t;
        let mut __ad_stack1 = ::autograd::__private::Stack::new();
        let mut __ad_ck1 = ::autograd::__private::checkpoint::Checkpoints::for_while(
            ::core::option::Option::Some(8usize),
        );
        loop {
            let __ad_v10_x = __ad_c1_x;
            let __ad_v11_t = __ad_c1_t;
            let __ad_v12 = __ad_v11_t < 1.0;
            if !(__ad_v12) {
                __ad_c1_x = __ad_v10_x;
                __ad_c1_t = __ad_v11_t;
                break;
            }
            __ad_ck1.visit(|| (__ad_v10_x, __ad_v11_t));
            let __ad_v13 = 1e-3 * __ad_v10_x;
            let __ad_v14 = 1.0 - __ad_v13;
            let __ad_v15_x = __ad_v10_x * __ad_v14;
            let __ad_v16_t = __ad_v11_t + 1e-2;
            __ad_c1_x = __ad_v15_x;
            __ad_c1_t = __ad_v16_t;
        }
        __ad_ck1.finish();
        let __ad_v17_x = __ad_c1_x;
        let __ad_v18_t = __ad_c1_t;
        (
            __ad_v17_x,
            move |__ad_seed: f64| {
                let mut __ad_d_k = 0.0;
                let mut __ad_r_k = false;
                let __ad_d17_x = __ad_seed;
                let mut __ad_dc1_x = __ad_d17_x;
                __ad_stack1.reserve_exact(__ad_ck1.segment());
                while let ::core::option::Option::Some(
                    ::autograd::__private::checkpoint::Step {
                        from: __ad_ck1_from,
                        to: __ad_ck1_to,
                        state: (mut __ad_c1_x, mut __ad_c1_t),
                        reverse: __ad_ck1_reverse,
                    },
                ) = __ad_ck1.next()
                {
                    for _ in __ad_ck1_from..__ad_ck1_to {
                        let __ad_v10_x = __ad_c1_x;
                        let __ad_v11_t = __ad_c1_t;
                        if __ad_ck1_reverse {
                            __ad_stack1.push(__ad_v10_x);
                        }
                        let __ad_v13 = 1e-3 * __ad_v10_x;
                        let __ad_v14 = 1.0 - __ad_v13;
                        let __ad_v15_x = __ad_v10_x * __ad_v14;
                        let __ad_v16_t = __ad_v11_t + 1e-2;
                        __ad_c1_x = __ad_v15_x;
                        __ad_c1_t = __ad_v16_t;
                    }
                    if __ad_ck1_reverse {
                        for _ in ::core::iter::Iterator::rev(
                            __ad_ck1_from..__ad_ck1_to,
                        ) {
                            let __ad_v10_x = ::autograd::__private::pop(
                                &mut __ad_stack1,
                            );
                            let __ad_v13 = 1e-3 * __ad_v10_x;
                            let __ad_v14 = 1.0 - __ad_v13;
                            let __ad_d15_x = __ad_dc1_x;
                            let mut __ad_d10_x = __ad_rules::mul_grad_lhs(
                                __ad_d15_x,
                                __ad_v14,
                            );
                            let __ad_d14 = __ad_rules::mul_grad_rhs(
                                __ad_d15_x,
                                __ad_v10_x,
                            );
                            let __ad_d13 = __ad_rules::sub_grad_rhs(__ad_d14);
                            __ad_d10_x += __ad_rules::mul_grad_rhs(__ad_d13, 1e-3);
                            __ad_dc1_x = __ad_d10_x;
                        }
                    } else {
                        __ad_ck1.advanced((__ad_c1_x, __ad_c1_t));
                    }
                }
                let __ad_d8_x = __ad_dc1_x;
                let mut __ad_dc0_x = __ad_d8_x;
                __ad_stack0.reserve_exact(__ad_ck0.segment());
                while let ::core::option::Option::Some(
                    ::autograd::__private::checkpoint::Step {
                        from: __ad_ck0_from,
                        to: __ad_ck0_to,
                        state: (mut __ad_c0_x,),
                        reverse: __ad_ck0_reverse,
                    },
                ) = __ad_ck0.next()
                {
                    if __ad_ck0_reverse {
                        __ad_cache0.start(__ad_ck0_to - __ad_ck0_from);
                    }
                    for _ in ::core::iter::Iterator::take(
                        ::core::iter::Iterator::skip(0..n, __ad_ck0_from),
                        __ad_ck0_to - __ad_ck0_from,
                    ) {
                        let __ad_v3_x = __ad_c0_x;
                        if __ad_ck0_reverse {
                            __ad_stack0.push(__ad_v3_x);
                        }
                        let __ad_v4 = 1e-3 * k;
                        let __ad_v5 = __ad_v3_x.sin();
                        let __ad_v6 = __ad_v4 * __ad_v5;
                        let __ad_v7_x = __ad_v3_x - __ad_v6;
                        if __ad_ck0_reverse {
                            __ad_cache0.push(__ad_v5);
                        }
                        __ad_c0_x = __ad_v7_x;
                    }
                    if __ad_ck0_reverse {
                        for _ in ::core::iter::Iterator::rev(
                            __ad_ck0_from..__ad_ck0_to,
                        ) {
                            let __ad_v3_x = ::autograd::__private::pop(&mut __ad_stack0);
                            let __ad_v5 = match __ad_cache0.pop() {
                                ::core::option::Option::Some(__ad_v5) => __ad_v5,
                                ::core::option::Option::None => {
                                    let __ad_v5 = __ad_v3_x.sin();
                                    __ad_v5
                                }
                            };
                            let __ad_v4 = 1e-3 * k;
                            let __ad_d7_x = __ad_dc0_x;
                            let mut __ad_d3_x = __ad_rules::sub_grad_lhs(__ad_d7_x);
                            let __ad_d6 = __ad_rules::sub_grad_rhs(__ad_d7_x);
                            let __ad_d4 = __ad_rules::mul_grad_lhs(__ad_d6, __ad_v5);
                            let __ad_d5 = __ad_rules::mul_grad_rhs(__ad_d6, __ad_v4);
                            __ad_d3_x += __ad_rules::sin_grad(__ad_d5, __ad_v3_x);
                            __ad_d_k += __ad_rules::mul_grad_rhs(__ad_d4, 1e-3);
                            __ad_r_k = true;
                            __ad_dc0_x = __ad_d3_x;
                        }
                    } else {
                        __ad_ck0.advanced((__ad_c0_x,));
                    }
                }
                let __ad_d_x0 = __ad_dc0_x;
                ::autograd::__private::Reached(
                    (__ad_d_x0, __ad_d_k, ::autograd::__private::NoGradient),
                    [true, __ad_r_k, true],
                )
            },
        )
    }
}
/** The value of [`decay`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `decay` returns.*/
#[inline]
fn decay_vjp(
    x0: f64,
    k: f64,
    n: usize,
) -> (f64, impl ::core::ops::FnOnce(f64) -> (f64, f64) + use<>) {
    let (__ad_value, __ad_pullback) = decay::__vjp_full(x0, k, n);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x0, __ad_d_k, _) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_x0, __ad_d_k)
        },
    ))
}
/** The value of [`decay`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `decay_vjp` with seed 1.*/
#[inline]
fn decay_grad(x0: f64, k: f64, n: usize) -> (f64, f64, f64) {
    let (__ad_value, __ad_pullback) = decay::__vjp_full(x0, k, n);
    let (__ad_d_x0, __ad_d_k, _) = ::autograd::__private::adjoints(__ad_pullback(1.0));
    ((__ad_value, __ad_d_x0, __ad_d_k))
}
/** The value of [`decay`], its gradient added into one buffer per differentiable argument (`d_x += ∂decay/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn decay_grad_acc(x0: f64, k: f64, n: usize, d_x0: &mut f64, d_k: &mut f64) -> f64 {
    let (__ad_value, __ad_pullback) = decay::__vjp_full(x0, k, n);
    let (__ad_d_x0, __ad_d_k, _) = ::autograd::__private::adjoints(__ad_pullback(1.0));
    ::autograd::__private::accumulate(d_x0, __ad_d_x0);
    ::autograd::__private::accumulate(d_k, __ad_d_k);
    (__ad_value)
}
/** Compares [`decay_grad`] at this point with central finite differences of [`decay`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn decay_check(x0: f64, k: f64, n: usize) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x0, __ad_d_k) = decay_grad(x0, k, n);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x0", x0, __ad_d_x0, |x0| decay(x0, k, n));
    __ad_check.scalar("k", k, __ad_d_k, |k| decay(x0, k, n));
    __ad_check
}
