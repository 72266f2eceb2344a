//! What a `Tangent` struct's methods cost in a gradient, beside the same
//! arithmetic written as a plain function of floats: an Euler–Maruyama
//! path of geometric Brownian motion (50 steps) calling the process's
//! `drift` and `diffusion` each step, once from a method of the annotated
//! `impl` block and once from a free function taking the process, and a
//! Black–Scholes–Merton `price` method built from helper methods.
//!
//! ```text
//! cargo bench --bench struct_methods
//! cargo bench --bench struct_methods -- --quick
//! ```
//!
//! Before anything is timed, every form's gradient is checked against the
//! plain function's (1e-12 relative) and against central differences of
//! the primal (1e-6 relative).

// Index loops over the increments are the style under test.
#![allow(clippy::needless_range_loop)]

use std::hint::black_box;

use autograd::special::norm_cdf;
use autograd::{Tangent, differentiable};
use criterion::Criterion;

#[derive(Clone, Debug, Tangent)]
pub struct Gbm {
    pub mu: f64,
    pub sigma: f64,
}

#[differentiable]
impl Gbm {
    pub fn drift(&self, x: f64) -> f64 {
        self.mu * x
    }

    pub fn diffusion(&self, x: f64) -> f64 {
        self.sigma * x
    }

    /// The path from a method of the same `impl` block.
    pub fn path(&self, x0: f64, dt: f64, dw: &[f64]) -> f64 {
        let mut x = x0;
        for i in 0..dw.len() {
            x = x + self.drift(x) * dt + self.diffusion(x) * dw[i];
        }
        x
    }
}

/// The path from a free function taking the process.
#[differentiable]
pub fn path_of(process: &Gbm, x0: f64, dt: f64, dw: &[f64]) -> f64 {
    let mut x = x0;
    for i in 0..dw.len() {
        x = x + process.drift(x) * dt + process.diffusion(x) * dw[i];
    }
    x
}

/// The same path as a plain function of floats.
#[differentiable]
pub fn path_plain(mu: f64, sigma: f64, x0: f64, dt: f64, dw: &[f64]) -> f64 {
    let mut x = x0;
    for i in 0..dw.len() {
        x = x + mu * x * dt + sigma * x * dw[i];
    }
    x
}

#[derive(Clone, Debug, Tangent)]
pub struct Bsm {
    pub spot: f64,
    pub strike: f64,
    pub rate: f64,
    pub dividend: f64,
    pub vol: f64,
    pub expiry: f64,
}

#[differentiable]
impl Bsm {
    fn d1(&self) -> f64 {
        ((self.spot / self.strike).ln()
            + (self.rate - self.dividend + 0.5 * self.vol * self.vol) * self.expiry)
            / (self.vol * self.expiry.sqrt())
    }

    fn d2(&self) -> f64 {
        self.d1() - self.vol * self.expiry.sqrt()
    }

    fn discount(&self) -> f64 {
        (-self.rate * self.expiry).exp()
    }

    pub fn price(&self) -> f64 {
        self.spot * (-self.dividend * self.expiry).exp() * norm_cdf(self.d1())
            - self.strike * self.discount() * norm_cdf(self.d2())
    }
}

#[differentiable]
pub fn bsm_plain(spot: f64, strike: f64, rate: f64, dividend: f64, vol: f64, expiry: f64) -> f64 {
    let d1 = ((spot / strike).ln() + (rate - dividend + 0.5 * vol * vol) * expiry)
        / (vol * expiry.sqrt());
    let d2 = d1 - vol * expiry.sqrt();
    spot * (-dividend * expiry).exp() * norm_cdf(d1)
        - strike * (-rate * expiry).exp() * norm_cdf(d2)
}

fn close(a: f64, b: f64, rel: f64, what: &str) {
    assert!(
        (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300),
        "{what}: {a} against {b}"
    );
}

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-5 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn check(process: &Gbm, dw: &[f64], option: &Bsm) {
    let (x0, dt) = (100.0, 0.01);
    let (v, d_mu, d_sigma, d_x0, _, _) = path_plain_grad(process.mu, process.sigma, x0, dt, dw);
    for (w, d, dx, what) in [
        {
            let (w, d, dx, _, _) = process.path_grad(x0, dt, dw);
            (w, d, dx, "impl method")
        },
        {
            let (w, d, dx, _, _) = path_of_grad(process, x0, dt, dw);
            (w, d, dx, "free function")
        },
    ] {
        assert_eq!(w, v, "{what}: value");
        close(d.mu, d_mu, 1e-12, what);
        close(d.sigma, d_sigma, 1e-12, what);
        close(dx, d_x0, 1e-12, what);
    }
    let path = |mu: f64, sigma: f64| path_plain(mu, sigma, x0, dt, dw);
    close(
        d_mu,
        central(|m| path(m, process.sigma), process.mu),
        1e-6,
        "d mu",
    );
    close(
        d_sigma,
        central(|s| path(process.mu, s), process.sigma),
        1e-6,
        "d sigma",
    );

    let o = option;
    let (p, d) = o.price_grad();
    let (q, d_spot, _, _, _, d_vol, _) =
        bsm_plain_grad(o.spot, o.strike, o.rate, o.dividend, o.vol, o.expiry);
    close(p, q, 1e-14, "price");
    close(d.spot, d_spot, 1e-12, "delta");
    close(d.vol, d_vol, 1e-12, "vega");
    let price = |spot: f64, vol: f64| bsm_plain(spot, o.strike, o.rate, o.dividend, vol, o.expiry);
    close(
        d_spot,
        central(|s| price(s, o.vol), o.spot),
        1e-6,
        "delta by differences",
    );
    close(
        d_vol,
        central(|v| price(o.spot, v), o.vol),
        1e-6,
        "vega by differences",
    );
}

fn benches(c: &mut Criterion) {
    let process = Gbm {
        mu: 0.05,
        sigma: 0.2,
    };
    let dw: Vec<f64> = (0..50).map(|i| 0.1 * (0.37 * i as f64).sin()).collect();
    let option = Bsm {
        spot: 100.0,
        strike: 95.0,
        rate: 0.03,
        dividend: 0.01,
        vol: 0.2,
        expiry: 1.5,
    };
    check(&process, &dw, &option);

    let mut g = c.benchmark_group("euler_maruyama_50");
    g.bench_function("primal", |b| {
        b.iter(|| path_plain(black_box(0.05), 0.2, 100.0, 0.01, black_box(&dw)))
    });
    g.bench_function("plain_grad", |b| {
        b.iter(|| path_plain_grad(black_box(0.05), 0.2, 100.0, 0.01, black_box(&dw)))
    });
    g.bench_function("impl_method_grad", |b| {
        b.iter(|| black_box(&process).path_grad(100.0, 0.01, black_box(&dw)))
    });
    g.bench_function("free_function_grad", |b| {
        b.iter(|| path_of_grad(black_box(&process), 100.0, 0.01, black_box(&dw)))
    });
    g.finish();

    let mut g = c.benchmark_group("black_scholes_merton");
    g.bench_function("plain_grad", |b| {
        b.iter(|| bsm_plain_grad(black_box(100.0), 95.0, 0.03, 0.01, 0.2, 1.5))
    });
    g.bench_function("method_grad", |b| {
        b.iter(|| black_box(&option).price_grad())
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
