// The user's own items named like what the generated code uses must not
// break it: it names everything through absolute `::autograd::__private`
// and `::core` paths.

mod shadows {
    #![allow(dead_code, non_camel_case_types)]

    use ::autograd::differentiable;
    use ::std::collections::VecDeque as Vec;

    mod autograd {}
    mod core {}
    mod std {}
    mod rules {
        pub fn mul_grad_lhs() {}
    }
    mod __private {}
    struct GradientCheck;
    struct NoGradient;
    struct f32;
    fn accumulate() {}
    fn zero_like() {}
    fn zeros_like_slice() {}
    fn unreachable() {}
    fn stop_gradient() {}
    type Option = ();
    type Result = ();

    pub fn queue() -> Vec<f64> {
        Vec::from([1.0, 2.0])
    }

    #[differentiable]
    pub fn w(x: f64, y: f64) -> f64 {
        let z = x * y;
        z + x.exp() * 0.0
    }

    #[differentiable]
    pub fn total(x: &[f64]) -> f64 {
        let mut acc = 0.0;
        for i in 0..x.len() {
            acc += x[i] * x[i];
        }
        acc
    }

    #[differentiable]
    pub fn calls(x: f64) -> f64 {
        w(x, 3.0)
    }
}

fn main() {
    assert_eq!(shadows::queue().len(), 2);
    assert_eq!(shadows::w_grad(3.0, 4.0), (12.0, 4.0, 3.0));
    let (v, d): (f64, std::vec::Vec<f64>) = shadows::total_grad(&[1.0, 2.0]);
    assert_eq!((v, d), (5.0, vec![2.0, 4.0]));
    assert_eq!(shadows::calls_grad(2.0), (6.0, 3.0));
    assert!(shadows::w_check(3.0, 4.0).is_within(1e-6, 1e-6));
}
