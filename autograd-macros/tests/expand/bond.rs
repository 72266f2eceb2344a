fn bond_price(r: &[f64], z: f64, cf: &[f64], t: &[f64]) -> f64 {
    let mut p = 0.0;
    for i in 0..cf.len() {
        p += cf[i] * (-(r[i] + z) * t[i]).exp();
    }
    p
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct bond_price {}
#[doc(hidden)]
impl bond_price {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["r", "z", "cf", "t"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&bond_price),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'r, 'cf, 't>(
        r: &'r [f64],
        z: f64,
        cf: &'cf [f64],
        t: &'t [f64],
        __ad_b_r: &mut [f64],
        __ad_b_z: &mut f64,
        __ad_seed: f64,
    ) -> (f64, [bool; 4]) {
        let _ = bond_price;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_r, r.len());
        let __ad_v4_p = 0.0;
        let __ad_v5 = cf.len();
        let (__ad_v17_p, __ad_u0__r, __ad_u0__z) = {
            let mut __ad_d_r = &mut *__ad_b_r;
            let mut __ad_d_z = 0.0;
            let mut __ad_c0_p = __ad_v4_p;
            for __ad_v7_i in 0..__ad_v5 {
                let __ad_v6_p = __ad_c0_p;
                let __ad_v8 = cf[__ad_v7_i];
                let __ad_v9 = r[__ad_v7_i];
                let __ad_v10 = __ad_v9 + z;
                let __ad_v11 = -__ad_v10;
                let __ad_v12 = t[__ad_v7_i];
                let __ad_v13 = __ad_v11 * __ad_v12;
                let __ad_v14 = __ad_v13.exp();
                let __ad_v15 = __ad_v8 * __ad_v14;
                let __ad_v16_p = __ad_v6_p + __ad_v15;
                let __ad_d16_p = 1.0;
                let __ad_d6_p = __ad_rules::add_grad_lhs(__ad_d16_p);
                let __ad_d15 = __ad_rules::add_grad_rhs(__ad_d16_p);
                let __ad_d14 = __ad_rules::mul_grad_rhs(__ad_d15, __ad_v8);
                let __ad_d13 = __ad_rules::exp_grad(__ad_d14, __ad_v14);
                let __ad_d11 = __ad_rules::mul_grad_lhs(__ad_d13, __ad_v12);
                let __ad_d10 = __ad_rules::neg_grad(__ad_d11);
                let __ad_d9 = __ad_rules::add_grad_lhs(__ad_d10);
                __ad_d_z += __ad_rules::add_grad_rhs(__ad_d10);
                __ad_d_r[__ad_v7_i] += __ad_d9;
                __ad_c0_p = __ad_v16_p;
            }
            let __ad_v17_p = __ad_c0_p;
            (__ad_v17_p, __ad_d_r, __ad_d_z)
        };
        let __ad_result = __ad_v17_p;
        let mut __ad_d_r = __ad_u0__r;
        let mut __ad_d_z = 0.0;
        let mut __ad_r_z = false;
        let __ad_d17_p = __ad_seed;
        let __ad_dc0_p = __ad_d17_p;
        if __ad_dc0_p == 1.0 {
            if !(0..__ad_v5).is_empty() {
                __ad_d_z += __ad_dc0_p * __ad_u0__z;
                __ad_r_z = true;
            }
        } else {
            __ad_d_r.fill(0.0);
            let mut __ad_dc0_p = __ad_d17_p;
            for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v5) {
                let __ad_v8 = cf[__ad_v7_i];
                let __ad_v9 = r[__ad_v7_i];
                let __ad_v10 = __ad_v9 + z;
                let __ad_v11 = -__ad_v10;
                let __ad_v12 = t[__ad_v7_i];
                let __ad_v13 = __ad_v11 * __ad_v12;
                let __ad_v14 = __ad_v13.exp();
                let __ad_d16_p = __ad_dc0_p;
                let __ad_d6_p = __ad_rules::add_grad_lhs(__ad_d16_p);
                let __ad_d15 = __ad_rules::add_grad_rhs(__ad_d16_p);
                let __ad_d14 = __ad_rules::mul_grad_rhs(__ad_d15, __ad_v8);
                let __ad_d13 = __ad_rules::exp_grad(__ad_d14, __ad_v14);
                let __ad_d11 = __ad_rules::mul_grad_lhs(__ad_d13, __ad_v12);
                let __ad_d10 = __ad_rules::neg_grad(__ad_d11);
                let __ad_d9 = __ad_rules::add_grad_lhs(__ad_d10);
                __ad_d_z += __ad_rules::add_grad_rhs(__ad_d10);
                __ad_r_z = true;
                __ad_d_r[__ad_v7_i] += __ad_d9;
                __ad_dc0_p = __ad_d6_p;
            }
        }
        *__ad_b_z += __ad_d_z;
        (__ad_result, [true, __ad_r_z, true, true])
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'r, 'cf, 't>(
        r: &'r [f64],
        z: f64,
        cf: &'cf [f64],
        t: &'t [f64],
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (
                    ::autograd::__private::Vec<f64>,
                    f64,
                    ::autograd::__private::NoGradient,
                    ::autograd::__private::NoGradient,
                ),
                4,
            > + use<'r, 'cf, 't>,
    ) {
        ::autograd::__private::vjp_by_acc_reached(
            (
                ::autograd::__private::zeros_like_slice(r),
                0.0,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| bond_price::__grad_acc_full(
                r,
                z,
                cf,
                t,
                &mut __ad_b.0,
                &mut __ad_b.1,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`bond_price`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `bond_price` returns.*/
#[inline]
fn bond_price_vjp<'r, 'cf, 't>(
    r: &'r [f64],
    z: f64,
    cf: &'cf [f64],
    t: &'t [f64],
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (::autograd::__private::Vec<f64>, f64) + use<'r, 'cf, 't>,
) {
    let (__ad_value, __ad_pullback) = bond_price::__vjp_full(r, z, cf, t);
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (__ad_d_r, __ad_d_z, _, _) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_r, __ad_d_z)
        },
    ))
}
/** The value of [`bond_price`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `bond_price_vjp` with seed 1.*/
#[inline]
fn bond_price_grad<'r, 'cf, 't>(
    r: &'r [f64],
    z: f64,
    cf: &'cf [f64],
    t: &'t [f64],
) -> (f64, ::autograd::__private::Vec<f64>, f64) {
    let (__ad_value, __ad_pullback) = bond_price::__vjp_full(r, z, cf, t);
    let (__ad_d_r, __ad_d_z, _, _) = ::autograd::__private::adjoints(__ad_pullback(1.0));
    ((__ad_value, __ad_d_r, __ad_d_z))
}
/** The value of [`bond_price`], its gradient added into one buffer per differentiable argument (`d_x += ∂bond_price/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn bond_price_grad_acc<'r, 'cf, 't>(
    r: &'r [f64],
    z: f64,
    cf: &'cf [f64],
    t: &'t [f64],
    d_r: &mut [f64],
    d_z: &mut f64,
) -> f64 {
    bond_price::__grad_acc_full(r, z, cf, t, d_r, d_z, 1.0).0
}
/** Compares [`bond_price_grad`] at this point with central finite differences of [`bond_price`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn bond_price_check<'r, 'cf, 't>(
    r: &'r [f64],
    z: f64,
    cf: &'cf [f64],
    t: &'t [f64],
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_r, __ad_d_z) = bond_price_grad(r, z, cf, t);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("r", r, &__ad_d_r, |r| bond_price(r, z, cf, t));
    __ad_check.scalar("z", z, __ad_d_z, |z| bond_price(r, z, cf, t));
    __ad_check
}
