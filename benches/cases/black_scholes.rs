//! The Black–Scholes price of a European call, `C = S·Φ(d₁) − K·e^(−rT)·Φ(d₂)`,
//! in its five inputs (spot, strike, rate, volatility, time), with Φ by
//! Hart's double-precision rational approximation (only `exp`, branches and
//! arithmetic, so the macro differentiates it).

use autograd::graph::{Graph, GraphError, NodeId};
use num_dual::{Dual64, DualNum};

use super::{Flat, Tolerances, fd_scalar};

/// The hand-written Greeks use the true density φ where the others
/// differentiate Hart's approximation of Φ: about 1e-9 relative apart.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-10,
    rel: 1e-8,
    fd_abs: 1e-6,
    fd_rel: 1e-6,
};

/// 1/√(2π).
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// Where Hart's rational branch ends and the continued fraction starts.
const HART_SPLIT: f64 = 7.071_067_811_865_47;

/// Hart's numerator coefficients, highest degree first.
const P: [f64; 7] = [
    0.035_262_496_599_891_1,
    0.700_383_064_443_688,
    6.373_962_203_531_65,
    33.912_866_078_383,
    112.079_291_497_871,
    221.213_596_169_931,
    220.206_867_912_376,
];

/// Hart's denominator coefficients, highest degree first.
const Q: [f64; 8] = [
    0.088_388_347_648_318_4,
    1.755_667_163_182_64,
    16.064_177_579_207,
    86.780_732_202_946_1,
    296.564_248_779_674,
    637.333_633_378_831,
    793.826_512_519_948,
    440.413_735_824_752,
];

/// The case's inputs.
#[derive(Clone, Copy, Debug)]
pub struct Inputs {
    /// Spot, strike, rate, volatility, time to expiry.
    pub args: [f64; 5],
}

impl Inputs {
    /// An at-the-money-ish call: S = 100, K = 105, r = 5%, σ = 20%, T = 1.
    pub fn new() -> Inputs {
        Inputs {
            args: [100.0, 105.0, 0.05, 0.2, 1.0],
        }
    }
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

// The function timed is the example's, so the example's tests cover it.
#[path = "../../examples/black_scholes.rs"]
#[allow(dead_code)]
pub mod example;

use example::{call_price, call_price_grad, call_price_grad_acc};

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    let [s, k, r, v, t] = inp.args;
    call_price(s, k, r, v, t)
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> (f64, [f64; 5]) {
    let [s, k, r, v, t] = inp.args;
    let (c, ds, dk, dr, dv, dt) = call_price_grad(s, k, r, v, t);
    (c, [ds, dk, dr, dv, dt])
}

/// Φ(x) as the example's `norm_cdf` computes it, and φ(x), sharing the one `exp`.
fn cdf_and_pdf(x: f64) -> (f64, f64) {
    let z = if x > 0.0 { x } else { -x };
    let e = (-0.5 * z * z).exp();
    let tail = if z < HART_SPLIT {
        let n = P[1..].iter().fold(P[0], |acc, &c| acc * z + c);
        let d = Q[1..].iter().fold(Q[0], |acc, &c| acc * z + c);
        e * n / d
    } else {
        let b = z + 0.65;
        let b = z + 4.0 / b;
        let b = z + 3.0 / b;
        let b = z + 2.0 / b;
        let b = z + 1.0 / b;
        e / b / 2.506_628_274_631
    };
    let cdf = if x > 0.0 { 1.0 - tail } else { tail };
    (cdf, INV_SQRT_2PI * e)
}

/// The caller's buffers of the accumulating contenders: the five Greeks.
pub type Buffers = [f64; 5];

/// Zeroed buffers.
pub fn buffers(_: &Inputs) -> Buffers {
    [0.0; 5]
}

/// The macro's gradient added into the caller's buffers (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    let [s, k, r, v, t] = inp.args;
    let [ds, dk, dr, dv, dt] = b;
    call_price_grad_acc(s, k, r, v, t, ds, dk, dr, dv, dt)
}

/// By hand into the caller's buffers: [`hand`]'s Greeks added.
pub fn hand_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    let (price, g) = hand(inp);
    for (b, g) in b.iter_mut().zip(g) {
        *b += g;
    }
    price
}

/// By hand: the closed-form Greeks, delta = Φ(d₁), ∂C/∂K = −e^(−rT)Φ(d₂),
/// rho = K·T·e^(−rT)Φ(d₂), vega = S·φ(d₁)·√T and
/// ∂C/∂T = S·φ(d₁)·σ/(2√T) + r·K·e^(−rT)Φ(d₂), with φ(d₁) from the `exp`
/// Φ(d₁) already takes.
pub fn hand(inp: &Inputs) -> (f64, [f64; 5]) {
    let [s, k, r, v, t] = inp.args;
    let sqrt_t = t.sqrt();
    let vol_sqrt_t = v * sqrt_t;
    let d1 = ((s / k).ln() + (r + 0.5 * v * v) * t) / vol_sqrt_t;
    let d2 = d1 - vol_sqrt_t;
    let discount = (-r * t).exp();
    let (nd1, pdf1) = cdf_and_pdf(d1);
    let (nd2, _) = cdf_and_pdf(d2);
    let k_disc = k * discount;
    let price = s * nd1 - k_disc * nd2;
    let s_pdf = s * pdf1;
    (
        price,
        [
            nd1,
            -discount * nd2,
            k_disc * t * nd2,
            s_pdf * sqrt_t,
            s_pdf * v / (2.0 * sqrt_t) + r * k_disc * nd2,
        ],
    )
}

/// Φ recorded on the graph; the branches are taken on the recorded values.
fn norm_cdf_graph(g: &mut Graph, x: NodeId) -> Result<NodeId, GraphError> {
    let xv = g.value(x)?.as_scalar().unwrap_or(f64::NAN);
    let zero = g.input(0.0);
    let z = if xv > 0.0 { x } else { g.sub(zero, x)? };
    let zv = xv.abs();
    let half = g.input(-0.5);
    let zz = g.mul(z, z)?;
    let hzz = g.mul(half, zz)?;
    let e = g.exp(hzz)?;
    let tail = if zv < HART_SPLIT {
        let mut n = g.input(P[0]);
        for &c in &P[1..] {
            let nz = g.mul(n, z)?;
            let c = g.input(c);
            n = g.add(nz, c)?;
        }
        let mut d = g.input(Q[0]);
        for &c in &Q[1..] {
            let dz = g.mul(d, z)?;
            let c = g.input(c);
            d = g.add(dz, c)?;
        }
        let en = g.mul(e, n)?;
        g.div(en, d)?
    } else {
        let c = g.input(0.65);
        let mut b = g.add(z, c)?;
        for k in [4.0, 3.0, 2.0, 1.0] {
            let k = g.input(k);
            let q = g.div(k, b)?;
            b = g.add(z, q)?;
        }
        let eb = g.div(e, b)?;
        let c = g.input(2.506_628_274_631);
        g.div(eb, c)?
    };
    if xv > 0.0 {
        let one = g.input(1.0);
        g.sub(one, tail)
    } else {
        Ok(tail)
    }
}

fn graph_impl(args: [f64; 5]) -> Result<(f64, [f64; 5]), GraphError> {
    let mut g = Graph::new();
    let ids = args.map(|a| g.input(a));
    let [s, k, r, v, t] = ids;
    let sqrt_t = g.sqrt(t)?;
    let vol_sqrt_t = g.mul(v, sqrt_t)?;
    let sk = g.div(s, k)?;
    let ln_sk = g.log(sk)?;
    let half = g.input(0.5);
    let vv = g.mul(v, v)?;
    let hvv = g.mul(half, vv)?;
    let drift = g.add(r, hvv)?;
    let drift_t = g.mul(drift, t)?;
    let num = g.add(ln_sk, drift_t)?;
    let d1 = g.div(num, vol_sqrt_t)?;
    let d2 = g.sub(d1, vol_sqrt_t)?;
    let zero = g.input(0.0);
    let rt = g.mul(r, t)?;
    let minus_rt = g.sub(zero, rt)?;
    let discount = g.exp(minus_rt)?;
    let nd1 = norm_cdf_graph(&mut g, d1)?;
    let nd2 = norm_cdf_graph(&mut g, d2)?;
    let a = g.mul(s, nd1)?;
    let kd = g.mul(k, discount)?;
    let b = g.mul(kd, nd2)?;
    let c = g.sub(a, b)?;
    let value = g.value(c)?.as_scalar().unwrap_or(f64::NAN);
    let grads = g.backward(c)?;
    Ok((value, ids.map(|id| grads.scalar(id).unwrap_or(f64::NAN))))
}

/// The dynamic graph, recorded on every call.
pub fn graph(inp: &Inputs) -> (f64, [f64; 5]) {
    graph_impl(inp.args).expect("the graph records Black–Scholes")
}

/// Central differences: 10 primal calls.
pub fn fd(inp: &Inputs) -> (f64, [f64; 5]) {
    let a = inp.args;
    let price = |a: [f64; 5]| call_price(a[0], a[1], a[2], a[3], a[4]);
    let grad = std::array::from_fn(|i| {
        fd_scalar(
            |xi| {
                let mut b = a;
                b[i] = xi;
                price(b)
            },
            a[i],
        )
    });
    (price(a), grad)
}

/// Φ, generic over num-dual's numbers.
pub fn norm_cdf_generic<T: DualNum<f64> + Copy>(x: T) -> T {
    let z = if x.re() > 0.0 { x } else { -x };
    let e = (z * z * -0.5).exp();
    let tail = if z.re() < HART_SPLIT {
        let n = P[1..].iter().fold(T::from(P[0]), |acc, &c| acc * z + c);
        let d = Q[1..].iter().fold(T::from(Q[0]), |acc, &c| acc * z + c);
        e * n / d
    } else {
        let b = z + 0.65;
        let b = z + b.recip() * 4.0;
        let b = z + b.recip() * 3.0;
        let b = z + b.recip() * 2.0;
        let b = z + b.recip();
        e / b / 2.506_628_274_631
    };
    if x.re() > 0.0 { -(tail - 1.0) } else { tail }
}

/// The call price, generic over num-dual's numbers.
pub fn call_price_generic<T: DualNum<f64> + Copy>(a: [T; 5]) -> T {
    let [s, k, r, v, t] = a;
    let sqrt_t = t.sqrt();
    let vol_sqrt_t = v * sqrt_t;
    let d1 = ((s / k).ln() + (r + v * v * 0.5) * t) / vol_sqrt_t;
    let d2 = d1 - vol_sqrt_t;
    let discount = (-r * t).exp();
    s * norm_cdf_generic(d1) - k * discount * norm_cdf_generic(d2)
}

/// Forward mode: five passes with `Dual64`.
pub fn dual(inp: &Inputs) -> (f64, [f64; 5]) {
    let mut a = inp.args.map(Dual64::from_re);
    let mut value = 0.0;
    let mut grad = [0.0; 5];
    for i in 0..5 {
        a[i].eps = 1.0;
        let y = call_price_generic(a);
        a[i].eps = 0.0;
        value = y.re;
        grad[i] = y.eps;
    }
    (value, grad)
}

/// Every contender's value and gradient.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, g): (f64, [f64; 5])| Flat::new(name, v, g.to_vec());
    vec![
        Flat::new("primal", primal(inp), Vec::new()),
        flat("ours", ours(inp)),
        flat("hand", hand(inp)),
        super::accumulated("ours_acc", inp, buffers, ours_acc, |g| g.to_vec()),
        super::accumulated("hand_acc", inp, buffers, hand_acc, |g| g.to_vec()),
        flat("graph", graph(inp)),
        flat("fd", fd(inp)),
        flat("dual", dual(inp)),
    ]
}
