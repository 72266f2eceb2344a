fn generic_scalar<T: Float>(x: T, y: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..y.len() {
        s = s + y[i] * x.exp();
    }
    s * T::from(2.0).unwrap()
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct generic_scalar {}
#[doc(hidden)]
impl generic_scalar {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "y"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<T: Float, F: ::core::ops::Fn(T, &[T]) -> T>(called: &F, _: &T) {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&generic_scalar::<T>),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full<'y, T: Float>(
        x: T,
        y: &'y [T],
    ) -> (
        T,
        impl ::core::ops::FnOnce(T) -> (T, ::autograd::__private::Vec<T>) + use<'y, T>,
    ) {
        let _ = generic_scalar::<T>;
        use ::autograd::__private::rules as __ad_rules;
        let __ad_v2_s = (T::zero());
        let __ad_v3 = y.len();
        let mut __ad_c0_s = __ad_v2_s;
        for __ad_v5_i in 0..__ad_v3 {
            let __ad_v4_s = __ad_c0_s;
            let __ad_v6 = y[__ad_v5_i];
            let __ad_v7 = x.exp();
            let __ad_v8 = __ad_v6 * __ad_v7;
            let __ad_v9_s = __ad_v4_s + __ad_v8;
            __ad_c0_s = __ad_v9_s;
        }
        let __ad_v10_s = __ad_c0_s;
        let __ad_v11 = __ad_v10_s * (T::from(2.0).unwrap());
        (
            __ad_v11,
            move |__ad_seed: T| {
                let mut __ad_d_y = ::autograd::__private::zeros_like_slice(y);
                let mut __ad_d_x = <T as ::autograd::__private::rules::Real>::zero();
                let __ad_d11 = __ad_seed;
                let __ad_d10_s = __ad_rules::mul_grad_lhs(
                    __ad_d11,
                    (T::from(2.0).unwrap()),
                );
                let mut __ad_dc0_s = __ad_d10_s;
                for __ad_v5_i in ::core::iter::Iterator::rev(0..__ad_v3) {
                    let __ad_v6 = y[__ad_v5_i];
                    let __ad_v7 = x.exp();
                    let __ad_d9_s = __ad_dc0_s;
                    let __ad_d4_s = __ad_rules::add_grad_lhs(__ad_d9_s);
                    let __ad_d8 = __ad_rules::add_grad_rhs(__ad_d9_s);
                    let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d8, __ad_v7);
                    let __ad_d7 = __ad_rules::mul_grad_rhs(__ad_d8, __ad_v6);
                    __ad_d_x = __ad_d_x + (__ad_rules::exp_grad(__ad_d7, __ad_v7));
                    __ad_d_y[__ad_v5_i] = __ad_d_y[__ad_v5_i] + (__ad_d6);
                    __ad_dc0_s = __ad_d4_s;
                }
                (__ad_d_x, __ad_d_y)
            },
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'y, T: Float>(
        x: T,
        y: &'y [T],
        __ad_b_x: &mut T,
        __ad_b_y: &mut [T],
    ) -> T {
        let _ = generic_scalar::<T>;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_y, y.len());
        let __ad_v2_s = (T::zero());
        let __ad_v3 = y.len();
        let mut __ad_c0_s = __ad_v2_s;
        for __ad_v5_i in 0..__ad_v3 {
            let __ad_v4_s = __ad_c0_s;
            let __ad_v6 = y[__ad_v5_i];
            let __ad_v7 = x.exp();
            let __ad_v8 = __ad_v6 * __ad_v7;
            let __ad_v9_s = __ad_v4_s + __ad_v8;
            __ad_c0_s = __ad_v9_s;
        }
        let __ad_v10_s = __ad_c0_s;
        let __ad_v11 = __ad_v10_s * (T::from(2.0).unwrap());
        let __ad_result = __ad_v11;
        let __ad_seed: T = <T as ::autograd::__private::rules::Real>::one();
        let mut __ad_d_y = __ad_b_y;
        let mut __ad_d_x = <T as ::autograd::__private::rules::Real>::zero();
        let __ad_d11 = __ad_seed;
        let __ad_d10_s = __ad_rules::mul_grad_lhs(__ad_d11, (T::from(2.0).unwrap()));
        let mut __ad_dc0_s = __ad_d10_s;
        for __ad_v5_i in ::core::iter::Iterator::rev(0..__ad_v3) {
            let __ad_v6 = y[__ad_v5_i];
            let __ad_v7 = x.exp();
            let __ad_d9_s = __ad_dc0_s;
            let __ad_d4_s = __ad_rules::add_grad_lhs(__ad_d9_s);
            let __ad_d8 = __ad_rules::add_grad_rhs(__ad_d9_s);
            let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d8, __ad_v7);
            let __ad_d7 = __ad_rules::mul_grad_rhs(__ad_d8, __ad_v6);
            __ad_d_x = __ad_d_x + (__ad_rules::exp_grad(__ad_d7, __ad_v7));
            __ad_d_y[__ad_v5_i] = __ad_d_y[__ad_v5_i] + (__ad_d6);
            __ad_dc0_s = __ad_d4_s;
        }
        *__ad_b_x = *__ad_b_x + (__ad_d_x);
        __ad_result
    }
}
/** The value of [`generic_scalar`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `generic_scalar` returns.*/
#[inline]
fn generic_scalar_vjp<'y, T: Float>(
    x: T,
    y: &'y [T],
) -> (
    T,
    impl ::core::ops::FnOnce(T) -> (T, ::autograd::__private::Vec<T>) + use<'y, T>,
) {
    generic_scalar::__vjp_full(x, y)
}
/** The value of [`generic_scalar`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `generic_scalar_vjp` with seed 1.*/
#[inline]
fn generic_scalar_grad<'y, T: Float>(
    x: T,
    y: &'y [T],
) -> (T, T, ::autograd::__private::Vec<T>) {
    ::autograd::__private::grad(generic_scalar::__vjp_full(x, y))
}
/** The value of [`generic_scalar`], its gradient added into one buffer per differentiable argument (`d_x += ∂generic_scalar/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn generic_scalar_grad_acc<'y, T: Float>(
    x: T,
    y: &'y [T],
    d_x: &mut T,
    d_y: &mut [T],
) -> T {
    generic_scalar::__grad_acc_full(x, y, d_x, d_y)
}
/** Compares [`generic_scalar_grad`] at this point with central finite differences of [`generic_scalar`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn generic_scalar_check<'y, T: Float>(x: T, y: &'y [T]) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_y) = generic_scalar_grad(x, y);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x", x, __ad_d_x, |x| generic_scalar(x, y));
    __ad_check.slice("y", y, &__ad_d_y, |y| generic_scalar(x, y));
    __ad_check
}
