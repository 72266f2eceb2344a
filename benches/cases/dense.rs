//! A dense layer's activation sum, `sum(tanh(W·x + b))` with W 32×32,
//! differentiated in W, x and b (1088 inputs): once written with scalar
//! loops over slices ([`loops`], W flattened row by row) and once with
//! nalgebra ([`matrix`]).

use super::{Tolerances, lcg_vec};

/// Sums of 32 products in different orders for the exact methods.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-12,
    rel: 1e-10,
    fd_abs: 1e-8,
    fd_rel: 1e-6,
};

/// Rows and columns of W.
pub const SIZE: usize = 32;

/// W (row-major), x and b: the same numbers for both forms.
fn raw() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    (
        lcg_vec(SIZE * SIZE, 11, -0.3, 0.3),
        lcg_vec(SIZE, 12, -1.0, 1.0),
        lcg_vec(SIZE, 13, -0.5, 0.5),
    )
}

/// The layer written with scalar loops over slices.
pub mod loops {
    use autograd::differentiable;
    use autograd::graph::{Graph, GraphError};
    use num_dual::{Dual64, DualNum};

    use super::super::{Flat, fd_slice};

    /// The case's inputs.
    pub struct Inputs {
        /// W, row by row (`w[i·n + j]` is row i, column j).
        pub w: Vec<f64>,
        /// The input vector.
        pub x: Vec<f64>,
        /// The bias.
        pub b: Vec<f64>,
    }

    impl Inputs {
        /// The deterministic 32×32 layer.
        pub fn new() -> Inputs {
            let (w, x, b) = super::raw();
            Inputs { w, x, b }
        }
    }

    impl Default for Inputs {
        fn default() -> Inputs {
            Inputs::new()
        }
    }

    /// The primal, as the macro sees it.
    #[differentiable(jvp)]
    pub fn dense_loops(w: &[f64], x: &[f64], b: &[f64]) -> f64 {
        let n = x.len();
        let mut s = 0.0;
        for i in 0..b.len() {
            let mut acc = b[i];
            for j in 0..n {
                acc += w[i * n + j] * x[j];
            }
            s += acc.tanh();
        }
        s
    }

    /// The gradient as (value, dW, dx, db).
    pub type Grad = (f64, Vec<f64>, Vec<f64>, Vec<f64>);

    /// The value.
    pub fn primal(inp: &Inputs) -> f64 {
        dense_loops(&inp.w, &inp.x, &inp.b)
    }

    /// The macro's gradient.
    pub fn ours(inp: &Inputs) -> Grad {
        dense_loops_grad(&inp.w, &inp.x, &inp.b)
    }

    /// The caller's buffers of the accumulating contenders: (dW, dx, db).
    pub type Buffers = (Vec<f64>, Vec<f64>, Vec<f64>);

    /// Zeroed buffers for `inp`.
    pub fn buffers(inp: &Inputs) -> Buffers {
        (
            vec![0.0; inp.w.len()],
            vec![0.0; inp.x.len()],
            vec![0.0; inp.b.len()],
        )
    }

    /// The buffers flattened, `[dW (row-major).., dx.., db..]`.
    pub fn flatten((dw, dx, db): &Buffers) -> Vec<f64> {
        [&dw[..], dx, db].concat()
    }

    /// The macro's gradient added into the caller's buffers (`_grad_acc`).
    pub fn ours_acc(inp: &Inputs, (dw, dx, db): &mut Buffers) -> f64 {
        dense_loops_grad_acc(&inp.w, &inp.x, &inp.b, dw, dx, db)
    }

    /// By hand into the caller's buffers, in one pass over the rows: with
    /// dᵢ = 1 − tanh²(aᵢ), ∂/∂bᵢ = dᵢ, ∂/∂Wᵢⱼ = dᵢ·xⱼ and
    /// ∂/∂xⱼ = Σᵢ dᵢ·Wᵢⱼ.
    pub fn hand_acc(inp: &Inputs, (dw, dx, db): &mut Buffers) -> f64 {
        let n = inp.x.len();
        assert!(
            dw.len() == inp.w.len() && dx.len() == n && db.len() == inp.b.len(),
            "buffers of the arguments' lengths"
        );
        let mut s = 0.0;
        for (((row, drow), &bi), dbi) in inp
            .w
            .chunks_exact(n)
            .zip(dw.chunks_exact_mut(n))
            .zip(&inp.b)
            .zip(db.iter_mut())
        {
            let acc = row.iter().zip(&inp.x).fold(bi, |acc, (w, x)| acc + w * x);
            let h = acc.tanh();
            s += h;
            let d = 1.0 - h * h;
            *dbi += d;
            for (((dwij, &wij), &xj), dxj) in
                drow.iter_mut().zip(row).zip(&inp.x).zip(dx.iter_mut())
            {
                *dwij += d * xj;
                *dxj += d * wij;
            }
        }
        s
    }

    /// By hand: [`hand_acc`] into fresh zeroed buffers.
    pub fn hand(inp: &Inputs) -> Grad {
        let mut b = buffers(inp);
        let s = hand_acc(inp, &mut b);
        (s, b.0, b.1, b.2)
    }

    fn graph_impl(inp: &Inputs) -> Result<Grad, GraphError> {
        let mut g = Graph::new();
        let n = inp.x.len();
        let w: Vec<_> = inp.w.iter().map(|&v| g.input(v)).collect();
        let x: Vec<_> = inp.x.iter().map(|&v| g.input(v)).collect();
        let b: Vec<_> = inp.b.iter().map(|&v| g.input(v)).collect();
        let mut s = g.input(0.0);
        for i in 0..b.len() {
            let mut acc = b[i];
            for j in 0..n {
                let wx = g.mul(w[i * n + j], x[j])?;
                acc = g.add(acc, wx)?;
            }
            let h = g.tanh(acc)?;
            s = g.add(s, h)?;
        }
        let value = g.value(s)?.as_scalar().unwrap_or(f64::NAN);
        let grads = g.backward(s)?;
        let read = |ids: &[_]| -> Vec<f64> {
            ids.iter()
                .map(|&id| grads.scalar(id).unwrap_or(f64::NAN))
                .collect()
        };
        Ok((value, read(&w), read(&x), read(&b)))
    }

    /// The dynamic graph (scalar nodes), recorded on every call.
    pub fn graph(inp: &Inputs) -> Grad {
        graph_impl(inp).expect("the graph records the layer")
    }

    /// Central differences: 2176 primal calls.
    pub fn fd(inp: &Inputs) -> Grad {
        (
            primal(inp),
            fd_slice(|w| dense_loops(w, &inp.x, &inp.b), &inp.w),
            fd_slice(|x| dense_loops(&inp.w, x, &inp.b), &inp.x),
            fd_slice(|b| dense_loops(&inp.w, &inp.x, b), &inp.b),
        )
    }

    /// The primal, generic over num-dual's numbers.
    pub fn dense_loops_generic<T: DualNum<f64> + Copy>(w: &[T], x: &[T], b: &[T]) -> T {
        let n = x.len();
        let mut s = T::from(0.0);
        for i in 0..b.len() {
            let mut acc = b[i];
            for j in 0..n {
                acc += w[i * n + j] * x[j];
            }
            s += acc.tanh();
        }
        s
    }

    /// Forward mode: 1088 passes with `Dual64`.
    pub fn dual(inp: &Inputs) -> Grad {
        let lift = |v: &[f64]| -> Vec<Dual64> { v.iter().map(|&v| Dual64::from_re(v)).collect() };
        let (mut w, mut x, mut b) = (lift(&inp.w), lift(&inp.x), lift(&inp.b));
        let value = dense_loops_generic(&w, &x, &b).re;
        let mut dw = Vec::with_capacity(w.len());
        for k in 0..w.len() {
            w[k].eps = 1.0;
            dw.push(dense_loops_generic(&w, &x, &b).eps);
            w[k].eps = 0.0;
        }
        let mut dx = Vec::with_capacity(x.len());
        for k in 0..x.len() {
            x[k].eps = 1.0;
            dx.push(dense_loops_generic(&w, &x, &b).eps);
            x[k].eps = 0.0;
        }
        let mut db = Vec::with_capacity(b.len());
        for k in 0..b.len() {
            b[k].eps = 1.0;
            db.push(dense_loops_generic(&w, &x, &b).eps);
            b[k].eps = 0.0;
        }
        (value, dw, dx, db)
    }

    /// Every contender's value and gradient, `[dW (row-major).., dx.., db..]`.
    pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
        let flat = |name, (v, mut dw, dx, db): Grad| {
            dw.extend(dx);
            dw.extend(db);
            Flat::new(name, v, dw)
        };
        vec![
            Flat::new("primal", primal(inp), Vec::new()),
            flat("ours", ours(inp)),
            flat("hand", hand(inp)),
            super::super::accumulated("ours_acc", inp, buffers, ours_acc, flatten),
            super::super::accumulated("hand_acc", inp, buffers, hand_acc, flatten),
            flat("graph", graph(inp)),
            flat("fd", fd(inp)),
            flat("dual", dual(inp)),
        ]
    }
}

/// The layer written with nalgebra.
pub mod matrix {
    use autograd::differentiable;
    use autograd::graph::{Graph, GraphError};
    use nalgebra::{DMatrix, DVector};
    use num_dual::{Dual64, DualNum};

    use super::super::{Flat, fd_slice};
    use super::SIZE;

    /// The case's inputs.
    pub struct Inputs {
        /// W.
        pub w: DMatrix<f64>,
        /// The input vector.
        pub x: DVector<f64>,
        /// The bias.
        pub b: DVector<f64>,
    }

    impl Inputs {
        /// The deterministic 32×32 layer (the same numbers as [`super::loops`]).
        pub fn new() -> Inputs {
            let (w, x, b) = super::raw();
            Inputs {
                w: DMatrix::from_row_slice(SIZE, SIZE, &w),
                x: DVector::from_vec(x),
                b: DVector::from_vec(b),
            }
        }
    }

    impl Default for Inputs {
        fn default() -> Inputs {
            Inputs::new()
        }
    }

    /// The primal, as the macro sees it.
    #[differentiable(jvp)]
    pub fn dense_nalgebra(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
        (w * x + b).map(f64::tanh).sum()
    }

    /// The gradient as (value, dW, dx, db).
    pub type Grad = (f64, DMatrix<f64>, DVector<f64>, DVector<f64>);

    /// The value.
    pub fn primal(inp: &Inputs) -> f64 {
        dense_nalgebra(&inp.w, &inp.x, &inp.b)
    }

    /// The macro's gradient.
    pub fn ours(inp: &Inputs) -> Grad {
        dense_nalgebra_grad(&inp.w, &inp.x, &inp.b)
    }

    /// By hand with nalgebra's in-place kernels: a = b + W·x (`gemv`),
    /// d = 1 − tanh²(a) in place, dW = d·xᵀ (`ger`), dx = Wᵀ·d (`tr_mul`),
    /// db = d.
    pub fn hand(inp: &Inputs) -> Grad {
        let mut d = inp.b.clone();
        let s = activation_adjoint(inp, &mut d);
        let mut dw = DMatrix::zeros(inp.w.nrows(), inp.w.ncols());
        dw.ger(1.0, &d, &inp.x, 0.0);
        let dx = inp.w.tr_mul(&d);
        (s, dw, dx, d)
    }

    /// `d ← 1 − tanh²(d + W·x)`, for `d` holding b; the layer's value.
    fn activation_adjoint(inp: &Inputs, d: &mut DVector<f64>) -> f64 {
        d.gemv(1.0, &inp.w, &inp.x, 1.0);
        let mut s = 0.0;
        d.apply(|a| {
            let h = a.tanh();
            s += h;
            *a = 1.0 - h * h;
        });
        s
    }

    /// The caller's buffers of the accumulating contenders: dW, dx, db and
    /// a scratch vector for the hand-written gradient's dᵢ (a caller who
    /// cares about allocation keeps that too).
    pub struct Buffers {
        pub dw: DMatrix<f64>,
        pub dx: DVector<f64>,
        pub db: DVector<f64>,
        pub scratch: DVector<f64>,
    }

    /// Zeroed buffers for `inp`.
    pub fn buffers(inp: &Inputs) -> Buffers {
        Buffers {
            dw: DMatrix::zeros(inp.w.nrows(), inp.w.ncols()),
            dx: DVector::zeros(inp.x.len()),
            db: DVector::zeros(inp.b.len()),
            scratch: DVector::zeros(inp.b.len()),
        }
    }

    /// The buffers flattened, `[dW (column-major).., dx.., db..]`.
    pub fn flatten(b: &Buffers) -> Vec<f64> {
        [b.dw.as_slice(), b.dx.as_slice(), b.db.as_slice()].concat()
    }

    /// The macro's gradient added into the caller's buffers (`_grad_acc`).
    pub fn ours_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
        dense_nalgebra_grad_acc(&inp.w, &inp.x, &inp.b, &mut b.dw, &mut b.dx, &mut b.db)
    }

    /// By hand into the caller's buffers, allocating nothing: [`hand`]'s
    /// kernels with β = 1 (`ger`, `gemv_tr`) and d in the scratch vector.
    pub fn hand_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
        b.scratch.copy_from(&inp.b);
        let s = activation_adjoint(inp, &mut b.scratch);
        b.dw.ger(1.0, &b.scratch, &inp.x, 1.0);
        b.dx.gemv_tr(1.0, &inp.w, &b.scratch, 1.0);
        b.db += &b.scratch;
        s
    }

    fn graph_impl(inp: &Inputs) -> Result<Grad, GraphError> {
        let mut g = Graph::new();
        let w = g.input(inp.w.clone());
        let x = g.input(inp.x.clone());
        let b = g.input(inp.b.clone());
        let wx = g.matmul(w, x)?;
        let a = g.add(wx, b)?;
        let h = g.tanh(a)?;
        let s = g.sum(h)?;
        let value = g.value(s)?.as_scalar().unwrap_or(f64::NAN);
        let grads = g.backward(s)?;
        let m = |id| grads.matrix(id).cloned().unwrap_or_default();
        let (dx, db) = (m(x), m(b));
        Ok((
            value,
            m(w),
            DVector::from_column_slice(dx.as_slice()),
            DVector::from_column_slice(db.as_slice()),
        ))
    }

    /// The dynamic graph (matrix nodes), recorded on every call.
    pub fn graph(inp: &Inputs) -> Grad {
        graph_impl(inp).expect("the graph records the layer")
    }

    /// Central differences: 2176 primal calls.
    pub fn fd(inp: &Inputs) -> Grad {
        let (r, c) = inp.w.shape();
        let dw = fd_slice(
            |w| dense_nalgebra(&DMatrix::from_column_slice(r, c, w), &inp.x, &inp.b),
            inp.w.as_slice(),
        );
        let dx = fd_slice(
            |x| dense_nalgebra(&inp.w, &DVector::from_column_slice(x), &inp.b),
            inp.x.as_slice(),
        );
        let db = fd_slice(
            |b| dense_nalgebra(&inp.w, &inp.x, &DVector::from_column_slice(b)),
            inp.b.as_slice(),
        );
        (
            primal(inp),
            DMatrix::from_vec(r, c, dw),
            DVector::from_vec(dx),
            DVector::from_vec(db),
        )
    }

    /// The primal, generic over num-dual's numbers.
    pub fn dense_nalgebra_generic(
        w: &DMatrix<Dual64>,
        x: &DVector<Dual64>,
        b: &DVector<Dual64>,
    ) -> Dual64 {
        (w * x + b).map(|v| v.tanh()).sum()
    }

    /// Forward mode: 1088 passes with `Dual64` matrices.
    pub fn dual(inp: &Inputs) -> Grad {
        let mut w = inp.w.map(Dual64::from_re);
        let mut x = inp.x.map(Dual64::from_re);
        let mut b = inp.b.map(Dual64::from_re);
        let value = dense_nalgebra_generic(&w, &x, &b).re;
        let mut dw = DMatrix::zeros(w.nrows(), w.ncols());
        for k in 0..w.len() {
            w[k].eps = 1.0;
            dw[k] = dense_nalgebra_generic(&w, &x, &b).eps;
            w[k].eps = 0.0;
        }
        let mut dx = DVector::zeros(x.len());
        for k in 0..x.len() {
            x[k].eps = 1.0;
            dx[k] = dense_nalgebra_generic(&w, &x, &b).eps;
            x[k].eps = 0.0;
        }
        let mut db = DVector::zeros(b.len());
        for k in 0..b.len() {
            b[k].eps = 1.0;
            db[k] = dense_nalgebra_generic(&w, &x, &b).eps;
            b[k].eps = 0.0;
        }
        (value, dw, dx, db)
    }

    /// Every contender's value and gradient, `[dW (column-major).., dx.., db..]`.
    pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
        let flat = |name, (v, dw, dx, db): Grad| {
            let mut all = dw.as_slice().to_vec();
            all.extend_from_slice(dx.as_slice());
            all.extend_from_slice(db.as_slice());
            Flat::new(name, v, all)
        };
        vec![
            Flat::new("primal", primal(inp), Vec::new()),
            flat("ours", ours(inp)),
            flat("hand", hand(inp)),
            super::super::accumulated("ours_acc", inp, buffers, ours_acc, flatten),
            super::super::accumulated("hand_acc", inp, buffers, hand_acc, flatten),
            flat("graph", graph(inp)),
            flat("fd", fd(inp)),
            flat("dual", dual(inp)),
        ]
    }
}
