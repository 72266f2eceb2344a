fn symplectic(q: &mut [f64], p: &mut [f64], dt: f64) {
    for i in 0..q.len() {
        p[i] -= dt * q[i];
        q[i] += dt * p[i];
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct symplectic {}
#[doc(hidden)]
impl symplectic {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["q", "p", "dt"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&symplectic),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full<'q, 'p>(
        q: &'q mut [f64],
        p: &'p mut [f64],
        dt: f64,
    ) -> (
        (),
        impl ::core::ops::FnOnce(
            (),
            ::std::vec::Vec<f64>,
            ::std::vec::Vec<f64>,
        ) -> ::autograd::__private::Reached<
                (::std::vec::Vec<f64>, ::std::vec::Vec<f64>, f64),
                3,
            > + use<>,
    ) {
        let _ = symplectic;
        use ::autograd::__private::rules as __ad_rules;
        let __ad_inout_q = q;
        let mut q = __ad_inout_q.to_vec();
        let __ad_inout_p = p;
        let mut p = __ad_inout_p.to_vec();
        let __ad_v3 = q.len();
        let mut __ad_c0_q = ::autograd::__private::copy(&q);
        let mut __ad_c0_p = ::autograd::__private::copy(&p);
        let mut __ad_stack0 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v3)).0,
        );
        for __ad_v6_i in 0..__ad_v3 {
            let __ad_v4_q = __ad_c0_q;
            let __ad_v5_p = __ad_c0_p;
            let __ad_v7 = __ad_v4_q[__ad_v6_i];
            let __ad_v8 = dt * __ad_v7;
            let __ad_v9 = __ad_v5_p[__ad_v6_i];
            let __ad_v10 = __ad_v9 - __ad_v8;
            let __ad_v11_p = {
                let mut __ad_a = __ad_v5_p;
                __ad_a[__ad_v6_i] = __ad_v10;
                __ad_a
            };
            let __ad_v12 = __ad_v11_p[__ad_v6_i];
            let __ad_v13 = dt * __ad_v12;
            let __ad_v14 = __ad_v4_q[__ad_v6_i];
            let __ad_v15 = __ad_v14 + __ad_v13;
            let __ad_v16_q = {
                let mut __ad_a = __ad_v4_q;
                __ad_a[__ad_v6_i] = __ad_v15;
                __ad_a
            };
            __ad_stack0.push((__ad_v7, __ad_v12));
            __ad_c0_q = __ad_v16_q;
            __ad_c0_p = __ad_v11_p;
        }
        let __ad_v17_q = __ad_c0_q;
        let __ad_v18_p = __ad_c0_p;
        __ad_inout_q.copy_from_slice(&__ad_v17_q);
        __ad_inout_p.copy_from_slice(&__ad_v18_p);
        (
            (),
            move |
                __ad_seed: (),
                __ad_seed_q: ::std::vec::Vec<f64>,
                __ad_seed_p: ::std::vec::Vec<f64>|
            {
                let mut __ad_d_dt = 0.0;
                let mut __ad_r_dt = false;
                let mut __ad_d17_q = __ad_seed_q;
                let mut __ad_d18_p = __ad_seed_p;
                let mut __ad_dc0_q = __ad_d17_q;
                let mut __ad_dc0_p = __ad_d18_p;
                for __ad_v6_i in ::core::iter::Iterator::rev(0..__ad_v3) {
                    let (__ad_v7, __ad_v12) = ::autograd::__private::pop(
                        &mut __ad_stack0,
                    );
                    let mut __ad_d16_q = __ad_dc0_q;
                    let mut __ad_d11_p = __ad_dc0_p;
                    let __ad_d15 = __ad_d16_q[__ad_v6_i];
                    __ad_d16_q[__ad_v6_i] = 0.0;
                    let mut __ad_d4_q = __ad_d16_q;
                    let __ad_d14 = __ad_rules::add_grad_lhs(__ad_d15);
                    let __ad_d13 = __ad_rules::add_grad_rhs(__ad_d15);
                    __ad_d4_q[__ad_v6_i] += __ad_d14;
                    __ad_d_dt += __ad_rules::mul_grad_lhs(__ad_d13, __ad_v12);
                    __ad_r_dt = true;
                    let __ad_d12 = __ad_rules::mul_grad_rhs(__ad_d13, dt);
                    __ad_d11_p[__ad_v6_i] += __ad_d12;
                    let __ad_d10 = __ad_d11_p[__ad_v6_i];
                    __ad_d11_p[__ad_v6_i] = 0.0;
                    let mut __ad_d5_p = __ad_d11_p;
                    let __ad_d9 = __ad_rules::sub_grad_lhs(__ad_d10);
                    let __ad_d8 = __ad_rules::sub_grad_rhs(__ad_d10);
                    __ad_d5_p[__ad_v6_i] += __ad_d9;
                    __ad_d_dt += __ad_rules::mul_grad_lhs(__ad_d8, __ad_v7);
                    __ad_r_dt = true;
                    let __ad_d7 = __ad_rules::mul_grad_rhs(__ad_d8, dt);
                    __ad_d4_q[__ad_v6_i] += __ad_d7;
                    __ad_dc0_q = __ad_d4_q;
                    __ad_dc0_p = __ad_d5_p;
                }
                let mut __ad_d_q = __ad_dc0_q;
                let mut __ad_d_p = __ad_dc0_p;
                ::autograd::__private::Reached(
                    (__ad_d_q, __ad_d_p, __ad_d_dt),
                    [true, true, __ad_r_dt],
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, clippy::all)]
    fn __inout_call<
        'q,
        'p,
        __AdState0: ::core::convert::AsMut<[f64]>,
        __AdState1: ::core::convert::AsMut<[f64]>,
    >(q: __AdState0, p: __AdState1, dt: f64) -> __AdState0 {
        let mut q = q;
        let mut p = p;
        let _ = symplectic(
            ::core::convert::AsMut::as_mut(&mut q),
            ::core::convert::AsMut::as_mut(&mut p),
            dt,
        );
        q
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_call__vjp_full<
        'q,
        'p,
        __AdState0: ::core::convert::AsMut<[f64]>,
        __AdState1: ::core::convert::AsMut<[f64]>,
    >(
        q: __AdState0,
        p: __AdState1,
        dt: f64,
    ) -> (
        __AdState0,
        impl ::core::ops::FnOnce(
            __AdState0,
        ) -> ::autograd::__private::Reached<
                (__AdState0, __AdState1, f64),
                3,
            > + use<__AdState0, __AdState1>,
    ) {
        let mut q = q;
        let mut p = p;
        let (__ad_value, __ad_pullback) = Self::__vjp_full(
            ::core::convert::AsMut::as_mut(&mut q),
            ::core::convert::AsMut::as_mut(&mut p),
            dt,
        );
        let __ad_final1 = ::autograd::__private::zeros_like_slice(
            ::core::convert::AsMut::as_mut(&mut p),
        );
        let mut __ad_state1 = p;
        (
            q,
            move |__ad_seed: __AdState0| {
                let mut __ad_state0 = __ad_seed;
                let __ad_final0 = ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .to_vec();
                let ((__ad_d0, __ad_d1, __ad_d2), __ad_reached) = ::autograd::__private::reached(
                    __ad_pullback((), __ad_final0, __ad_final1),
                );
                ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .copy_from_slice(&__ad_d0);
                ::core::convert::AsMut::as_mut(&mut __ad_state1)
                    .copy_from_slice(&__ad_d1);
                ::autograd::__private::Reached(
                    (__ad_state0, __ad_state1, __ad_d2),
                    __ad_reached,
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline(always)]
    fn __inout_call__same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P)
    where
        F: ::core::ops::Fn(
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
            f64,
        ) -> ::autograd::__private::Vec<f64>,
    {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(
                &Self::__inout_call::<
                    ::autograd::__private::Vec<f64>,
                    ::autograd::__private::Vec<f64>,
                >,
            ),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, clippy::all)]
    fn __inout_call_1<
        'q,
        'p,
        __AdState0: ::core::convert::AsMut<[f64]>,
        __AdState1: ::core::convert::AsMut<[f64]>,
    >(q: __AdState0, p: __AdState1, dt: f64) -> __AdState1 {
        let mut q = q;
        let mut p = p;
        let _ = symplectic(
            ::core::convert::AsMut::as_mut(&mut q),
            ::core::convert::AsMut::as_mut(&mut p),
            dt,
        );
        p
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_mut, unused_variables, clippy::all)]
    fn __inout_call_1__vjp_full<
        'q,
        'p,
        __AdState0: ::core::convert::AsMut<[f64]>,
        __AdState1: ::core::convert::AsMut<[f64]>,
    >(
        q: __AdState0,
        p: __AdState1,
        dt: f64,
    ) -> (
        __AdState1,
        impl ::core::ops::FnOnce(
            __AdState1,
        ) -> ::autograd::__private::Reached<
                (__AdState0, __AdState1, f64),
                3,
            > + use<__AdState0, __AdState1>,
    ) {
        let mut q = q;
        let mut p = p;
        let (__ad_value, __ad_pullback) = Self::__vjp_full(
            ::core::convert::AsMut::as_mut(&mut q),
            ::core::convert::AsMut::as_mut(&mut p),
            dt,
        );
        let __ad_final0 = ::autograd::__private::zeros_like_slice(
            ::core::convert::AsMut::as_mut(&mut q),
        );
        let mut __ad_state0 = q;
        (
            p,
            move |__ad_seed: __AdState1| {
                let mut __ad_state1 = __ad_seed;
                let __ad_final1 = ::core::convert::AsMut::as_mut(&mut __ad_state1)
                    .to_vec();
                let ((__ad_d0, __ad_d1, __ad_d2), __ad_reached) = ::autograd::__private::reached(
                    __ad_pullback((), __ad_final0, __ad_final1),
                );
                ::core::convert::AsMut::as_mut(&mut __ad_state0)
                    .copy_from_slice(&__ad_d0);
                ::core::convert::AsMut::as_mut(&mut __ad_state1)
                    .copy_from_slice(&__ad_d1);
                ::autograd::__private::Reached(
                    (__ad_state0, __ad_state1, __ad_d2),
                    __ad_reached,
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline(always)]
    fn __inout_call_1__same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P)
    where
        F: ::core::ops::Fn(
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
            f64,
        ) -> ::autograd::__private::Vec<f64>,
    {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(
                &Self::__inout_call_1::<
                    ::autograd::__private::Vec<f64>,
                    ::autograd::__private::Vec<f64>,
                >,
            ),
        )
    }
}
/** The value of [`symplectic`] and its pullback. The arguments are left as `symplectic` leaves them (the in-out arguments `q`, `p` hold their final values). The pullback takes one seed for the final value of each in-out argument, in argument order, and returns the adjoints of the differentiable arguments' values on entry, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `symplectic` returns.*/
#[inline]
fn symplectic_vjp<'q, 'p>(
    q: &'q mut [f64],
    p: &'p mut [f64],
    dt: f64,
) -> (
    (),
    impl ::core::ops::FnOnce(
        ::std::vec::Vec<f64>,
        ::std::vec::Vec<f64>,
    ) -> (::std::vec::Vec<f64>, ::std::vec::Vec<f64>, f64) + use<>,
) {
    let (__ad_value, __ad_pullback) = symplectic::__vjp_full(&mut *q, &mut *p, dt);
    (
        __ad_value,
        move |__ad_seed_q: ::std::vec::Vec<f64>, __ad_seed_p: ::std::vec::Vec<f64>| {
            let (__ad_d_q, __ad_d_p, __ad_d_dt) = ::autograd::__private::adjoints(
                __ad_pullback((), __ad_seed_q, __ad_seed_p),
            );
            (__ad_d_q, __ad_d_p, __ad_d_dt)
        },
    )
}
