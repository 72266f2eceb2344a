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

/// The standard normal CDF (Abramowitz & Stegun 26.2.17, |error| < 7.5e-8),
/// as a pricing library writes it.
#[differentiable]
pub fn norm_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let poly = t
        * (0.319381530
            + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    let tail = 0.398_942_280_401_432_7 * (-0.5 * x * x).exp() * poly;
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// The type of a European option.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionType {
    Call,
    Put,
}

/// Black–Scholes–Merton with a dividend yield, ported from a pricing
/// library (issue 35): the option type is a `#[constant]` enum field the
/// methods match on (it was read as an `f64`), or a `#[constant]` enum
/// argument (the method failed with errors naming generated items).
#[derive(Clone, Debug, Tangent)]
pub struct BlackScholes {
    pub spot: f64,
    pub strike: f64,
    pub vol: f64,
    pub rate: f64,
    pub dividend: f64,
    pub expiry: f64,
    #[constant]
    pub option_type: OptionType,
}

#[differentiable]
impl BlackScholes {
    fn d1(&self) -> f64 {
        ((self.spot / self.strike).ln()
            + (self.rate - self.dividend + 0.5 * self.vol * self.vol) * self.expiry)
            / (self.vol * self.expiry.sqrt())
    }

    fn d2(&self) -> f64 {
        self.d1() - self.vol * self.expiry.sqrt()
    }

    /// The price of the given type.
    pub fn price_as(&self, #[constant] option_type: OptionType) -> f64 {
        let df = (-self.rate * self.expiry).exp();
        let qf = (-self.dividend * self.expiry).exp();
        match option_type {
            OptionType::Call => {
                self.spot * qf * norm_cdf(self.d1()) - self.strike * df * norm_cdf(self.d2())
            }
            OptionType::Put => {
                self.strike * df * norm_cdf(-self.d2()) - self.spot * qf * norm_cdf(-self.d1())
            }
        }
    }

    /// The price of the held type: the constant field matched.
    pub fn price(&self) -> f64 {
        use OptionType::*;
        match self.option_type {
            Call => self.price_as(Call),
            Put => self.price_as(Put),
        }
    }

    /// Intrinsic value at the forward, discounted: the constant field
    /// compared with a variant.
    fn intrinsic(&self) -> f64 {
        let forward = self.spot * ((self.rate - self.dividend) * self.expiry).exp();
        let sign = if self.option_type == OptionType::Call {
            1.0
        } else {
            -1.0
        };
        (sign * (forward - self.strike)).max(0.0) * (-self.rate * self.expiry).exp()
    }

    /// A helper matching on the field, called by another method.
    pub fn time_value(&self) -> f64 {
        self.price() - self.intrinsic()
    }
}

fn bsm_fields(b: &BlackScholes) -> [f64; 6] {
    [b.spot, b.strike, b.vol, b.rate, b.dividend, b.expiry]
}

fn bsm_with(b: &BlackScholes, i: usize, v: f64) -> BlackScholes {
    let mut b = b.clone();
    *[
        &mut b.spot,
        &mut b.strike,
        &mut b.vol,
        &mut b.rate,
        &mut b.dividend,
        &mut b.expiry,
    ][i] = v;
    b
}

/// Each field's adjoint against a central difference of `f` (step 1e-5,
/// truncation and rounding below 1e-9 here).
fn assert_bsm_fd(b: &BlackScholes, g: &BlackScholes, f: impl Fn(&BlackScholes) -> f64) {
    for (i, (x, got)) in bsm_fields(b).into_iter().zip(bsm_fields(g)).enumerate() {
        let h = 1e-5 * x.abs().max(1.0);
        let want = (f(&bsm_with(b, i, x + h)) - f(&bsm_with(b, i, x - h))) / (2.0 * h);
        approx::assert_relative_eq!(got, want, epsilon = 1e-8, max_relative = 1e-7);
    }
    assert_eq!(g.option_type, b.option_type);
}

fn bsm(option_type: OptionType) -> BlackScholes {
    BlackScholes {
        spot: 100.0,
        strike: 95.0,
        vol: 0.25,
        rate: 0.04,
        dividend: 0.01,
        expiry: 0.75,
        option_type,
    }
}

#[test]
fn a_constant_enum_argument_chooses_the_price() {
    for option_type in [OptionType::Call, OptionType::Put] {
        let b = bsm(option_type);
        let (value, g) = b.price_as_grad(option_type);
        assert_eq!(value.to_bits(), b.price_as(option_type).to_bits());
        assert_bsm_fd(&b, &g, |b| b.price_as(option_type));
    }
    // Put–call parity: C − P = S·e^{−qT} − K·e^{−rT}, so ∂(C − P)/∂S = e^{−qT}.
    let b = bsm(OptionType::Call);
    let (_, call) = b.price_as_grad(OptionType::Call);
    let (_, put) = b.price_as_grad(OptionType::Put);
    approx::assert_relative_eq!(
        call.spot - put.spot,
        (-0.01f64 * 0.75).exp(),
        epsilon = 1e-12,
        max_relative = 1e-12
    );
}

#[test]
fn a_constant_enum_field_is_matched_and_compared() {
    for option_type in [OptionType::Call, OptionType::Put] {
        let b = bsm(option_type);
        let (value, g) = b.price_grad();
        assert_eq!(value.to_bits(), b.price().to_bits());
        assert_bsm_fd(&b, &g, BlackScholes::price);
        let (value, g) = b.time_value_grad();
        assert_eq!(value.to_bits(), b.time_value().to_bits());
        assert_bsm_fd(&b, &g, BlackScholes::time_value);
    }
}

/// The forward contract's value, a free function matching the constant
/// field, under `jvp` and `hessian`.
#[differentiable(jvp, hessian)]
pub fn forward_value(b: &BlackScholes) -> f64 {
    let forward = b.spot * ((b.rate - b.dividend) * b.expiry).exp();
    match b.option_type {
        OptionType::Call => forward - b.strike,
        OptionType::Put => b.strike - forward,
    }
}

#[test]
fn a_constant_enum_field_is_matched_in_every_mode() {
    for (option_type, sign) in [(OptionType::Call, 1.0), (OptionType::Put, -1.0)] {
        let b = bsm(option_type);
        let growth = ((b.rate - b.dividend) * b.expiry).exp();
        // f = ±(S·e^{(r−q)T} − K): ∂f/∂S = ±e^{(r−q)T}, ∂f/∂r = ±S·T·e^{(r−q)T},
        // ∂²f/∂S∂r = ±T·e^{(r−q)T}, ∂²f/∂r² = ±S·T²·e^{(r−q)T}.
        let (value, g, h) = forward_value_hessian(&b);
        assert_eq!(value.to_bits(), forward_value(&b).to_bits());
        let close = |got: f64, want: f64| {
            approx::assert_relative_eq!(got, want, epsilon = 1e-12, max_relative = 1e-12)
        };
        close(g[0], sign * growth);
        close(g[3], sign * b.spot * b.expiry * growth);
        close(h[(0, 3)], sign * b.expiry * growth);
        close(h[(3, 3)], sign * b.spot * b.expiry * b.expiry * growth);
        // Along the spot alone, the tangent is ∂f/∂S.
        let along_spot = BlackScholes {
            spot: 1.0,
            strike: 0.0,
            vol: 0.0,
            rate: 0.0,
            dividend: 0.0,
            expiry: 0.0,
            option_type,
        };
        let (_, tangent) = forward_value_jvp(&b, &along_spot);
        close(tangent, sign * growth);
    }
}
