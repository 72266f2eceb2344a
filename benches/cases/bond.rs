//! A bond's price against a 60-point zero curve plus a spread:
//! `P = Σᵢ cfᵢ·exp(−(rᵢ + z)·tᵢ)`, differentiated in the 60 rates and the
//! spread (61 inputs); cash flows and times are constants.

use autograd::differentiable;
use autograd::graph::{Graph, GraphError};
use num_dual::{Dual64, DualNum};

use super::{Flat, Tolerances, fd_scalar, fd_slice, lcg_vec};

/// Reassociation only for the exact methods; central differences in a
/// rate have a truncation error of about h²·t³·P/6 ≈ 1e-5 at t = 30.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-10,
    rel: 1e-11,
    fd_abs: 1e-4,
    fd_rel: 1e-6,
};

/// The number of curve points (semi-annual cash flows over 30 years).
pub const POINTS: usize = 60;

/// The case's inputs.
pub struct Inputs {
    /// The zero rate at each cash-flow time.
    pub r: Vec<f64>,
    /// The spread.
    pub z: f64,
    /// Cash flows per 100 face: a 5% semi-annual coupon, the face at the end.
    pub cf: Vec<f64>,
    /// Cash-flow times in years.
    pub t: Vec<f64>,
}

impl Inputs {
    /// A 30-year 5% semi-annual bond, rates between 2% and 4.5%, a spread
    /// of 1%.
    pub fn new() -> Inputs {
        let t: Vec<f64> = (1..=POINTS).map(|i| i as f64 * 0.5).collect();
        let mut cf = vec![2.5; POINTS];
        cf[POINTS - 1] += 100.0;
        Inputs {
            r: lcg_vec(POINTS, 7, 0.02, 0.045),
            z: 0.01,
            cf,
            t,
        }
    }
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

/// The primal, as the macro sees it.
// `jvp` and `hessian` for benches/jvp.rs and benches/second_order.rs.
#[differentiable(jvp, hessian)]
pub fn bond_price(r: &[f64], z: f64, #[constant] cf: &[f64], #[constant] t: &[f64]) -> f64 {
    let mut p = 0.0;
    for i in 0..cf.len() {
        p += cf[i] * (-(r[i] + z) * t[i]).exp();
    }
    p
}

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    bond_price(&inp.r, inp.z, &inp.cf, &inp.t)
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> (f64, Vec<f64>, f64) {
    bond_price_grad(&inp.r, inp.z, &inp.cf, &inp.t)
}

/// The caller's buffers of the accumulating contenders: (∂P/∂r, ∂P/∂z).
pub type Buffers = (Vec<f64>, f64);

/// Zeroed buffers for `inp`.
pub fn buffers(inp: &Inputs) -> Buffers {
    (vec![0.0; inp.r.len()], 0.0)
}

/// The buffers flattened, `[∂P/∂r.., ∂P/∂z]`.
pub fn flatten((dr, dz): &Buffers) -> Vec<f64> {
    let mut all = dr.clone();
    all.push(*dz);
    all
}

/// The macro's gradient added into the caller's buffers (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, (dr, dz): &mut Buffers) -> f64 {
    bond_price_grad_acc(&inp.r, inp.z, &inp.cf, &inp.t, dr, dz)
}

/// By hand into the caller's buffers, in one pass:
/// ∂P/∂rᵢ = −tᵢ·cfᵢ·e^(−(rᵢ+z)tᵢ), ∂P/∂z = Σᵢ ∂P/∂rᵢ.
pub fn hand_acc(inp: &Inputs, (dr, dz): &mut Buffers) -> f64 {
    assert_eq!(dr.len(), inp.r.len(), "a buffer of the curve's length");
    let (mut p, mut sum) = (0.0, 0.0);
    for (((d, &r), &cf), &t) in dr.iter_mut().zip(&inp.r).zip(&inp.cf).zip(&inp.t) {
        let pv = cf * (-(r + inp.z) * t).exp();
        p += pv;
        let g = -t * pv;
        *d += g;
        sum += g;
    }
    *dz += sum;
    p
}

/// By hand: [`hand_acc`] into fresh zeroed buffers.
pub fn hand(inp: &Inputs) -> (f64, Vec<f64>, f64) {
    let mut b = buffers(inp);
    let p = hand_acc(inp, &mut b);
    (p, b.0, b.1)
}

fn graph_impl(inp: &Inputs) -> Result<(f64, Vec<f64>, f64), GraphError> {
    let mut g = Graph::new();
    let rs: Vec<_> = inp.r.iter().map(|&v| g.input(v)).collect();
    let z = g.input(inp.z);
    let zero = g.input(0.0);
    let mut p = zero;
    for i in 0..inp.cf.len() {
        let rz = g.add(rs[i], z)?;
        let t = g.input(inp.t[i]);
        let rzt = g.mul(rz, t)?;
        let minus = g.sub(zero, rzt)?;
        let e = g.exp(minus)?;
        let cf = g.input(inp.cf[i]);
        let pv = g.mul(cf, e)?;
        p = g.add(p, pv)?;
    }
    let value = g.value(p)?.as_scalar().unwrap_or(f64::NAN);
    let grads = g.backward(p)?;
    let dr = rs
        .iter()
        .map(|&id| grads.scalar(id).unwrap_or(f64::NAN))
        .collect();
    Ok((value, dr, grads.scalar(z).unwrap_or(f64::NAN)))
}

/// The dynamic graph, recorded on every call.
pub fn graph(inp: &Inputs) -> (f64, Vec<f64>, f64) {
    graph_impl(inp).expect("the graph records the bond price")
}

/// Central differences: 122 primal calls.
pub fn fd(inp: &Inputs) -> (f64, Vec<f64>, f64) {
    let dr = fd_slice(|r| bond_price(r, inp.z, &inp.cf, &inp.t), &inp.r);
    let dz = fd_scalar(|z| bond_price(&inp.r, z, &inp.cf, &inp.t), inp.z);
    (primal(inp), dr, dz)
}

/// The primal, generic over num-dual's numbers.
pub fn bond_price_generic<T: DualNum<f64> + Copy>(r: &[T], z: T, cf: &[f64], t: &[f64]) -> T {
    let mut p = T::from(0.0);
    for i in 0..cf.len() {
        p += (-(r[i] + z) * t[i]).exp() * cf[i];
    }
    p
}

/// Forward mode: 61 passes with `Dual64`.
pub fn dual(inp: &Inputs) -> (f64, Vec<f64>, f64) {
    let mut r: Vec<Dual64> = inp.r.iter().map(|&v| Dual64::from_re(v)).collect();
    let z = Dual64::from_re(inp.z);
    let mut dr = Vec::with_capacity(r.len());
    for i in 0..r.len() {
        r[i].eps = 1.0;
        dr.push(bond_price_generic(&r, z, &inp.cf, &inp.t).eps);
        r[i].eps = 0.0;
    }
    let y = bond_price_generic(&r, Dual64::new(inp.z, 1.0), &inp.cf, &inp.t);
    (y.re, dr, y.eps)
}

/// Every contender's value and gradient, `[∂P/∂r.., ∂P/∂z]`.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, mut dr, dz): (f64, Vec<f64>, f64)| {
        dr.push(dz);
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
