fn step<T: Float>(y: &mut [T], k: T, dt: T) -> T {
    let first = y[0];
    for i in 0..y.len() {
        y[i] = y[i] + dt * (-k * y[i]);
    }
    first
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct step {}
#[doc(hidden)]
impl step {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["y", "k", "dt"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<T: Float, Called: ::core::ops::Fn(&mut [T], T, T) -> T, Pullback>(
        called: &Called,
        _: &T,
        _: &Pullback,
    ) {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&step::<T>),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full<'y, T: Float>(
        y: &'y mut [T],
        k: T,
        dt: T,
    ) -> (
        T,
        impl ::core::ops::FnOnce(
            T,
            ::std::vec::Vec<T>,
        ) -> ::autograd::__private::Reached<(::std::vec::Vec<T>, T, T), 3> + use<T>,
    ) {
        let _ = step::<T>;
        use ::autograd::__private::rules as __ad_rules;
        let __ad_inout_y = y;
        let mut y = __ad_inout_y.to_vec();
        let __ad_v3_first = y[0];
        let __ad_v4 = y.len();
        let mut __ad_c0_y = ::autograd::__private::copy(&y);
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v4)).0,
        );
        for __ad_v6_i in 0..__ad_v4 {
            let __ad_v5_y = __ad_c0_y;
            let __ad_v7 = __ad_v5_y[__ad_v6_i];
            let __ad_v8 = -k;
            let __ad_v9 = __ad_v8 * __ad_v7;
            let __ad_v10 = dt * __ad_v9;
            let __ad_v11 = __ad_v7 + __ad_v10;
            let __ad_v12_y = {
                let mut __ad_a = __ad_v5_y;
                __ad_a[__ad_v6_i] = __ad_v11;
                __ad_a
            };
            __ad_stack0.push(__ad_v7);
            __ad_c0_y = __ad_v12_y;
        }
        let __ad_v13_y = __ad_c0_y;
        __ad_inout_y.copy_from_slice(&__ad_v13_y);
        (
            __ad_v3_first,
            move |__ad_seed: T, __ad_seed_y: ::std::vec::Vec<T>| {
                let mut __ad_d_k = <T as ::autograd::__private::rules::Real>::zero();
                let mut __ad_r_k = false;
                let mut __ad_d_dt = <T as ::autograd::__private::rules::Real>::zero();
                let mut __ad_r_dt = false;
                let __ad_d3_first = __ad_seed;
                let mut __ad_d13_y = __ad_seed_y;
                let mut __ad_dc0_y = __ad_d13_y;
                for __ad_v6_i in ::core::iter::Iterator::rev(0..__ad_v4) {
                    let __ad_v7 = ::autograd::__private::pop(&mut __ad_stack0);
                    let __ad_v8 = -k;
                    let __ad_v9 = __ad_v8 * __ad_v7;
                    let mut __ad_d12_y = __ad_dc0_y;
                    let __ad_d11 = __ad_d12_y[__ad_v6_i];
                    __ad_d12_y[__ad_v6_i] = <T as ::autograd::__private::rules::Real>::zero();
                    let mut __ad_d5_y = __ad_d12_y;
                    let mut __ad_d7 = __ad_rules::add_grad_lhs(__ad_d11);
                    let __ad_d10 = __ad_rules::add_grad_rhs(__ad_d11);
                    __ad_d_dt = __ad_d_dt
                        + (__ad_rules::mul_grad_lhs(__ad_d10, __ad_v9));
                    __ad_r_dt = true;
                    let __ad_d9 = __ad_rules::mul_grad_rhs(__ad_d10, dt);
                    let __ad_d8 = __ad_rules::mul_grad_lhs(__ad_d9, __ad_v7);
                    __ad_d7 = __ad_d7 + (__ad_rules::mul_grad_rhs(__ad_d9, __ad_v8));
                    __ad_d_k = __ad_d_k + (__ad_rules::neg_grad(__ad_d8));
                    __ad_r_k = true;
                    __ad_d5_y[__ad_v6_i] = __ad_d5_y[__ad_v6_i] + (__ad_d7);
                    __ad_dc0_y = __ad_d5_y;
                }
                let mut __ad_d_y = __ad_dc0_y;
                __ad_d_y[0] = __ad_d_y[0] + (__ad_d3_first);
                ::autograd::__private::Reached(
                    (__ad_d_y, __ad_d_k, __ad_d_dt),
                    [true, __ad_r_k, __ad_r_dt],
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, clippy::all)]
    fn __inout_result<'y, T: Float, __AdState0: ::core::convert::AsMut<[T]>>(
        y: __AdState0,
        k: T,
        dt: T,
    ) -> T {
        let mut y = y;
        step(::core::convert::AsMut::as_mut(&mut y), k, dt)
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_result__vjp_full<'y, T: Float, __AdState0: ::core::convert::AsMut<[T]>>(
        y: __AdState0,
        k: T,
        dt: T,
    ) -> (
        T,
        impl ::core::ops::FnOnce(
            T,
        ) -> ::autograd::__private::Reached<(__AdState0, T, T), 3> + use<T, __AdState0>,
    ) {
        let mut y = y;
        let (__ad_value, __ad_pullback) = Self::__vjp_full(
            ::core::convert::AsMut::as_mut(&mut y),
            k,
            dt,
        );
        let __ad_final0 = ::autograd::__private::zeros_like_slice(
            ::core::convert::AsMut::as_mut(&mut y),
        );
        let mut __ad_state0 = y;
        (
            __ad_value,
            move |__ad_seed: T| {
                let ((__ad_d0, __ad_d1, __ad_d2), __ad_reached) = ::autograd::__private::reached(
                    __ad_pullback(__ad_seed, __ad_final0),
                );
                ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .copy_from_slice(&__ad_d0);
                ::autograd::__private::Reached(
                    (__ad_state0, __ad_d1, __ad_d2),
                    __ad_reached,
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline(always)]
    fn __inout_result__same_callee<
        T: Float,
        __AdState0: ::core::convert::AsMut<[T]>,
        __AdCalled: ::core::ops::Fn(__AdState0, T, T) -> T,
        P: ::core::ops::FnOnce(
                T,
            ) -> ::autograd::__private::Reached<(__AdState0, T, T), 3>,
    >(called: &__AdCalled, _: &T, _: &P) {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&Self::__inout_result::<T, __AdState0>),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, clippy::all)]
    fn __inout_call<'y, T: Float, __AdState0: ::core::convert::AsMut<[T]>>(
        y: __AdState0,
        k: T,
        dt: T,
    ) -> __AdState0 {
        let mut y = y;
        let _ = step(::core::convert::AsMut::as_mut(&mut y), k, dt);
        y
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_call__vjp_full<'y, T: Float, __AdState0: ::core::convert::AsMut<[T]>>(
        y: __AdState0,
        k: T,
        dt: T,
    ) -> (
        __AdState0,
        impl ::core::ops::FnOnce(
            __AdState0,
        ) -> ::autograd::__private::Reached<(__AdState0, T, T), 3> + use<T, __AdState0>,
    ) {
        let mut y = y;
        let (__ad_value, __ad_pullback) = Self::__vjp_full(
            ::core::convert::AsMut::as_mut(&mut y),
            k,
            dt,
        );
        (
            y,
            move |__ad_seed: __AdState0| {
                let mut __ad_state0 = __ad_seed;
                let __ad_final0 = ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .to_vec();
                let ((__ad_d0, __ad_d1, __ad_d2), __ad_reached) = ::autograd::__private::reached(
                    __ad_pullback(
                        <T as ::autograd::__private::rules::Real>::zero(),
                        __ad_final0,
                    ),
                );
                ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .copy_from_slice(&__ad_d0);
                ::autograd::__private::Reached(
                    (__ad_state0, __ad_d1, __ad_d2),
                    __ad_reached,
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline(always)]
    fn __inout_call__same_callee<
        T: Float,
        __AdState0: ::core::convert::AsMut<[T]>,
        __AdCalled: ::core::ops::Fn(__AdState0, T, T) -> __AdState0,
        P: ::core::ops::FnOnce(
                __AdState0,
            ) -> ::autograd::__private::Reached<(__AdState0, T, T), 3>,
    >(called: &__AdCalled, _: &__AdState0, _: &P) {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&Self::__inout_call::<T, __AdState0>),
        )
    }
}
/** The value of [`step`] and its pullback. The arguments are left as `step` leaves them (the in-out arguments `y` hold their final values). The pullback takes the adjoint of the result, then one seed for the final value of each in-out argument, in argument order, and returns the adjoints of the differentiable arguments' values on entry, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `step` returns.*/
#[inline]
fn step_vjp<'y, T: Float>(
    y: &'y mut [T],
    k: T,
    dt: T,
) -> (
    T,
    impl ::core::ops::FnOnce(
        T,
        ::std::vec::Vec<T>,
    ) -> (::std::vec::Vec<T>, T, T) + use<T>,
) {
    let (__ad_value, __ad_pullback) = step::__vjp_full(&mut *y, k, dt);
    (
        __ad_value,
        move |__ad_seed: T, __ad_seed_y: ::std::vec::Vec<T>| {
            let (__ad_d_y, __ad_d_k, __ad_d_dt) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed, __ad_seed_y),
            );
            (__ad_d_y, __ad_d_k, __ad_d_dt)
        },
    )
}
/** The value of [`step`] followed by its gradient: one adjoint per differentiable argument, of its value on entry, in argument order. The arguments are left as `step` leaves them.

 Generated by `#[differentiable]`: `step_vjp` with seed 1 for the result and 0 for the in-out arguments' final values.*/
#[inline]
fn step_grad<'y, T: Float>(
    y: &'y mut [T],
    k: T,
    dt: T,
) -> (T, ::std::vec::Vec<T>, T, T) {
    let __ad_seed_y = ::autograd::__private::zeros_like_slice(&*y);
    let (__ad_value, __ad_pullback) = step::__vjp_full(&mut *y, k, dt);
    let (__ad_d_y, __ad_d_k, __ad_d_dt) = ::autograd::__private::adjoints(
        __ad_pullback(<T as ::autograd::__private::rules::Real>::one(), __ad_seed_y),
    );
    (__ad_value, __ad_d_y, __ad_d_k, __ad_d_dt)
}
/** The value of [`step`], its gradient added into one buffer per differentiable argument (`d_x += ∂step/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn step_grad_acc<'y, T: Float>(
    y: &'y mut [T],
    k: T,
    dt: T,
    d_y: &mut [T],
    d_k: &mut T,
    d_dt: &mut T,
) -> T {
    let (__ad_value, __ad_d_y, __ad_d_k, __ad_d_dt) = step_grad(&mut *y, k, dt);
    ::autograd::__private::accumulate(d_y, __ad_d_y);
    ::autograd::__private::accumulate_scalar(d_k, __ad_d_k);
    ::autograd::__private::accumulate_scalar(d_dt, __ad_d_dt);
    __ad_value
}
/** Compares [`step_grad`] at this point with central finite differences of [`step`] (each run on copies of the in-out arguments' values on entry), component by component. The arguments are left as `step` leaves them.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn step_check<'y, T: Float>(y: &'y mut [T], k: T, dt: T) -> ::autograd::GradientCheck {
    let __ad_entry0 = y.to_vec();
    let (__ad_value, __ad_d_y, __ad_d_k, __ad_d_dt) = step_grad(&mut *y, k, dt);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("y", &__ad_entry0, &__ad_d_y, |y| step(&mut y.to_vec(), k, dt));
    __ad_check
        .scalar(
            "k",
            k,
            __ad_d_k,
            |k| step(&mut ::core::clone::Clone::clone(&__ad_entry0), k, dt),
        );
    __ad_check
        .scalar(
            "dt",
            dt,
            __ad_d_dt,
            |dt| step(&mut ::core::clone::Clone::clone(&__ad_entry0), k, dt),
        );
    __ad_check
}
#[doc(hidden)]
impl step {
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    fn __jvp_full<'y, T: Float>(
        y: &'y mut [T],
        k: T,
        dt: T,
        __ad_t_y: &[T],
        __ad_t_k: T,
        __ad_t_dt: T,
    ) -> (T, T, ::std::vec::Vec<T>) {
        use ::autograd::__private::rules as __ad_rules;
        let __ad_inout_y = y;
        let mut y = __ad_inout_y.to_vec();
        let __ad_v3_first = y[0];
        let __ad_t3_first = __ad_t_y[0];
        let __ad_v4 = y.len();
        let mut __ad_c0_y = ::autograd::__private::copy(&y);
        let mut __ad_tc0_y = ::std::borrow::ToOwned::to_owned(__ad_t_y);
        for __ad_v6_i in 0..__ad_v4 {
            let __ad_v5_y = __ad_c0_y;
            let __ad_t5_y = __ad_tc0_y;
            let __ad_v7 = __ad_v5_y[__ad_v6_i];
            let __ad_t7 = __ad_t5_y[__ad_v6_i];
            let __ad_v8 = -k;
            let __ad_t8 = __ad_rules::neg_tangent(__ad_t_k);
            let __ad_v9 = __ad_v8 * __ad_v7;
            let __ad_t9 = __ad_rules::mul_tangent(__ad_t8, __ad_t7, __ad_v8, __ad_v7);
            let __ad_v10 = dt * __ad_v9;
            let __ad_t10 = __ad_rules::mul_tangent(__ad_t_dt, __ad_t9, dt, __ad_v9);
            let __ad_v11 = __ad_v7 + __ad_v10;
            let __ad_t11 = __ad_rules::add_tangent(__ad_t7, __ad_t10);
            let __ad_v12_y = {
                let mut __ad_a = __ad_v5_y;
                __ad_a[__ad_v6_i] = __ad_v11;
                __ad_a
            };
            let __ad_t12_y = {
                let mut __ad_a = __ad_t5_y;
                __ad_a[__ad_v6_i] = __ad_t11;
                __ad_a
            };
            __ad_tc0_y = __ad_t12_y;
            __ad_c0_y = __ad_v12_y;
        }
        let __ad_v13_y = __ad_c0_y;
        let __ad_t13_y = __ad_tc0_y;
        __ad_inout_y.copy_from_slice(&__ad_v13_y);
        let __ad_tr = __ad_t3_first;
        (__ad_v3_first, __ad_tr, __ad_t13_y)
    }
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
#[allow(clippy::type_complexity)]
impl<T: Float> ::autograd::__private::ForwardMode<T> for step {
    type Fn = for<'y> fn(&'y mut [T], T, T, &[T], T, T) -> (T, T, ::std::vec::Vec<T>);
    const JVP: Self::Fn = step::__jvp_full;
    type Lanes = ::autograd::__private::NoLanes;
    const JVP_LANES: Self::Lanes = ::autograd::__private::NoLanes;
}
/** The value of [`step`] and its directional derivative: one tangent per differentiable argument, in argument order, gives the result's tangent `J·ẋ` in one forward sweep. An in-out argument's tangent is that of its value on entry; the arguments are left as the function leaves them, and the tangents of the in-out arguments' final values follow the result's, in argument order (a function returning `()` has no result tangent).

 Generated by `#[differentiable(jvp)]`; the value is bit for bit what `step` returns.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn step_jvp<'y, T: Float>(
    y: &'y mut [T],
    k: T,
    dt: T,
    d_y: &[T],
    d_k: T,
    d_dt: T,
) -> (T, T, ::std::vec::Vec<T>) {
    let _ = step::<T>;
    step::__jvp_full(y, k, dt, d_y, d_k, d_dt)
}
#[doc(hidden)]
impl step {
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_result__jvp_full<
        'y,
        T: Float,
        __AdState0: ::core::convert::AsMut<[T]> + ::core::clone::Clone,
    >(y: __AdState0, k: T, dt: T, __ad_t0: &[T], __ad_t1: T, __ad_t2: T) -> (T, T) {
        let mut y = y;
        let (__ad_value, __ad_tangent, __ad_final0) = Self::__jvp_full(
            ::core::convert::AsMut::as_mut(&mut y),
            k,
            dt,
            __ad_t0,
            __ad_t1,
            __ad_t2,
        );
        (__ad_value, __ad_tangent)
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_call__jvp_full<
        'y,
        T: Float,
        __AdState0: ::core::convert::AsMut<[T]> + ::core::clone::Clone,
    >(
        y: __AdState0,
        k: T,
        dt: T,
        __ad_t0: &[T],
        __ad_t1: T,
        __ad_t2: T,
    ) -> (__AdState0, __AdState0) {
        let mut y = y;
        let (__ad_value, __ad_tangent, __ad_final0) = Self::__jvp_full(
            ::core::convert::AsMut::as_mut(&mut y),
            k,
            dt,
            __ad_t0,
            __ad_t1,
            __ad_t2,
        );
        let mut __ad_final = ::core::clone::Clone::clone(&y);
        ::core::convert::AsMut::as_mut(&mut __ad_final).copy_from_slice(&__ad_final0);
        (y, __ad_final)
    }
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
#[allow(clippy::type_complexity)]
impl<
    __AdState0: ::core::convert::AsMut<[T]> + ::core::clone::Clone,
    T: Float,
> ::autograd::__private::ForwardInOut<
    ::autograd::__private::InOutResult,
    (__AdState0,),
    (T,),
> for step {
    type Fn = for<'y> fn(__AdState0, T, T, &[T], T, T) -> (T, T);
    const JVP: Self::Fn = step::__inout_result__jvp_full;
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
#[allow(clippy::type_complexity)]
impl<
    __AdState0: ::core::convert::AsMut<[T]> + ::core::clone::Clone,
    T: Float,
> ::autograd::__private::ForwardInOut<
    ::autograd::__private::InOutCall<0>,
    (__AdState0,),
    (T,),
> for step {
    type Fn = for<'y> fn(__AdState0, T, T, &[T], T, T) -> (__AdState0, __AdState0);
    const JVP: Self::Fn = step::__inout_call__jvp_full;
}
