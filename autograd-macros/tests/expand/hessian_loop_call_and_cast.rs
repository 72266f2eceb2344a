fn energy(x: f64, w: &[f64], n: usize) -> f64 {
    let mut s = 0.5 * x * x;
    for i in 0..w.len() {
        s += softplus(w[i] * x) / (n as f64) + std::f64::consts::PI;
    }
    s
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct energy {}
#[doc(hidden)]
impl energy {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "w", "n"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&energy),
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
    ) -> f64 {
        let _ = energy;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_w, w.len());
        let __ad_v3 = 0.5 * x;
        let __ad_v4_s = __ad_v3 * x;
        let __ad_v5 = w.len();
        let mut __ad_c0_s = __ad_v4_s;
        for __ad_v7_i in 0..__ad_v5 {
            let __ad_v6_s = __ad_c0_s;
            let __ad_v8 = w[__ad_v7_i];
            let __ad_v9 = __ad_v8 * x;
            let __ad_v10 = softplus(__ad_v9);
            let __ad_v11 = n as f64;
            let __ad_v12 = &__ad_v10 / __ad_v11;
            let __ad_v13 = &__ad_v12 + std::f64::consts::PI;
            let __ad_v14_s = __ad_v6_s + &__ad_v13;
            __ad_c0_s = __ad_v14_s;
        }
        let __ad_v15_s = __ad_c0_s;
        let __ad_result = __ad_v15_s;
        let mut __ad_d_w = __ad_b_w;
        let mut __ad_d_x = 0.0;
        let __ad_d15_s = __ad_seed;
        let mut __ad_dc0_s = __ad_d15_s;
        for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v5) {
            let __ad_v8 = w[__ad_v7_i];
            let __ad_v9 = __ad_v8 * x;
            let (__ad_v10, __ad_pb10) = softplus::__vjp_full(__ad_v9);
            softplus::__same_callee(&softplus, &__ad_v10, &__ad_pb10);
            let __ad_v11 = n as f64;
            let __ad_v12 = &__ad_v10 / __ad_v11;
            let mut __ad_d8 = 0.0;
            let mut __ad_r8 = false;
            let mut __ad_d9 = 0.0;
            let mut __ad_r9 = false;
            let __ad_d14_s = __ad_dc0_s;
            let __ad_d6_s = __ad_rules::generic::add_grad_lhs(&__ad_d14_s);
            let __ad_d13 = __ad_rules::generic::add_grad_rhs_owned(__ad_d14_s);
            let __ad_d12 = __ad_rules::generic::add_grad_lhs_owned(__ad_d13);
            let __ad_d10 = __ad_rules::generic::div_grad_lhs_owned(
                __ad_d12,
                &__ad_v10,
                &__ad_v11,
                &__ad_v12,
            );
            let ((__ad_pb10_d0,), __ad_reached10) = ::autograd::__private::reached(
                __ad_pb10(__ad_d10),
            );
            let __ad_pb10_d0 = ::autograd::__private::contribution((__ad_pb10_d0));
            ::autograd::__private::accumulate(&mut __ad_d9, __ad_pb10_d0);
            __ad_r9 |= __ad_reached10[0];
            if __ad_r9 {
                __ad_d8 += __ad_rules::mul_grad_lhs(__ad_d9, x);
                __ad_r8 = true;
                __ad_d_x += __ad_rules::mul_grad_rhs(__ad_d9, __ad_v8);
            }
            if __ad_r8 {
                __ad_d_w[__ad_v7_i] += __ad_d8;
            }
            __ad_dc0_s = __ad_d6_s;
        }
        let __ad_d4_s = __ad_dc0_s;
        let __ad_d3 = __ad_rules::mul_grad_lhs(__ad_d4_s, x);
        __ad_d_x += __ad_rules::mul_grad_rhs(__ad_d4_s, __ad_v3);
        __ad_d_x += __ad_rules::mul_grad_rhs(__ad_d3, 0.5);
        *__ad_b_x += __ad_d_x;
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut)]
    fn __vjp_full<'w>(
        x: f64,
        w: &'w [f64],
        n: usize,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                f64,
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
            ) + use<'w>,
    ) {
        let mut __ad_b_x = 0.0;
        let mut __ad_b_w = ::autograd::__private::zeros_like_slice(w);
        let __ad_value = energy::__grad_acc_full(
            x,
            w,
            n,
            &mut __ad_b_x,
            &mut __ad_b_w,
            1.0,
        );
        (
            __ad_value,
            move |__ad_seed: f64| {
                if ::autograd::__private::rules::Real::is_finite(__ad_seed) {
                    __ad_b_x = ::autograd::__private::Seeded::seeded(
                        __ad_b_x,
                        __ad_seed,
                    );
                    __ad_b_w = ::autograd::__private::Seeded::seeded(
                        __ad_b_w,
                        __ad_seed,
                    );
                } else {
                    __ad_b_x = 0.0;
                    __ad_b_w.fill(0.0);
                    energy::__grad_acc_full(
                        x,
                        w,
                        n,
                        &mut __ad_b_x,
                        &mut __ad_b_w,
                        __ad_seed,
                    );
                }
                (__ad_b_x, __ad_b_w, ::autograd::__private::NoGradient)
            },
        )
    }
}
/** The value of [`energy`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `energy` returns.*/
#[inline]
fn energy_vjp<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (f64, ::autograd::__private::Vec<f64>) + use<'w>,
) {
    let (__ad_value, __ad_pullback) = energy::__vjp_full(x, w, n);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_x, __ad_d_w, _) = __ad_pullback(__ad_seed);
            (__ad_d_x, __ad_d_w)
        },
    ))
}
/** The value of [`energy`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `energy_vjp` with seed 1.*/
#[inline]
fn energy_grad<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> (f64, f64, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = energy::__vjp_full(x, w, n);
    let (__ad_d_x, __ad_d_w, _) = __ad_pullback(1.0);
    ((__ad_value, __ad_d_x, __ad_d_w))
}
/** The value of [`energy`], its gradient added into one buffer per differentiable argument (`d_x += ∂energy/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn energy_grad_acc<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
    d_x: &mut f64,
    d_w: &mut [f64],
) -> f64 {
    energy::__grad_acc_full(x, w, n, d_x, d_w, 1.0)
}
/** Compares [`energy_grad`] at this point with central finite differences of [`energy`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn energy_check<'w>(x: f64, w: &'w [f64], n: usize) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_w) = energy_grad(x, w, n);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x", x, __ad_d_x, |x| energy(x, w, n));
    __ad_check.slice("w", w, &__ad_d_w, |w| energy(x, w, n));
    __ad_check
}
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
fn __ad_hessian_energy<__AdScalar: ::autograd::__private::Float + 'static>(
    x: __AdScalar,
    w: &[__AdScalar],
    n: usize,
) -> __AdScalar {
    __ad_hessian_energy::__vjp_full(x, w, n).0
}
#[allow(non_camel_case_types, dead_code)]
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
struct __ad_hessian_energy {}
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
impl __ad_hessian_energy {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "w", "n"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<
        __AdScalar: ::autograd::__private::Float + 'static,
        Called: ::core::ops::Fn(__AdScalar, &[__AdScalar], usize) -> __AdScalar,
        Pullback,
    >(called: &Called, _: &__AdScalar, _: &Pullback) {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&__ad_hessian_energy::<__AdScalar>),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'w, __AdScalar: ::autograd::__private::Float + 'static>(
        x: __AdScalar,
        w: &'w [__AdScalar],
        n: usize,
        __ad_b_x: &mut __AdScalar,
        __ad_b_w: &mut [__AdScalar],
        __ad_seed: __AdScalar,
    ) -> __AdScalar {
        let _ = __ad_hessian_energy::<__AdScalar>;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_w, w.len());
        let __ad_v3 = (__AdScalar::from(0.5f64).unwrap()) * x;
        let __ad_v4_s = __ad_v3 * x;
        let __ad_v5 = w.len();
        let mut __ad_c0_s = __ad_v4_s;
        for __ad_v7_i in 0..__ad_v5 {
            let __ad_v6_s = __ad_c0_s;
            let __ad_v8 = w[__ad_v7_i];
            let __ad_v9 = __ad_v8 * x;
            let __ad_v10 = <softplus as ::autograd::__private::SecondOrder<
                _,
                _,
            >>::primal((__ad_v9,));
            let __ad_v11 = __AdScalar::from(n).unwrap();
            let __ad_v12 = __ad_v10 / __ad_v11;
            let __ad_v13 = __ad_v12 + (__AdScalar::from(std::f64::consts::PI).unwrap());
            let __ad_v14_s = __ad_v6_s + __ad_v13;
            __ad_c0_s = __ad_v14_s;
        }
        let __ad_v15_s = __ad_c0_s;
        let __ad_result = __ad_v15_s;
        let mut __ad_d_w = __ad_b_w;
        let mut __ad_d_x = <__AdScalar as ::autograd::__private::rules::Real>::zero();
        let __ad_d15_s = __ad_seed;
        let mut __ad_dc0_s = __ad_d15_s;
        for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v5) {
            let __ad_v8 = w[__ad_v7_i];
            let __ad_v9 = __ad_v8 * x;
            let (__ad_v10, __ad_pb10) = <softplus as ::autograd::__private::SecondOrder<
                _,
                _,
            >>::vjp_full((__ad_v9,));
            let __ad_v11 = __AdScalar::from(n).unwrap();
            let mut __ad_d8 = <__AdScalar as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r8 = false;
            let mut __ad_d9 = <__AdScalar as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r9 = false;
            let __ad_d14_s = __ad_dc0_s;
            let __ad_d6_s = __ad_rules::add_grad_lhs(__ad_d14_s);
            let __ad_d13 = __ad_rules::add_grad_rhs(__ad_d14_s);
            let __ad_d12 = __ad_rules::add_grad_lhs(__ad_d13);
            let __ad_d10 = __ad_rules::div_grad_lhs(__ad_d12, __ad_v11);
            let ((__ad_pb10_d0,), __ad_reached10) = ::autograd::__private::reached(
                __ad_pb10(__ad_d10),
            );
            let __ad_pb10_d0 = (__ad_pb10_d0);
            ::autograd::__private::accumulate_scalar(&mut __ad_d9, __ad_pb10_d0);
            __ad_r9 |= __ad_reached10[0];
            if __ad_r9 {
                __ad_d8 = __ad_d8 + (__ad_rules::mul_grad_lhs(__ad_d9, x));
                __ad_r8 = true;
                __ad_d_x = __ad_d_x + (__ad_rules::mul_grad_rhs(__ad_d9, __ad_v8));
            }
            if __ad_r8 {
                __ad_d_w[__ad_v7_i] = __ad_d_w[__ad_v7_i] + (__ad_d8);
            }
            __ad_dc0_s = __ad_d6_s;
        }
        let __ad_d4_s = __ad_dc0_s;
        let __ad_d3 = __ad_rules::mul_grad_lhs(__ad_d4_s, x);
        __ad_d_x = __ad_d_x + (__ad_rules::mul_grad_rhs(__ad_d4_s, __ad_v3));
        __ad_d_x = __ad_d_x
            + (__ad_rules::mul_grad_rhs(__ad_d3, (__AdScalar::from(0.5f64).unwrap())));
        *__ad_b_x = *__ad_b_x + (__ad_d_x);
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut)]
    fn __vjp_full<'w, __AdScalar: ::autograd::__private::Float + 'static>(
        x: __AdScalar,
        w: &'w [__AdScalar],
        n: usize,
    ) -> (
        __AdScalar,
        impl ::core::ops::FnOnce(
            __AdScalar,
        ) -> (
                __AdScalar,
                ::autograd::__private::Vec<__AdScalar>,
                ::autograd::__private::NoGradient,
            ) + use<'w, __AdScalar>,
    ) {
        let mut __ad_b_x = <__AdScalar as ::autograd::__private::rules::Real>::zero();
        let mut __ad_b_w = ::autograd::__private::zeros_like_slice(w);
        let __ad_value = __ad_hessian_energy::__grad_acc_full(
            x,
            w,
            n,
            &mut __ad_b_x,
            &mut __ad_b_w,
            <__AdScalar as ::autograd::__private::rules::Real>::one(),
        );
        (
            __ad_value,
            move |__ad_seed: __AdScalar| {
                if ::autograd::__private::rules::Real::is_finite(__ad_seed) {
                    __ad_b_x = ::autograd::__private::Seeded::seeded(
                        __ad_b_x,
                        __ad_seed,
                    );
                    __ad_b_w = ::autograd::__private::Seeded::seeded(
                        __ad_b_w,
                        __ad_seed,
                    );
                } else {
                    __ad_b_x = <__AdScalar as ::autograd::__private::rules::Real>::zero();
                    __ad_b_w
                        .fill(
                            <__AdScalar as ::autograd::__private::rules::Real>::zero(),
                        );
                    __ad_hessian_energy::__grad_acc_full(
                        x,
                        w,
                        n,
                        &mut __ad_b_x,
                        &mut __ad_b_w,
                        __ad_seed,
                    );
                }
                (__ad_b_x, __ad_b_w, ::autograd::__private::NoGradient)
            },
        )
    }
}
#[inline]
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
fn __ad_hessian_energy_vjp<'w, __AdScalar: ::autograd::__private::Float + 'static>(
    x: __AdScalar,
    w: &'w [__AdScalar],
    n: usize,
) -> (
    __AdScalar,
    impl ::core::ops::FnOnce(
        __AdScalar,
    ) -> (__AdScalar, ::autograd::__private::Vec<__AdScalar>) + use<'w, __AdScalar>,
) {
    let (__ad_value, __ad_pullback) = __ad_hessian_energy::__vjp_full(x, w, n);
    ((
        __ad_value,
        move |__ad_seed: __AdScalar| {
            let (__ad_d_x, __ad_d_w, _) = __ad_pullback(__ad_seed);
            (__ad_d_x, __ad_d_w)
        },
    ))
}
#[inline]
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
fn __ad_hessian_energy_grad<'w, __AdScalar: ::autograd::__private::Float + 'static>(
    x: __AdScalar,
    w: &'w [__AdScalar],
    n: usize,
) -> (__AdScalar, __AdScalar, ::autograd::__private::Vec<__AdScalar>) {
    let (__ad_value, __ad_pullback) = __ad_hessian_energy::__vjp_full(x, w, n);
    let (__ad_d_x, __ad_d_w, _) = __ad_pullback(
        <__AdScalar as ::autograd::__private::rules::Real>::one(),
    );
    ((__ad_value, __ad_d_x, __ad_d_w))
}
#[inline]
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
fn __ad_hessian_energy_grad_acc<'w, __AdScalar: ::autograd::__private::Float + 'static>(
    x: __AdScalar,
    w: &'w [__AdScalar],
    n: usize,
    d_x: &mut __AdScalar,
    d_w: &mut [__AdScalar],
) -> __AdScalar {
    __ad_hessian_energy::__grad_acc_full(
        x,
        w,
        n,
        d_x,
        d_w,
        <__AdScalar as ::autograd::__private::rules::Real>::one(),
    )
}
#[inline]
#[doc(hidden)]
#[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
fn __ad_hessian_energy_check<'w, __AdScalar: ::autograd::__private::Float + 'static>(
    x: __AdScalar,
    w: &'w [__AdScalar],
    n: usize,
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_w) = __ad_hessian_energy_grad(x, w, n);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x", x, __ad_d_x, |x| __ad_hessian_energy(x, w, n));
    __ad_check.slice("w", w, &__ad_d_w, |w| __ad_hessian_energy(x, w, n));
    __ad_check
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
impl<
    'w,
    __AdScalar: ::autograd::__private::Float + 'static,
> ::autograd::__private::SecondOrder<__AdScalar, (__AdScalar, &'w [__AdScalar], usize)>
for energy {
    type Adjoints = (
        __AdScalar,
        ::autograd::__private::Vec<__AdScalar>,
        ::autograd::__private::NoGradient,
    );
    #[inline(always)]
    fn primal(
        (__ad_a0, __ad_a1, __ad_a2): (__AdScalar, &'w [__AdScalar], usize),
    ) -> __AdScalar {
        __ad_hessian_energy(__ad_a0, __ad_a1, __ad_a2)
    }
    #[inline(always)]
    fn vjp_full(
        (__ad_a0, __ad_a1, __ad_a2): (__AdScalar, &'w [__AdScalar], usize),
    ) -> (__AdScalar, impl ::core::ops::FnOnce(__AdScalar) -> Self::Adjoints) {
        __ad_hessian_energy::__vjp_full(__ad_a0, __ad_a1, __ad_a2)
    }
}
#[doc(hidden)]
impl ::autograd::__private::HasSecondOrder for energy {}
/** The value of [`energy`], its gradient and the Hessian-vector product `H·v`: one direction per differentiable argument, in argument order; returns the value, then one gradient entry per differentiable argument, then one `H·v` entry per differentiable argument (flat, like `energy_grad`).

 Generated by `#[differentiable(hessian)]`: the reverse sweep run on dual numbers (forward over reverse), at about the cost of two gradients; the value is bit for bit what `energy` returns, the gradient equal to `energy_grad`'s to rounding (a loop `energy_grad` runs as one fused pass sums in another order).

 # Panics

 If a slice direction's length is not its argument's.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn energy_hvp<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
    v_x: f64,
    v_w: &[f64],
) -> (f64, f64, ::autograd::__private::Vec<f64>, f64, ::autograd::__private::Vec<f64>) {
    let _ = energy;
    let (__ad_value, __ad_d_x, __ad_d_w) = __ad_hessian_energy_grad::<
        ::autograd::Dual<f64>,
    >(
        <::autograd::Dual<f64>>::new(x, v_x),
        &::autograd::__private::dual_slice(w, v_w),
        n,
    );
    (
        __ad_value.re,
        ::autograd::__private::real_part(&__ad_d_x),
        ::autograd::__private::real_part(&__ad_d_w),
        ::autograd::__private::dual_part(&__ad_d_x),
        ::autograd::__private::dual_part(&__ad_d_w),
    )
}
/** The value of [`energy`], its gradient and its Hessian, over the differentiable arguments flattened in argument order (a number one entry, a slice its elements, a matrix its entries column by column).

 Generated by `#[differentiable(hessian)]`: column j is the derivative of the gradient along input j, `autograd::lanes::HESSIAN_LANES` columns a reverse sweep (forward over reverse at a dual number of that many lanes, vector mode), the last n mod HESSIAN_LANES columns one `energy_hvp` each: ⌊n / HESSIAN_LANES⌋ + n mod HESSIAN_LANES sweeps for n inputs, each column equal to `energy_hvp` along its input. For a twice continuously differentiable function the result is symmetric up to rounding (not averaged: each column is exactly the derivative of `energy_grad` along its input, which a `stop_gradient` can make asymmetric). The value is bit for bit what `energy` returns.*/
#[allow(clippy::too_many_arguments, clippy::all)]
fn energy_hessian<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> (f64, ::autograd::nalgebra::DVector<f64>, ::autograd::nalgebra::DMatrix<f64>) {
    let __ad_offset0: usize = 0usize;
    let __ad_offset1: usize = __ad_offset0 + 1usize;
    let __ad_n: usize = 0usize + 1usize + w.len();
    let mut __ad_grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad_n);
    let mut __ad_h = ::autograd::nalgebra::DMatrix::<f64>::zeros(__ad_n, __ad_n);
    let mut __ad_value = ::core::option::Option::None;
    let __ad_lanes_end = __ad_n - __ad_n % ::autograd::__private::HESSIAN_LANES;
    for __ad_first in (0..__ad_lanes_end).step_by(::autograd::__private::HESSIAN_LANES) {
        let __ad_seed = ::autograd::__private::LaneSeed::columns(__ad_first);
        let (__ad_v, __ad_d_x, __ad_d_w) = __ad_hessian_energy_grad::<
            ::autograd::__private::HessianDual<f64>,
        >(
            ::autograd::__private::lane_scalar(x, __ad_seed, __ad_offset0),
            &::autograd::__private::lane_slice(w, __ad_seed, __ad_offset1),
            n,
        );
        if __ad_value.is_none() {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            ::autograd::__private::push_lane_values(&mut __ad_column, &__ad_d_x);
            ::autograd::__private::push_lane_values(&mut __ad_column, &__ad_d_w);
            __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
            __ad_value = ::core::option::Option::Some(__ad_v.re);
        }
        ::autograd::__private::put_lanes(
            __ad_h.as_mut_slice(),
            __ad_n,
            &__ad_d_x,
            __ad_offset0,
            __ad_seed,
        );
        ::autograd::__private::put_lanes(
            __ad_h.as_mut_slice(),
            __ad_n,
            &__ad_d_w,
            __ad_offset1,
            __ad_seed,
        );
    }
    for __ad_j in __ad_lanes_end..__ad_n {
        let (__ad_v, __ad_d_x, __ad_d_w, __ad_d_h_x, __ad_d_h_w) = energy_hvp(
            x,
            w,
            n,
            ::autograd::__private::unit_scalar::<f64>(__ad_j, __ad_offset0),
            &::autograd::__private::unit_slice::<f64>(w.len(), __ad_j, __ad_offset1),
        );
        if __ad_value.is_none() {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_x);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_w);
            __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
            __ad_value = ::core::option::Option::Some(__ad_v);
        }
        let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
        ::autograd::__private::push_flat(&mut __ad_column, __ad_d_h_x);
        ::autograd::__private::push_flat(&mut __ad_column, __ad_d_h_w);
        __ad_h.set_column(__ad_j, &::autograd::nalgebra::DVector::from_vec(__ad_column));
    }
    let __ad_value = match __ad_value {
        ::core::option::Option::Some(v) => v,
        ::core::option::Option::None => energy(x, w, n),
    };
    (__ad_value, __ad_grad, __ad_h)
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
type energy_grad = ::autograd::checks::not_generated::gradient_3<
    <::autograd::checks::GradientOfArrays as ::autograd::checks::GradientOfNumbers>::Gradient,
>;
/** The sparsity pattern of [`energy`]'s Hessian at this point and its star colouring, for [`energy_hessian_sparse`].

 Generated by `#[differentiable(hessian)]`: one run of `energy` on `autograd::sparse::Tracer`, which records the pairs of inputs that interact non-linearly. The pattern is local: it holds at every point where `energy` takes the branches it takes here; it is global (`is_global()`, it holds at every point) when the run decided nothing on a value that depends on the inputs (no comparison, `max`/`min` pick, `clamp` or integer conversion of one), or the pattern is dense. Structural, not numerical: an entry that happens to be 0 here is kept.*/
#[allow(clippy::too_many_arguments, clippy::all)]
fn energy_hessian_pattern<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
) -> ::autograd::sparse::Coloring {
    let __ad_offset0: usize = 0usize;
    let __ad_offset1: usize = __ad_offset0 + 1usize;
    let __ad_n: usize = 0usize + 1usize + w.len();
    let __ad_session = ::autograd::sparse::Session::new(__ad_n);
    let __ad_traced = __ad_hessian_energy::<
        ::autograd::sparse::Tracer,
    >(__ad_session.input(x, __ad_offset0), &__ad_session.inputs(w, __ad_offset1), n);
    __ad_session.hessian(__ad_traced)
}
/** The value of [`energy`], its gradient and its Hessian as a sparse matrix of the pattern `coloring` holds ([`energy_hessian_pattern`]), over the differentiable arguments flattened as in `energy_hessian`.

 Generated by `#[differentiable(hessian)]`: the Hessian along the sum of each colour's unit directions, `autograd::lanes::HESSIAN_LANES` colours a reverse sweep (vector mode), the last colours mod HESSIAN_LANES one `energy_hvp` each, the entries recovered from the products. Each stored entry equals `energy_hessian`'s; entries outside the pattern are not computed.

 # Panics

 If `coloring` is not of this function's number of inputs.*/
#[allow(clippy::too_many_arguments, clippy::all)]
fn energy_hessian_sparse<'w>(
    x: f64,
    w: &'w [f64],
    n: usize,
    coloring: &::autograd::sparse::Coloring,
) -> (
    f64,
    ::autograd::nalgebra::DVector<f64>,
    ::autograd::nalgebra_sparse::CscMatrix<f64>,
) {
    let __ad_n: usize = 0usize + 1usize + w.len();
    ::core::assert_eq!(
        coloring.ncols(), __ad_n,
        "the colouring is of {} inputs, the function's arguments have {}", coloring
        .ncols(), __ad_n
    );
    let __ad_offset0: usize = 0usize;
    let __ad_offset1: usize = __ad_offset0 + 1usize;
    let __ad_colors = coloring.colors();
    let mut __ad_compressed = ::autograd::__private::vec![0.0f64; __ad_n * __ad_colors];
    let mut __ad_value = ::core::option::Option::None;
    let mut __ad_grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad_n);
    let __ad_lanes_end = __ad_colors
        - __ad_colors % ::autograd::__private::HESSIAN_LANES;
    for __ad_first in (0..__ad_lanes_end).step_by(::autograd::__private::HESSIAN_LANES) {
        let __ad_lane_seed = ::autograd::__private::LaneSeed::colors(
            coloring.column_colors(),
            __ad_first,
        );
        let (__ad_v, __ad_d_x, __ad_d_w) = __ad_hessian_energy_grad::<
            ::autograd::__private::HessianDual<f64>,
        >(
            ::autograd::__private::lane_scalar(x, __ad_lane_seed, __ad_offset0),
            &::autograd::__private::lane_slice(w, __ad_lane_seed, __ad_offset1),
            n,
        );
        if __ad_value.is_none() {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            ::autograd::__private::push_lane_values(&mut __ad_column, &__ad_d_x);
            ::autograd::__private::push_lane_values(&mut __ad_column, &__ad_d_w);
            __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
            __ad_value = ::core::option::Option::Some(__ad_v.re);
        }
        ::autograd::__private::put_lanes(
            &mut __ad_compressed,
            __ad_n,
            &__ad_d_x,
            __ad_offset0,
            __ad_lane_seed,
        );
        ::autograd::__private::put_lanes(
            &mut __ad_compressed,
            __ad_n,
            &__ad_d_w,
            __ad_offset1,
            __ad_lane_seed,
        );
    }
    let mut __ad_seed = ::autograd::__private::vec![0.0f64; __ad_n];
    for __ad_c in __ad_lanes_end..__ad_colors.max(1) {
        if __ad_c < __ad_colors {
            coloring.seed_into(__ad_c, &mut __ad_seed);
        }
        let mut __ad_flat = __ad_seed.clone().into_iter();
        let (__ad_v, __ad_d_x, __ad_d_w, __ad_d_h_x, __ad_d_h_w) = energy_hvp(
            x,
            w,
            n,
            ::autograd::__private::take_scalar(&mut __ad_flat),
            &::autograd::__private::take_slice(&mut __ad_flat, w.len()),
        );
        if __ad_value.is_none() {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_x);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_w);
            __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
            __ad_value = ::core::option::Option::Some(__ad_v);
        }
        if __ad_c < __ad_colors {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_h_x);
            ::autograd::__private::push_flat(&mut __ad_column, __ad_d_h_w);
            __ad_compressed[__ad_c * __ad_n..(__ad_c + 1) * __ad_n]
                .copy_from_slice(&__ad_column);
        }
    }
    let __ad_value = match __ad_value {
        ::core::option::Option::Some(v) => v,
        ::core::option::Option::None => ::core::unreachable!("one product at least"),
    };
    (__ad_value, __ad_grad, coloring.recover(&__ad_compressed))
}
