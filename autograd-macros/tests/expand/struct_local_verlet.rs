fn verlet(x0: f64, v0: f64, k: f64, dt: f64, steps: usize) -> f64 {
    let mut s = State { x: x0, v: v0 };
    let mut a = -k * s.x;
    for _ in 0..steps {
        let x = s.x + s.v * dt + 0.5 * a * dt * dt;
        let a_next = -k * x;
        s = State {
            x,
            v: s.v + 0.5 * (a + a_next) * dt,
        };
        a = a_next;
    }
    s.x + 0.1 * s.v
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct verlet {}
#[doc(hidden)]
impl verlet {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x0", "v0", "k", "dt", "steps"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&verlet),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full(
        x0: f64,
        v0: f64,
        k: f64,
        dt: f64,
        steps: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (
                    f64,
                    f64,
                    f64,
                    ::autograd::__private::NoGradient,
                    ::autograd::__private::NoGradient,
                ),
                5,
            > + use<>,
    ) {
        let _ = verlet;
        use ::autograd::__private::rules as __ad_rules;
        let __ad_v5 = -k;
        let __ad_v6_a = __ad_v5 * x0;
        let mut __ad_c0_s_x = x0;
        let mut __ad_c0_s_v = v0;
        let mut __ad_c0_a = __ad_v6_a;
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..steps)).0,
        );
        for _ in 0..steps {
            let __ad_v7_s_x = __ad_c0_s_x;
            let __ad_v8_s_v = __ad_c0_s_v;
            let __ad_v9_a = __ad_c0_a;
            __ad_stack0.push((__ad_v7_s_x, __ad_v8_s_v, __ad_v9_a));
            let __ad_v10 = __ad_v8_s_v * dt;
            let __ad_v11 = __ad_v7_s_x + __ad_v10;
            let __ad_v12 = 0.5 * __ad_v9_a;
            let __ad_v13 = __ad_v12 * dt;
            let __ad_v14 = __ad_v13 * dt;
            let __ad_v15_x = __ad_v11 + __ad_v14;
            let __ad_v16 = -k;
            let __ad_v17_a_next = __ad_v16 * __ad_v15_x;
            let __ad_v18 = __ad_v9_a + __ad_v17_a_next;
            let __ad_v19 = 0.5 * __ad_v18;
            let __ad_v20 = __ad_v19 * dt;
            let __ad_v21_s_v = __ad_v8_s_v + __ad_v20;
            __ad_c0_s_x = __ad_v15_x;
            __ad_c0_s_v = __ad_v21_s_v;
            __ad_c0_a = __ad_v17_a_next;
        }
        let __ad_v22_s_x = __ad_c0_s_x;
        let __ad_v23_s_v = __ad_c0_s_v;
        let __ad_v24_a = __ad_c0_a;
        let __ad_v25 = 0.1 * __ad_v23_s_v;
        let __ad_v26 = __ad_v22_s_x + __ad_v25;
        (
            __ad_v26,
            move |__ad_seed: f64| {
                let mut __ad_d_x0 = 0.0;
                let mut __ad_d_k = 0.0;
                let mut __ad_r_k = false;
                let mut __ad_d5 = 0.0;
                let mut __ad_r5 = false;
                let mut __ad_d6_a = 0.0;
                let mut __ad_r6_a = false;
                let __ad_d26 = __ad_seed;
                let __ad_d22_s_x = __ad_rules::add_grad_lhs(__ad_d26);
                let __ad_d25 = __ad_rules::add_grad_rhs(__ad_d26);
                let __ad_d23_s_v = __ad_rules::mul_grad_rhs(__ad_d25, 0.1);
                let mut __ad_dc0_s_x = __ad_d22_s_x;
                let mut __ad_dc0_s_v = __ad_d23_s_v;
                let mut __ad_dc0_a = 0.0;
                let mut __ad_rc0_a = false;
                for _ in ::core::iter::Iterator::rev(0..steps) {
                    let (__ad_v7_s_x, __ad_v8_s_v, __ad_v9_a) = ::autograd::__private::pop(
                        &mut __ad_stack0,
                    );
                    let __ad_v10 = __ad_v8_s_v * dt;
                    let __ad_v11 = __ad_v7_s_x + __ad_v10;
                    let __ad_v12 = 0.5 * __ad_v9_a;
                    let __ad_v13 = __ad_v12 * dt;
                    let __ad_v14 = __ad_v13 * dt;
                    let __ad_v15_x = __ad_v11 + __ad_v14;
                    let __ad_v16 = -k;
                    let mut __ad_d15_x = __ad_dc0_s_x;
                    let __ad_d21_s_v = __ad_dc0_s_v;
                    let mut __ad_d17_a_next = __ad_dc0_a;
                    let mut __ad_d8_s_v = __ad_rules::add_grad_lhs(__ad_d21_s_v);
                    let __ad_d20 = __ad_rules::add_grad_rhs(__ad_d21_s_v);
                    let __ad_d19 = __ad_rules::mul_grad_lhs(__ad_d20, dt);
                    let __ad_d18 = __ad_rules::mul_grad_rhs(__ad_d19, 0.5);
                    let mut __ad_d9_a = __ad_rules::add_grad_lhs(__ad_d18);
                    __ad_d17_a_next += __ad_rules::add_grad_rhs(__ad_d18);
                    let __ad_d16 = __ad_rules::mul_grad_lhs(__ad_d17_a_next, __ad_v15_x);
                    __ad_d15_x += __ad_rules::mul_grad_rhs(__ad_d17_a_next, __ad_v16);
                    __ad_d_k += __ad_rules::neg_grad(__ad_d16);
                    __ad_r_k = true;
                    let __ad_d11 = __ad_rules::add_grad_lhs(__ad_d15_x);
                    let __ad_d14 = __ad_rules::add_grad_rhs(__ad_d15_x);
                    let __ad_d13 = __ad_rules::mul_grad_lhs(__ad_d14, dt);
                    let __ad_d12 = __ad_rules::mul_grad_lhs(__ad_d13, dt);
                    __ad_d9_a += __ad_rules::mul_grad_rhs(__ad_d12, 0.5);
                    let __ad_d7_s_x = __ad_rules::add_grad_lhs(__ad_d11);
                    let __ad_d10 = __ad_rules::add_grad_rhs(__ad_d11);
                    __ad_d8_s_v += __ad_rules::mul_grad_lhs(__ad_d10, dt);
                    __ad_dc0_s_x = __ad_d7_s_x;
                    __ad_dc0_s_v = __ad_d8_s_v;
                    __ad_dc0_a = __ad_d9_a;
                    __ad_rc0_a = true;
                }
                __ad_d_x0 += __ad_dc0_s_x;
                let __ad_d_v0 = __ad_dc0_s_v;
                __ad_d6_a += __ad_dc0_a;
                __ad_r6_a |= __ad_rc0_a;
                if __ad_r6_a {
                    __ad_d5 += __ad_rules::mul_grad_lhs(__ad_d6_a, x0);
                    __ad_r5 = true;
                    __ad_d_x0 += __ad_rules::mul_grad_rhs(__ad_d6_a, __ad_v5);
                }
                if __ad_r5 {
                    __ad_d_k += __ad_rules::neg_grad(__ad_d5);
                    __ad_r_k = true;
                }
                ::autograd::__private::Reached(
                    (
                        __ad_d_x0,
                        __ad_d_v0,
                        __ad_d_k,
                        ::autograd::__private::NoGradient,
                        ::autograd::__private::NoGradient,
                    ),
                    [true, true, __ad_r_k, true, true],
                )
            },
        )
    }
}
/** The value of [`verlet`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `verlet` returns.*/
#[inline]
fn verlet_vjp(
    x0: f64,
    v0: f64,
    k: f64,
    dt: f64,
    steps: usize,
) -> (f64, impl ::core::ops::FnOnce(f64) -> (f64, f64, f64) + use<>) {
    let (__ad_value, __ad_pullback) = verlet::__vjp_full(x0, v0, k, dt, steps);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x0, __ad_d_v0, __ad_d_k, _, _) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_x0, __ad_d_v0, __ad_d_k)
        },
    ))
}
/** The value of [`verlet`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `verlet_vjp` with seed 1.*/
#[inline]
fn verlet_grad(x0: f64, v0: f64, k: f64, dt: f64, steps: usize) -> (f64, f64, f64, f64) {
    let (__ad_value, __ad_pullback) = verlet::__vjp_full(x0, v0, k, dt, steps);
    let (__ad_d_x0, __ad_d_v0, __ad_d_k, _, _) = ::autograd::__private::adjoints(
        __ad_pullback(1.0),
    );
    ((__ad_value, __ad_d_x0, __ad_d_v0, __ad_d_k))
}
/** The value of [`verlet`], its gradient added into one buffer per differentiable argument (`d_x += ∂verlet/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn verlet_grad_acc(
    x0: f64,
    v0: f64,
    k: f64,
    dt: f64,
    steps: usize,
    d_x0: &mut f64,
    d_v0: &mut f64,
    d_k: &mut f64,
) -> f64 {
    let (__ad_value, __ad_pullback) = verlet::__vjp_full(x0, v0, k, dt, steps);
    let (__ad_d_x0, __ad_d_v0, __ad_d_k, _, _) = ::autograd::__private::adjoints(
        __ad_pullback(1.0),
    );
    ::autograd::__private::accumulate(d_x0, __ad_d_x0);
    ::autograd::__private::accumulate(d_v0, __ad_d_v0);
    ::autograd::__private::accumulate(d_k, __ad_d_k);
    (__ad_value)
}
/** Compares [`verlet_grad`] at this point with central finite differences of [`verlet`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn verlet_check(
    x0: f64,
    v0: f64,
    k: f64,
    dt: f64,
    steps: usize,
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x0, __ad_d_v0, __ad_d_k) = verlet_grad(x0, v0, k, dt, steps);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x0", x0, __ad_d_x0, |x0| verlet(x0, v0, k, dt, steps));
    __ad_check.scalar("v0", v0, __ad_d_v0, |v0| verlet(x0, v0, k, dt, steps));
    __ad_check.scalar("k", k, __ad_d_k, |k| verlet(x0, v0, k, dt, steps));
    __ad_check
}
