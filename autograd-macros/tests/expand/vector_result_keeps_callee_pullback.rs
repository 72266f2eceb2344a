fn reproj(cam: &[f64], x: &[f64], w: f64) -> [f64; 2] {
    let p = project(cam, x);
    let q = [p[0] * w, p[1] * w];
    let r = scale(&q, &cam[0..2]);
    [r[0] + q[0], r[1]]
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct reproj {}
#[doc(hidden)]
impl reproj {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["cam", "x", "w"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&reproj),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __vjp_full<'cam, 'x>(
        cam: &'cam [f64],
        x: &'x [f64],
        w: f64,
    ) -> (
        [f64; 2],
        impl ::core::ops::FnOnce(
            [f64; 2],
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::Vec<f64>,
                f64,
            ) + ::core::clone::Clone + use<'cam, 'x>,
    ) {
        let _ = reproj;
        use ::autograd::__private::rules as __ad_rules;
        let (__ad_v3_p, __ad_pb3) = {
            #[allow(unused_imports)]
            use ::autograd::__private::{KeepCloned as _, KeepRerun as _};
            let __ad_keep_vjp = || {
                let (__ad_callee_value, __ad_pb3) = project::__vjp_full(cam, x);
                project::__same_callee(&project, &__ad_callee_value, &__ad_pb3);
                (__ad_callee_value, __ad_pb3)
            };
            ::autograd::__private::KeepPullback::of(&__ad_keep_vjp)
                .make(__ad_keep_vjp, || project(cam, x))
        };
        let __ad_v4 = __ad_v3_p[0];
        let __ad_v5 = __ad_v4 * w;
        let __ad_v6 = __ad_v3_p[1];
        let __ad_v7 = __ad_v6 * w;
        let __ad_v8_q = [__ad_v5, __ad_v7];
        let __ad_v9_r = scale(&__ad_v8_q, &cam[0..2]);
        let __ad_v10 = __ad_v9_r[0];
        let __ad_v11 = __ad_v8_q[0];
        let __ad_v12 = __ad_v10 + __ad_v11;
        let __ad_v13 = __ad_v9_r[1];
        let __ad_v14 = [__ad_v12, __ad_v13];
        (
            __ad_v14,
            move |__ad_seed: [f64; 2]| {
                let mut __ad_d_cam = ::autograd::__private::zeros_like_slice(cam);
                let mut __ad_d8_q = ::autograd::__private::zero_like(&__ad_v8_q);
                let mut __ad_d14 = __ad_seed;
                let __ad_d12 = __ad_d14[0usize];
                let __ad_d13 = __ad_d14[1usize];
                let mut __ad_d9_r = ::autograd::__private::zero_like(&__ad_v9_r);
                __ad_d9_r[1] += __ad_d13;
                let __ad_d10 = __ad_rules::add_grad_lhs(__ad_d12);
                let __ad_d11 = __ad_rules::add_grad_rhs(__ad_d12);
                __ad_d8_q[0] += __ad_d11;
                __ad_d9_r[0] += __ad_d10;
                let __ad_added9 = {
                    #[allow(unused_imports)]
                    use ::autograd::__private::{
                        AddsIntoCallee as _, AddsIntoPullback as _,
                    };
                    let called = scale;
                    let _ = || called(&__ad_v8_q, &cam[0..2]);
                    let call = ::autograd::__private::AddsIntoCall::<
                        scale,
                        _,
                        _,
                        _,
                    >::new(
                        (&__ad_v8_q[..], &cam[0..2]),
                        &__ad_d9_r,
                        (&mut __ad_d8_q[..], &mut __ad_d_cam[0..2]),
                    );
                    (&call).add_into(&called)
                };
                if !__ad_added9 {
                    let (__ad_callee_value, __ad_pb9) = scale::__vjp_full(
                        &__ad_v8_q,
                        &cam[0..2],
                    );
                    scale::__same_callee(&scale, &__ad_callee_value, &__ad_pb9);
                    let (__ad_pb9_d0, __ad_pb9_d1) = ::autograd::__private::adjoints(
                        __ad_pb9(__ad_d9_r),
                    );
                    let __ad_pb9_d0 = ::autograd::__private::contribution((__ad_pb9_d0));
                    ::autograd::__private::accumulate(&mut __ad_d8_q, __ad_pb9_d0);
                    let __ad_pb9_d1 = ::autograd::__private::contribution((__ad_pb9_d1));
                    ::autograd::__private::accumulate(
                        &mut __ad_d_cam[0..2],
                        __ad_pb9_d1,
                    );
                }
                let __ad_d5 = __ad_d8_q[0usize];
                let __ad_d7 = __ad_d8_q[1usize];
                let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d7, w);
                let mut __ad_d_w = __ad_rules::mul_grad_rhs(__ad_d7, __ad_v6);
                let mut __ad_d3_p = ::autograd::__private::zero_like(&__ad_v3_p);
                __ad_d3_p[1] += __ad_d6;
                let __ad_d4 = __ad_rules::mul_grad_lhs(__ad_d5, w);
                __ad_d_w += __ad_rules::mul_grad_rhs(__ad_d5, __ad_v4);
                __ad_d3_p[0] += __ad_d4;
                let __ad_resolved_pb3 = ::autograd::__private::KeptPullback::pullback(
                    __ad_pb3,
                    || {
                        let (__ad_callee_value, __ad_pb3) = project::__vjp_full(cam, x);
                        project::__same_callee(&project, &__ad_callee_value, &__ad_pb3);
                        __ad_pb3
                    },
                );
                let (__ad_pb3_d0, __ad_pb3_d1) = ::autograd::__private::adjoints(
                    __ad_resolved_pb3(__ad_d3_p),
                );
                let __ad_pb3_d0 = ::autograd::__private::contribution((__ad_pb3_d0));
                ::autograd::__private::accumulate(&mut __ad_d_cam, __ad_pb3_d0);
                let __ad_pb3_d1 = ::autograd::__private::contribution((__ad_pb3_d1));
                let mut __ad_d_x = __ad_pb3_d1;
                (__ad_d_cam, __ad_d_x, __ad_d_w)
            },
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __add_into<'cam, 'x>(
        cam: &'cam [f64],
        x: &'x [f64],
        w: f64,
        __ad_b_cam: &mut [f64],
        __ad_b_x: &mut [f64],
        __ad_b_w: &mut f64,
        __ad_seed: [f64; 2],
    ) -> [f64; 2] {
        let _ = reproj;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_cam, cam.len());
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        let (__ad_v3_p, __ad_pb3) = {
            #[allow(unused_imports)]
            use ::autograd::__private::{KeepCloned as _, KeepRerun as _};
            let __ad_keep_vjp = || {
                let (__ad_callee_value, __ad_pb3) = project::__vjp_full(cam, x);
                project::__same_callee(&project, &__ad_callee_value, &__ad_pb3);
                (__ad_callee_value, __ad_pb3)
            };
            ::autograd::__private::KeepPullback::of(&__ad_keep_vjp)
                .make(__ad_keep_vjp, || project(cam, x))
        };
        let __ad_v4 = __ad_v3_p[0];
        let __ad_v5 = __ad_v4 * w;
        let __ad_v6 = __ad_v3_p[1];
        let __ad_v7 = __ad_v6 * w;
        let __ad_v8_q = [__ad_v5, __ad_v7];
        let __ad_v9_r = scale(&__ad_v8_q, &cam[0..2]);
        let __ad_v10 = __ad_v9_r[0];
        let __ad_v11 = __ad_v8_q[0];
        let __ad_v12 = __ad_v10 + __ad_v11;
        let __ad_v13 = __ad_v9_r[1];
        let __ad_v14 = [__ad_v12, __ad_v13];
        let __ad_result = __ad_v14;
        let mut __ad_d_cam = __ad_b_cam;
        let mut __ad_d_x = __ad_b_x;
        let mut __ad_d8_q = ::autograd::__private::zero_like(&__ad_v8_q);
        let mut __ad_d14 = __ad_seed;
        let __ad_d12 = __ad_d14[0usize];
        let __ad_d13 = __ad_d14[1usize];
        let mut __ad_d9_r = ::autograd::__private::zero_like(&__ad_v9_r);
        __ad_d9_r[1] += __ad_d13;
        let __ad_d10 = __ad_rules::add_grad_lhs(__ad_d12);
        let __ad_d11 = __ad_rules::add_grad_rhs(__ad_d12);
        __ad_d8_q[0] += __ad_d11;
        __ad_d9_r[0] += __ad_d10;
        let __ad_added9 = {
            #[allow(unused_imports)]
            use ::autograd::__private::{AddsIntoCallee as _, AddsIntoPullback as _};
            let called = scale;
            let _ = || called(&__ad_v8_q, &cam[0..2]);
            let call = ::autograd::__private::AddsIntoCall::<
                scale,
                _,
                _,
                _,
            >::new(
                (&__ad_v8_q[..], &cam[0..2]),
                &__ad_d9_r,
                (&mut __ad_d8_q[..], &mut __ad_d_cam[0..2]),
            );
            (&call).add_into(&called)
        };
        if !__ad_added9 {
            let (__ad_callee_value, __ad_pb9) = scale::__vjp_full(
                &__ad_v8_q,
                &cam[0..2],
            );
            scale::__same_callee(&scale, &__ad_callee_value, &__ad_pb9);
            let (__ad_pb9_d0, __ad_pb9_d1) = ::autograd::__private::adjoints(
                __ad_pb9(__ad_d9_r),
            );
            let __ad_pb9_d0 = ::autograd::__private::contribution((__ad_pb9_d0));
            ::autograd::__private::accumulate(&mut __ad_d8_q, __ad_pb9_d0);
            let __ad_pb9_d1 = ::autograd::__private::contribution((__ad_pb9_d1));
            ::autograd::__private::accumulate(&mut __ad_d_cam[0..2], __ad_pb9_d1);
        }
        let __ad_d5 = __ad_d8_q[0usize];
        let __ad_d7 = __ad_d8_q[1usize];
        let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d7, w);
        let mut __ad_d_w = __ad_rules::mul_grad_rhs(__ad_d7, __ad_v6);
        let mut __ad_d3_p = ::autograd::__private::zero_like(&__ad_v3_p);
        __ad_d3_p[1] += __ad_d6;
        let __ad_d4 = __ad_rules::mul_grad_lhs(__ad_d5, w);
        __ad_d_w += __ad_rules::mul_grad_rhs(__ad_d5, __ad_v4);
        __ad_d3_p[0] += __ad_d4;
        let __ad_resolved_pb3 = ::autograd::__private::KeptPullback::pullback(
            __ad_pb3,
            || {
                let (__ad_callee_value, __ad_pb3) = project::__vjp_full(cam, x);
                project::__same_callee(&project, &__ad_callee_value, &__ad_pb3);
                __ad_pb3
            },
        );
        let (__ad_pb3_d0, __ad_pb3_d1) = ::autograd::__private::adjoints(
            __ad_resolved_pb3(__ad_d3_p),
        );
        let __ad_pb3_d0 = ::autograd::__private::contribution((__ad_pb3_d0));
        ::autograd::__private::accumulate(&mut __ad_d_cam, __ad_pb3_d0);
        let __ad_pb3_d1 = ::autograd::__private::contribution((__ad_pb3_d1));
        ::autograd::__private::accumulate(&mut __ad_d_x, __ad_pb3_d1);
        *__ad_b_w += __ad_d_w;
        ::autograd::__private::recycle(__ad_d8_q);
        __ad_result
    }
}
#[doc(hidden)]
impl ::autograd::__private::AddsInto<
    (&[f64], &[f64], f64),
    &[f64; 2],
    (&mut [f64], &mut [f64], &mut f64),
> for reproj {
    #[inline(always)]
    fn add_into<F: 'static>(
        called: &F,
        (cam, x, w): (&[f64], &[f64], f64),
        __ad_seed: &[f64; 2],
        (__ad_b_cam, __ad_b_x, __ad_b_w): (&mut [f64], &mut [f64], &mut f64),
    ) {
        reproj::__same_callee(called, __ad_seed, &());
        reproj::__add_into(cam, x, w, __ad_b_cam, __ad_b_x, __ad_b_w, *__ad_seed);
    }
}
/** The value of [`reproj`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `reproj` returns.*/
#[inline]
fn reproj_vjp<'cam, 'x>(
    cam: &'cam [f64],
    x: &'x [f64],
    w: f64,
) -> (
    [f64; 2],
    impl ::core::ops::FnOnce(
        [f64; 2],
    ) -> (
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
            f64,
        ) + use<'cam, 'x>,
) {
    let (__ad_value, __ad_pullback) = reproj::__vjp_full(cam, x, w);
    let __ad_outputs = ::autograd::__private::Outputs::count(&__ad_value);
    ((
        __ad_value,
        move |__ad_seed: [f64; 2]| {
            ::autograd::__private::check_seed(__ad_outputs, &__ad_seed);
            let (__ad_d_cam, __ad_d_x, __ad_d_w) = __ad_pullback(__ad_seed);
            (__ad_d_cam, __ad_d_x, __ad_d_w)
        },
    ))
}
/** The value of [`reproj`] and its Jacobian: one row per output (in order), one column per entry of the flattened differentiable arguments (in argument order; a scalar is one entry, a slice, array or `Vec` its elements, a matrix its entries in column-major order).

 Generated by `#[differentiable]`: one forward sweep, then one reverse sweep per output. `reproj_jacobian_acc` adds the same matrix into a caller's.*/
#[inline]
fn reproj_jacobian<'cam, 'x>(
    cam: &'cam [f64],
    x: &'x [f64],
    w: f64,
) -> ([f64; 2], ::autograd::nalgebra::DMatrix<f64>) {
    let mut __ad_jacobian = ::autograd::nalgebra::DMatrix::<f64>::zeros(0, 0);
    let __ad_value = {
        let (__ad_value, __ad_pullback) = reproj::__vjp_full(cam, x, w);
        ::autograd::__private::jacobian_acc(
            &__ad_value,
            &mut __ad_jacobian,
            ::autograd::__private::Target::Fresh,
            |__ad_seed| {
                let (__ad_d_cam, __ad_d_x, __ad_d_w) = ::core::clone::Clone::clone(
                    &__ad_pullback,
                )(__ad_seed);
                (__ad_d_cam, (__ad_d_x, (__ad_d_w, ())))
            },
        );
        __ad_value
    };
    (__ad_value, __ad_jacobian)
}
/** The value of [`reproj`], its Jacobian added into `jac` (`jac += J`; rows and columns as `reproj_jacobian`'s, which is this into zeros): nothing is allocated for the Jacobian, so a loop assembling blocks reuses its matrix. With slice, array and float arguments, an array or tuple result and no `#[checkpoint]`, a call allocates nothing at all; a `Vec` or `DVector` result allocates itself and one seed per reverse sweep.

 Generated by `#[differentiable]`: one forward sweep, then one reverse sweep per output.

 # Panics

 If `jac` is not outputs × flattened inputs (nothing is added then).*/
#[inline]
#[track_caller]
fn reproj_jacobian_acc<'cam, 'x>(
    cam: &'cam [f64],
    x: &'x [f64],
    w: f64,
    jac: &mut ::autograd::nalgebra::DMatrix<f64>,
) -> [f64; 2] {
    {
        let (__ad_value, __ad_pullback) = reproj::__vjp_full(cam, x, w);
        ::autograd::__private::jacobian_acc(
            &__ad_value,
            jac,
            ::autograd::__private::Target::Add,
            |__ad_seed| {
                let (__ad_d_cam, __ad_d_x, __ad_d_w) = ::core::clone::Clone::clone(
                    &__ad_pullback,
                )(__ad_seed);
                (__ad_d_cam, (__ad_d_x, (__ad_d_w, ())))
            },
        );
        __ad_value
    }
}
