//! Field reads of a `Tangent` struct inside macro arguments: `vec![..]`
//! (both forms) and assertions (finding 006 of the random programs:
//! `vec![(p.a) * x, ..]` was "field access is not supported", since
//! syn's visitor does not look into a macro's tokens).
//!
//! Expected derivatives: central differences of the primal (step 1e-6,
//! tolerance 1e-7 absolute) and closed forms.

use autograd::differentiable;

#[derive(Clone, Debug, autograd::Tangent)]
struct P {
    a: f64,
    w: Vec<f64>,
    #[constant]
    scale: f64,
}

// `vec![elem; n]` is the form under test, not an array.
#[allow(clippy::useless_vec)]
#[differentiable]
fn outputs(p: &P, x: f64) -> Vec<f64> {
    assert!(p.a.is_finite(), "a = {}", p.a);
    debug_assert!(p.w.len() >= 2);
    let filled = vec![p.w[1] * x; 2];
    vec![(p.a) * x, x * p.w[0].sin() * p.scale, filled[1] * p.a]
}

#[differentiable]
impl P {
    #[differentiable]
    fn pair(&self, x: f64) -> Vec<f64> {
        vec![self.a * x.exp(), self.w[1] * self.w[0]]
    }
}

fn central(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], j: usize) -> Vec<f64> {
    let h = 1e-6;
    let (mut up, mut down) = (x.to_vec(), x.to_vec());
    up[j] += h;
    down[j] -= h;
    f(&up)
        .iter()
        .zip(f(&down))
        .map(|(u, d)| (u - d) / (2.0 * h))
        .collect()
}

/// Flat: a, w[0], w[1], x.
fn at(v: &[f64]) -> (P, f64) {
    let p = P {
        a: v[0],
        w: vec![v[1], v[2]],
        scale: 1.5,
    };
    (p, v[3])
}

#[test]
fn jacobian_of_fields_in_vec_and_assert_matches_central_differences() {
    let v = [0.7, -0.4, 1.3, 0.9];
    for (name, f, jac) in [
        (
            "outputs",
            (|v: &[f64]| {
                let (p, x) = at(v);
                outputs(&p, x)
            }) as fn(&[f64]) -> Vec<f64>,
            (|v: &[f64]| {
                let (p, x) = at(v);
                outputs_jacobian(&p, x)
            }) as fn(&[f64]) -> (Vec<f64>, nalgebra::DMatrix<f64>),
        ),
        (
            "pair",
            |v: &[f64]| {
                let (p, x) = at(v);
                p.pair(x)
            },
            |v: &[f64]| {
                let (p, x) = at(v);
                P::pair_jacobian(&p, x)
            },
        ),
    ] {
        let (value, j) = jac(&v);
        assert_eq!(value, f(&v), "{name}: the value is the function's");
        assert_eq!(j.ncols(), 4, "{name}: columns a, w[0], w[1], x");
        for col in 0..4 {
            let fd = central(f, &v, col);
            for row in 0..value.len() {
                assert!(
                    (j[(row, col)] - fd[row]).abs() < 1e-7,
                    "{name}: J[{row}][{col}] = {} but central differences give {}",
                    j[(row, col)],
                    fd[row]
                );
            }
        }
    }
    // Closed forms of `outputs`: ∂(a·x)/∂a = x, ∂(w1·x·a)/∂w1 = x·a.
    let (_, j) = outputs_jacobian(&at(&v).0, v[3]);
    assert_eq!(j[(0, 0)], v[3]);
    assert!((j[(2, 2)] - v[3] * v[0]).abs() < 1e-15);
}

#[test]
fn vjp_of_fields_in_vec_keeps_the_constant_field() {
    let (p, x) = at(&[0.7, -0.4, 1.3, 0.9]);
    let (value, pullback) = outputs_vjp(&p, x);
    assert_eq!(value, outputs(&p, x));
    let (dp, dx) = pullback(vec![1.0, 0.0, 0.0]);
    assert_eq!(
        (dp.a, dp.w.clone(), dp.scale, dx),
        (x, vec![0.0, 0.0], 1.5, p.a)
    );
}
