// Issue 36, item 7: a function generic over its scalar and its array's
// length, as an optimisation library writes it, is one error at the const
// parameter (the generated items dispatch calls by the scalar alone).
use autograd::differentiable;
use autograd::num_traits::{Float, FromPrimitive};

#[differentiable(jvp, hessian)]
pub fn rosenbrock_const<const N: usize, T>(param: &[T; N]) -> T
where
    T: Float + FromPrimitive,
{
    let hundred = T::from_f64(100.0).unwrap();
    let mut sum = T::zero();
    for i in 0..N - 1 {
        sum = sum + (T::one() - param[i]).powi(2) + hundred * (param[i + 1] - param[i].powi(2)).powi(2);
    }
    sum
}

fn main() {}
