//! The z-spread of the bond of [`super::bond`]: the spread z at which the
//! bond prices at a given market price, found by bisection and
//! differentiated in the 60 curve rates and the market price (61 inputs)
//! through the implicit hook: dz/dθ = −(∂r/∂θ)/(∂r/∂z) for the residual
//! r(z, θ) = P(z, θ) − market.

use autograd::differentiable;
use autograd::graph::{Graph, GraphError};
use autograd::solve::{SolveError, bisect};
use num_dual::Dual64;

use super::bond::{self, bond_price_generic};
use super::{Flat, Tolerances, fd_scalar, fd_slice};

/// The same root for every exact method; central differences of a
/// bisection stopped at 1e-12 carry an error of about 1e-12/h ≈ 1e-7.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-12,
    rel: 1e-9,
    fd_abs: 1e-6,
    fd_rel: 1e-5,
};

/// The bracket searched.
pub const BRACKET: (f64, f64) = (-0.5, 1.0);

/// The bisection's tolerance on z.
pub const TOL: f64 = 1e-12;

/// The case's inputs: the bond of [`super::bond`] and its price at a
/// spread of 1%.
pub struct Inputs {
    /// The zero rates.
    pub r: Vec<f64>,
    /// The market price.
    pub market: f64,
    /// Cash flows.
    pub cf: Vec<f64>,
    /// Cash-flow times.
    pub t: Vec<f64>,
}

impl Inputs {
    /// The bond of [`super::bond::Inputs::new`], priced at its spread.
    pub fn new() -> Inputs {
        let b = bond::Inputs::new();
        let market = bond::primal(&b);
        Inputs {
            r: b.r,
            market,
            cf: b.cf,
            t: b.t,
        }
    }
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

/// Model price minus market price.
#[differentiable(jvp)]
pub fn residual(
    z: f64,
    r: &[f64],
    market: f64,
    #[constant] cf: &[f64],
    #[constant] t: &[f64],
) -> f64 {
    super::bond::bond_price(r, z, cf, t) - market
}

/// The z-spread by bisection.
#[differentiable(jvp, implicit = residual)]
pub fn z_spread(
    r: &[f64],
    market: f64,
    #[constant] cf: &[f64],
    #[constant] t: &[f64],
) -> Result<f64, SolveError> {
    let (lo, hi) = BRACKET;
    bisect(|z| residual(z, r, market, cf, t), lo, hi, TOL)
}

/// The gradient as (z, dz/dr, dz/dmarket).
pub type Grad = (f64, Vec<f64>, f64);

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    z_spread(&inp.r, inp.market, &inp.cf, &inp.t).expect("a root in the bracket")
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> Grad {
    z_spread_grad(&inp.r, inp.market, &inp.cf, &inp.t).expect("a root in the bracket")
}

/// The root, by the same bisection on plain code.
fn solve(r: &[f64], market: f64, cf: &[f64], t: &[f64]) -> f64 {
    let (lo, hi) = BRACKET;
    bisect(|z| bond::bond_price(r, z, cf, t) - market, lo, hi, TOL).expect("a root in the bracket")
}

/// By hand: the bisection, then one pass of the bond's hand-written
/// gradient at the root and the implicit function theorem.
pub fn hand(inp: &Inputs) -> Grad {
    let z = solve(&inp.r, inp.market, &inp.cf, &inp.t);
    let mut dr = vec![0.0; inp.r.len()];
    let mut dp_dz = 0.0;
    for (((d, &r), &cf), &t) in dr.iter_mut().zip(&inp.r).zip(&inp.cf).zip(&inp.t) {
        *d = -t * cf * (-(r + z) * t).exp();
        dp_dz += *d;
    }
    let inv = 1.0 / dp_dz;
    for d in &mut dr {
        *d *= -inv;
    }
    (z, dr, inv)
}

/// The caller's buffers of the accumulating contenders: dz/dr, dz/dmarket
/// and a scratch slice for the hand-written gradient's ∂P/∂rᵢ.
pub struct Buffers {
    pub dr: Vec<f64>,
    pub dmarket: f64,
    pub scratch: Vec<f64>,
}

/// Zeroed buffers for `inp`.
pub fn buffers(inp: &Inputs) -> Buffers {
    Buffers {
        dr: vec![0.0; inp.r.len()],
        dmarket: 0.0,
        scratch: vec![0.0; inp.r.len()],
    }
}

/// The buffers flattened, `[dz/dr.., dz/dmarket]`.
pub fn flatten(b: &Buffers) -> Vec<f64> {
    let mut all = b.dr.clone();
    all.push(b.dmarket);
    all
}

/// The macro's gradient added into the caller's buffers (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    z_spread_grad_acc(
        &inp.r,
        inp.market,
        &inp.cf,
        &inp.t,
        &mut b.dr,
        &mut b.dmarket,
    )
    .expect("a root in the bracket")
}

/// By hand into the caller's buffers: [`hand`] with ∂P/∂rᵢ in the
/// scratch slice.
pub fn hand_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    let z = solve(&inp.r, inp.market, &inp.cf, &inp.t);
    let mut dp_dz = 0.0;
    for (((d, &r), &cf), &t) in b.scratch.iter_mut().zip(&inp.r).zip(&inp.cf).zip(&inp.t) {
        *d = -t * cf * (-(r + z) * t).exp();
        dp_dz += *d;
    }
    let inv = 1.0 / dp_dz;
    for (acc, d) in b.dr.iter_mut().zip(&b.scratch) {
        *acc -= d * inv;
    }
    b.dmarket += inv;
    z
}

fn graph_impl(inp: &Inputs) -> Result<Grad, GraphError> {
    let z = solve(&inp.r, inp.market, &inp.cf, &inp.t);
    let mut g = Graph::new();
    let rs: Vec<_> = inp.r.iter().map(|&v| g.input(v)).collect();
    let zn = g.input(z);
    let market = g.input(inp.market);
    let zero = g.input(0.0);
    let mut p = zero;
    for i in 0..inp.cf.len() {
        let rz = g.add(rs[i], zn)?;
        let t = g.input(inp.t[i]);
        let rzt = g.mul(rz, t)?;
        let minus = g.sub(zero, rzt)?;
        let e = g.exp(minus)?;
        let cf = g.input(inp.cf[i]);
        let pv = g.mul(cf, e)?;
        p = g.add(p, pv)?;
    }
    let res = g.sub(p, market)?;
    let grads = g.backward(res)?;
    let lambda = -1.0 / grads.scalar(zn).unwrap_or(f64::NAN);
    let dr = rs
        .iter()
        .map(|&id| lambda * grads.scalar(id).unwrap_or(f64::NAN))
        .collect();
    Ok((z, dr, lambda * grads.scalar(market).unwrap_or(f64::NAN)))
}

/// The bisection, then the residual's dynamic graph at the root and the
/// implicit function theorem (a tape user would not tape the solver).
pub fn graph(inp: &Inputs) -> Grad {
    graph_impl(inp).expect("the graph records the residual")
}

/// Central differences of the solve: 122 bisections.
pub fn fd(inp: &Inputs) -> Grad {
    let dr = fd_slice(|r| solve(r, inp.market, &inp.cf, &inp.t), &inp.r);
    let dm = fd_scalar(|m| solve(&inp.r, m, &inp.cf, &inp.t), inp.market);
    (solve(&inp.r, inp.market, &inp.cf, &inp.t), dr, dm)
}

/// Forward mode: the bisection, then 62 `Dual64` passes of the residual
/// (one in z, one per input) and the implicit function theorem.
pub fn dual(inp: &Inputs) -> Grad {
    let z = solve(&inp.r, inp.market, &inp.cf, &inp.t);
    let residual = |r: &[Dual64], z: Dual64, market: Dual64| {
        bond_price_generic(r, z, &inp.cf, &inp.t) - market
    };
    let mut r: Vec<Dual64> = inp.r.iter().map(|&v| Dual64::from_re(v)).collect();
    let (zd, md) = (Dual64::from_re(z), Dual64::from_re(inp.market));
    let dres_dz = residual(&r, Dual64::new(z, 1.0), md).eps;
    let lambda = -1.0 / dres_dz;
    let mut dr = Vec::with_capacity(r.len());
    for i in 0..r.len() {
        r[i].eps = 1.0;
        dr.push(lambda * residual(&r, zd, md).eps);
        r[i].eps = 0.0;
    }
    let dm = lambda * residual(&r, zd, Dual64::new(inp.market, 1.0)).eps;
    (z, dr, dm)
}

/// Every contender's value and gradient, `[dz/dr.., dz/dmarket]`.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, mut dr, dm): Grad| {
        dr.push(dm);
        Flat::new(name, v, dr)
    };
    vec![
        Flat::new("primal", primal(inp), Vec::new()),
        flat("ours", ours(inp)),
        flat("hand", hand(inp)),
        super::accumulated("ours_acc", inp, buffers, ours_acc, flatten),
        super::accumulated("hand_acc", inp, buffers, hand_acc, flatten),
        flat("graph", graph(inp)),
        flat("fd", fd(inp)),
        flat("dual", dual(inp)),
    ]
}
