//! `#[differentiable] impl` blocks written without an attribute on each
//! method (issue 14): the block's attribute marks its float methods when
//! none is marked, and any method with a `#[constant]` argument; other
//! items (a constructor) stay as written. Also a row of `&[Vec<f64>]`
//! data passed to a helper taking `&[f64]`. Expected gradients are closed
//! forms, exact in these binary fractions up to the stated tolerance.

use autograd::{Tangent, differentiable};

#[derive(Clone, Debug, Tangent)]
pub struct Linear {
    pub w: Vec<f64>,
    pub b: f64,
    #[constant]
    pub lambda: f64,
}

#[differentiable]
impl Linear {
    pub fn new(n: usize, lambda: f64) -> Self {
        Linear {
            w: vec![0.0; n],
            b: 0.0,
            lambda,
        }
    }

    fn predict(&self, x: &[f64]) -> f64 {
        self.w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + self.b
    }

    pub fn loss(&self, #[constant] xs: &[Vec<f64>], #[constant] ys: &[f64]) -> f64 {
        let mut l = 0.0;
        for (x, &y) in xs.iter().zip(ys) {
            let e = self.predict(x) - y;
            l += e * e;
        }
        let reg: f64 = self.w.iter().map(|w| w * w).sum();
        l / ys.len() as f64 + self.lambda * reg
    }
}

/// A free helper on a row, called with rows of constant `Vec` data.
#[differentiable]
fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>()
}

#[differentiable]
fn squared_errors(w: &[f64], #[constant] xs: &[Vec<f64>], #[constant] ys: &[f64]) -> f64 {
    let mut l = 0.0;
    for (x, &y) in xs.iter().zip(ys) {
        let e = dot(w, x) - y;
        l += e * e;
    }
    l
}

fn data() -> (Vec<Vec<f64>>, Vec<f64>) {
    (vec![vec![1.0, 2.0], vec![0.5, -1.0]], vec![0.3, 0.7])
}

#[test]
fn an_unmarked_block_differentiates_its_float_methods() {
    let mut m = Linear::new(2, 0.01);
    m.w = vec![0.5, -0.2];
    m.b = 0.1;
    let (xs, ys) = data();
    let (value, g) = m.loss_grad(&xs, &ys);
    assert_eq!(value.to_bits(), m.loss(&xs, &ys).to_bits());
    // Residuals e = (−0.1, −0.15): ∂/∂w = Σ e·x + 2λw, ∂/∂b = Σ e.
    let want_w = [-0.175 + 0.02 * 0.5, -0.05 + 0.02 * -0.2];
    for (got, want) in g.w.iter().zip(want_w) {
        assert!((got - want).abs() < 1e-15, "{got} {want}");
    }
    assert!((g.b - -0.25).abs() < 1e-15, "{}", g.b);
    // The constant field keeps the argument's value.
    assert_eq!(g.lambda, 0.01);
}

#[test]
fn rows_of_vec_data_pass_to_a_slice_helper() {
    let (xs, ys) = data();
    let w = [0.5, -0.2];
    let (value, dw) = squared_errors_grad(&w, &xs, &ys);
    assert_eq!(value.to_bits(), squared_errors(&w, &xs, &ys).to_bits());
    // Residuals (−0.2, −0.25): 2·Σ e·x.
    let want = [
        2.0 * (-0.2 * 1.0 + -0.25 * 0.5),
        2.0 * (-0.2 * 2.0 + -0.25 * -1.0),
    ];
    for (got, want) in dw.iter().zip(want) {
        assert!((got - want).abs() < 1e-15, "{got} {want}");
    }
}

#[derive(Clone, Debug, Tangent)]
pub struct Quadratic {
    pub a: f64,
    pub c: f64,
}

// One method marked; the other, unmarked, takes a `#[constant]` argument,
// which marks it too.
#[differentiable]
impl Quadratic {
    #[differentiable]
    fn at(&self, x: f64) -> f64 {
        self.a * x * x + self.c
    }

    fn total(&self, #[constant] xs: &[f64]) -> f64 {
        xs.iter().map(|&x| self.at(x)).sum::<f64>()
    }

    fn name(&self) -> &'static str {
        "quadratic"
    }
}

#[test]
fn a_constant_argument_marks_a_method() {
    let q = Quadratic { a: 0.5, c: 2.0 };
    let xs = [1.0, 2.0, 3.0];
    let (value, g) = q.total_grad(&xs);
    assert_eq!(value, q.total(&xs));
    // ∂/∂a = Σ x², ∂/∂c = n.
    assert_eq!((g.a, g.c), (14.0, 3.0));
    assert_eq!(q.name(), "quadratic");
}
