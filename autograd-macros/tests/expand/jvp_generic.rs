fn weighted<T>(x: T, w: &[T], c: T) -> T
where
    T: num_traits::Float,
{
    let mut s = T::zero();
    for i in 0..w.len() {
        s = s + w[i] * x.sin() + c;
    }
    logistic::<T>(s, c) * logistic(x, T::one())
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct weighted {}
#[doc(hidden)]
impl weighted {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "w", "c"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<T, Called: ::core::ops::Fn(T, &[T], T) -> T, Pullback>(
        called: &Called,
        _: &T,
        _: &Pullback,
    )
    where
        T: num_traits::Float,
    {
        ::autograd::__private::same_generic_function(
            called,
            ::core::any::type_name_of_val(&weighted::<T>),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'w, T>(
        x: T,
        w: &'w [T],
        c: T,
        __ad_b_x: &mut T,
        __ad_b_w: &mut [T],
        __ad_seed: T,
    ) -> (T, [bool; 3])
    where
        T: num_traits::Float,
    {
        let _ = weighted::<T>;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_w, w.len());
        let __ad_v3_s = (T::zero());
        let __ad_v4 = w.len();
        let mut __ad_c0_s = __ad_v3_s;
        for __ad_v6_i in 0..__ad_v4 {
            let __ad_v5_s = __ad_c0_s;
            let __ad_v7 = w[__ad_v6_i];
            let __ad_v8 = x.sin();
            let __ad_v9 = __ad_v7 * __ad_v8;
            let __ad_v10 = __ad_v5_s + __ad_v9;
            let __ad_v11_s = __ad_v10 + c;
            __ad_c0_s = __ad_v11_s;
        }
        let __ad_v12_s = __ad_c0_s;
        let (__ad_v13, __ad_pb13) = logistic::__vjp_full::<T>(__ad_v12_s, c);
        logistic::__same_callee(&logistic::<T>, &__ad_v13, &__ad_pb13);
        let (__ad_v14, __ad_pb14) = logistic::__vjp_full(x, (T::one()));
        logistic::__same_callee(&logistic, &__ad_v14, &__ad_pb14);
        let __ad_v15 = __ad_v13 * __ad_v14;
        let __ad_result = __ad_v15;
        let mut __ad_d_w = __ad_b_w;
        let mut __ad_d_x = <T as ::autograd::__private::rules::Real>::zero();
        let mut __ad_r_x = false;
        let mut __ad_d12_s = <T as ::autograd::__private::rules::Real>::zero();
        let mut __ad_r12_s = false;
        let __ad_d15 = __ad_seed;
        let __ad_d13 = __ad_rules::mul_grad_lhs(__ad_d15, __ad_v14);
        let __ad_d14 = __ad_rules::mul_grad_rhs(__ad_d15, __ad_v13);
        let ((__ad_pb14_d0, _), __ad_reached14) = ::autograd::__private::reached(
            __ad_pb14(__ad_d14),
        );
        let __ad_pb14_d0 = (__ad_pb14_d0);
        ::autograd::__private::accumulate_scalar(&mut __ad_d_x, __ad_pb14_d0);
        __ad_r_x |= __ad_reached14[0];
        let ((__ad_pb13_d0, _), __ad_reached13) = ::autograd::__private::reached(
            __ad_pb13(__ad_d13),
        );
        let __ad_pb13_d0 = (__ad_pb13_d0);
        ::autograd::__private::accumulate_scalar(&mut __ad_d12_s, __ad_pb13_d0);
        __ad_r12_s |= __ad_reached13[0];
        let mut __ad_dc0_s = __ad_d12_s;
        let mut __ad_rc0_s = __ad_r12_s;
        for __ad_v6_i in ::core::iter::Iterator::rev(0..__ad_v4) {
            let __ad_v7 = w[__ad_v6_i];
            let __ad_v8 = x.sin();
            let mut __ad_d5_s = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r5_s = false;
            let mut __ad_d7 = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r7 = false;
            let mut __ad_d8 = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r8 = false;
            let mut __ad_d9 = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r9 = false;
            let mut __ad_d10 = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r10 = false;
            let mut __ad_d11_s = <T as ::autograd::__private::rules::Real>::zero();
            let mut __ad_r11_s = false;
            __ad_d11_s = __ad_d11_s + (__ad_dc0_s);
            __ad_r11_s |= __ad_rc0_s;
            if __ad_r11_s {
                __ad_d10 = __ad_d10 + (__ad_rules::add_grad_lhs(__ad_d11_s));
                __ad_r10 = true;
            }
            if __ad_r10 {
                __ad_d5_s = __ad_d5_s + (__ad_rules::add_grad_lhs(__ad_d10));
                __ad_r5_s = true;
                __ad_d9 = __ad_d9 + (__ad_rules::add_grad_rhs(__ad_d10));
                __ad_r9 = true;
            }
            if __ad_r9 {
                __ad_d7 = __ad_d7 + (__ad_rules::mul_grad_lhs(__ad_d9, __ad_v8));
                __ad_r7 = true;
                __ad_d8 = __ad_d8 + (__ad_rules::mul_grad_rhs(__ad_d9, __ad_v7));
                __ad_r8 = true;
            }
            if __ad_r8 {
                __ad_d_x = __ad_d_x + (__ad_rules::sin_grad(__ad_d8, x));
                __ad_r_x = true;
            }
            if __ad_r7 {
                __ad_d_w[__ad_v6_i] = __ad_d_w[__ad_v6_i] + (__ad_d7);
            }
            __ad_dc0_s = __ad_d5_s;
            __ad_rc0_s = __ad_r5_s;
        }
        *__ad_b_x = *__ad_b_x + (__ad_d_x);
        (__ad_result, [__ad_r_x, true, true])
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'w, T>(
        x: T,
        w: &'w [T],
        c: T,
    ) -> (
        T,
        impl ::core::ops::FnOnce(
            T,
        ) -> ::autograd::__private::Reached<
                (T, ::autograd::__private::Vec<T>, ::autograd::__private::NoGradient),
                3,
            > + use<'w, T>,
    )
    where
        T: num_traits::Float,
    {
        ::autograd::__private::vjp_by_acc_reached(
            (
                <T as ::autograd::__private::rules::Real>::zero(),
                ::autograd::__private::zeros_like_slice(w),
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| weighted::__grad_acc_full(
                x,
                w,
                c,
                &mut __ad_b.0,
                &mut __ad_b.1,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`weighted`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `weighted` returns.*/
#[inline]
fn weighted_vjp<'w, T>(
    x: T,
    w: &'w [T],
    c: T,
) -> (T, impl ::core::ops::FnOnce(T) -> (T, ::autograd::__private::Vec<T>) + use<'w, T>)
where
    T: num_traits::Float,
{
    let (__ad_value, __ad_pullback) = weighted::__vjp_full(x, w, c);
    ((
        __ad_value,
        move |__ad_seed: T| {
            let (__ad_d_x, __ad_d_w, _) = ::autograd::__private::adjoints(
                __ad_pullback(__ad_seed),
            );
            (__ad_d_x, __ad_d_w)
        },
    ))
}
/** The value of [`weighted`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `weighted_vjp` with seed 1.*/
#[inline]
fn weighted_grad<'w, T>(x: T, w: &'w [T], c: T) -> (T, T, ::autograd::__private::Vec<T>)
where
    T: num_traits::Float,
{
    let (__ad_value, __ad_pullback) = weighted::__vjp_full(x, w, c);
    let (__ad_d_x, __ad_d_w, _) = ::autograd::__private::adjoints(
        __ad_pullback(<T as ::autograd::__private::rules::Real>::one()),
    );
    ((__ad_value, __ad_d_x, __ad_d_w))
}
/** The value of [`weighted`], its gradient added into one buffer per differentiable argument (`d_x += ∂weighted/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn weighted_grad_acc<'w, T>(x: T, w: &'w [T], c: T, d_x: &mut T, d_w: &mut [T]) -> T
where
    T: num_traits::Float,
{
    weighted::__grad_acc_full(
            x,
            w,
            c,
            d_x,
            d_w,
            <T as ::autograd::__private::rules::Real>::one(),
        )
        .0
}
/** Compares [`weighted_grad`] at this point with central finite differences of [`weighted`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn weighted_check<'w, T>(x: T, w: &'w [T], c: T) -> ::autograd::GradientCheck
where
    T: num_traits::Float,
{
    let (__ad_value, __ad_d_x, __ad_d_w) = weighted_grad(x, w, c);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.scalar("x", x, __ad_d_x, |x| weighted(x, w, c));
    __ad_check.slice("w", w, &__ad_d_w, |w| weighted(x, w, c));
    __ad_check
}
#[doc(hidden)]
impl weighted {
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    fn __jvp_full<'w, T>(
        x: T,
        w: &'w [T],
        c: T,
        __ad_t_x: T,
        __ad_t_w: &[T],
        __ad_t_c: ::autograd::__private::NoGradient,
    ) -> (T, T)
    where
        T: num_traits::Float,
    {
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::slice_tangent(w.len(), __ad_t_w);
        let __ad_v3_s = (T::zero());
        let __ad_v4 = w.len();
        let mut __ad_c0_s = __ad_v3_s;
        let mut __ad_tc0_s = <T as ::autograd::__private::rules::Real>::zero();
        for __ad_v6_i in 0..__ad_v4 {
            let __ad_v5_s = __ad_c0_s;
            let __ad_t5_s = __ad_tc0_s;
            let __ad_v7 = w[__ad_v6_i];
            let __ad_t7 = __ad_t_w[__ad_v6_i];
            let __ad_v8 = x.sin();
            let __ad_t8 = __ad_rules::sin_tangent(__ad_t_x, x);
            let __ad_v9 = __ad_v7 * __ad_v8;
            let __ad_t9 = __ad_rules::mul_tangent(__ad_t7, __ad_t8, __ad_v7, __ad_v8);
            let __ad_v10 = __ad_v5_s + __ad_v9;
            let __ad_t10 = __ad_rules::add_tangent(__ad_t5_s, __ad_t9);
            let __ad_v11_s = __ad_v10 + c;
            let __ad_t11_s = __ad_rules::add_grad_lhs(__ad_t10);
            __ad_tc0_s = __ad_t11_s;
            __ad_c0_s = __ad_v11_s;
        }
        let __ad_v12_s = __ad_c0_s;
        let __ad_t12_s = __ad_tc0_s;
        let (__ad_v13, __ad_t13) = (<logistic as ::autograd::__private::ForwardMode<
            _,
            _,
        >>::JVP)(
            __ad_v12_s,
            c,
            ::autograd::__private::into_tangent(
                ::autograd::__private::ScalarTangent(__ad_t12_s),
            ),
            ::autograd::__private::into_tangent(::autograd::__private::ZeroTangent),
        );
        let (__ad_v14, __ad_t14) = (<logistic as ::autograd::__private::ForwardMode<
            _,
            _,
        >>::JVP)(
            x,
            (T::one()),
            ::autograd::__private::into_tangent(
                ::autograd::__private::ScalarTangent(__ad_t_x),
            ),
            ::autograd::__private::into_tangent(::autograd::__private::ZeroTangent),
        );
        let __ad_v15 = __ad_v13 * __ad_v14;
        let __ad_t15 = __ad_rules::mul_tangent(__ad_t13, __ad_t14, __ad_v13, __ad_v14);
        let __ad_tr = __ad_t15;
        (__ad_v15, __ad_tr)
    }
}
#[doc(hidden)]
impl weighted {
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    fn __jvp_lanes<'w, T>(
        x: T,
        w: &'w [T],
        c: T,
        __ad_t_x: ::autograd::__private::NoGradient,
        __ad_t_w: ::autograd::__private::NoGradient,
        __ad_t_c: ::autograd::__private::NoGradient,
    ) -> ::core::option::Option<
        (T, ::autograd::__private::Lanes<T, { ::autograd::__private::LANES }>),
    >
    where
        T: num_traits::Float,
    {
        ::core::option::Option::None
    }
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
#[allow(clippy::type_complexity)]
impl<T> ::autograd::__private::ForwardMode<T> for weighted
where
    T: num_traits::Float,
{
    type Fn = for<'w> fn(
        T,
        &'w [T],
        T,
        T,
        &[T],
        ::autograd::__private::NoGradient,
    ) -> (T, T);
    const JVP: Self::Fn = weighted::__jvp_full;
    type Lanes = for<'w> fn(
        T,
        &'w [T],
        T,
        ::autograd::__private::NoGradient,
        ::autograd::__private::NoGradient,
        ::autograd::__private::NoGradient,
    ) -> ::core::option::Option<
        (T, ::autograd::__private::Lanes<T, { ::autograd::__private::LANES }>),
    >;
    const JVP_LANES: Self::Lanes = weighted::__jvp_lanes;
}
/** The value of [`weighted`] and its directional derivative: one tangent per differentiable argument, in argument order, gives the result's tangent `J·ẋ` in one forward sweep.

 Generated by `#[differentiable(jvp)]`; the value is bit for bit what `weighted` returns.

 # Panics

 If a slice's tangent has another length than the slice.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn weighted_jvp<'w, T>(x: T, w: &'w [T], c: T, d_x: T, d_w: &[T]) -> (T, T)
where
    T: num_traits::Float,
{
    let _ = weighted::<T>;
    weighted::__jvp_full(x, w, c, d_x, d_w, ::autograd::__private::NoGradient)
}
