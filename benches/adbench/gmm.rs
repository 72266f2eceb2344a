//! ADBench's Gaussian mixture model: the log-likelihood of n points under
//! k Gaussians with a Wishart prior on the inverse covariance factors
//! (`src/cpp/shared/gmm.h`), in three forms.
//!
//! - [`gmm_objective`]: the C++ ported as a user ports it, slices in,
//!   local `Vec`s carried through the nested loops, `#[differentiable]`.
//! - [`manual`]: ADBench's Manual gradient (`src/cpp/modules/manual/gmm_d.cpp`),
//!   ported line for line.
//! - [`matrix`]: the objective as a JAX user writes it, dense nalgebra
//!   products over all points and components at once, `#[differentiable]`,
//!   with its own primal (the `gmm_jax.py` beside this file is the same
//!   program in JAX).
//!
//! ADBench's π is `3.14159265359`; the port uses `std::f64::consts::PI`
//! (the constant term shifts by 1e-12 relative, no derivative changes).

use autograd::differentiable;
use autograd::special::ln_gamma;
use std::f64::consts::PI;

use super::data::GmmInput;
use super::{central_differences, compare, sample_coordinates};

/// `log(sum(exp(x)))`, shifted by the maximum (ADBench's `logsumexp`).
#[differentiable]
pub fn logsumexp(x: &[f64]) -> f64 {
    let mut mx = x[0];
    for i in 1..x.len() {
        mx = mx.max(x[i]);
    }
    let mut semx = 0.0;
    for i in 0..x.len() {
        semx += (x[i] - mx).exp();
    }
    semx.ln() + mx
}

/// The log of the multivariate gamma function Γ_p(a) (a constant of the
/// prior: no differentiable argument).
pub fn log_gamma_distrib(a: f64, p: usize) -> f64 {
    let mut out = 0.25 * (p * (p - 1)) as f64 * PI.ln();
    for j in 1..=p {
        out += ln_gamma(a + 0.5 * (1.0 - j as f64));
    }
    out
}

/// ADBench's `log_wishart_prior`, its constant passed in.
#[differentiable]
pub fn log_wishart_prior(
    p: usize,
    k: usize,
    #[constant] gamma: f64,
    m: usize,
    #[constant] c: f64,
    sum_qs: &[f64],
    qdiags: &[f64],
    icf: &[f64],
) -> f64 {
    let icf_sz = p * (p + 1) / 2;
    let mut out = 0.0;
    for ik in 0..k {
        let mut frobenius = 0.0;
        for id in 0..p {
            frobenius += qdiags[ik * p + id] * qdiags[ik * p + id];
        }
        for i in p..icf_sz {
            frobenius += icf[ik * icf_sz + i] * icf[ik * icf_sz + i];
        }
        out += 0.5 * gamma * gamma * frobenius - m as f64 * sum_qs[ik];
    }
    out - k as f64 * c
}

/// The prior's constant: n p (ln γ − ½ ln 2) − ln Γ_p(n/2), n = p + m + 1.
pub fn wishart_constant(p: usize, gamma: f64, m: usize) -> f64 {
    let n = p + m + 1;
    (n * p) as f64 * (gamma.ln() - 0.5 * 2f64.ln()) - log_gamma_distrib(0.5 * n as f64, p)
}

/// ADBench's `gmm_objective`, ported as a user ports it.
#[differentiable]
pub fn gmm_objective(
    d: usize,
    k: usize,
    n: usize,
    alphas: &[f64],
    means: &[f64],
    icf: &[f64],
    #[constant] x: &[f64],
    #[constant] gamma: f64,
    m: usize,
    #[constant] wishart_c: f64,
) -> f64 {
    let constant = -((n * d) as f64) * 0.5 * (2.0 * PI).ln();
    let icf_sz = d * (d + 1) / 2;

    // preprocess_qs
    let mut qdiags = vec![0.0; d * k];
    let mut sum_qs = vec![0.0; k];
    for ik in 0..k {
        for id in 0..d {
            let q = icf[ik * icf_sz + id];
            sum_qs[ik] += q;
            qdiags[ik * d + id] = q.exp();
        }
    }

    let mut xcentered = vec![0.0; d];
    let mut qxcentered = vec![0.0; d];
    let mut main_term = vec![0.0; k];
    let mut slse = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            for id in 0..d {
                xcentered[id] = x[ix * d + id] - means[ik * d + id];
            }
            // Qtimesx: the diagonal, then the strictly lower triangle.
            for id in 0..d {
                qxcentered[id] = qdiags[ik * d + id] * xcentered[id];
            }
            let mut li = ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qxcentered[j] += icf[li] * xcentered[i];
                    li += 1;
                }
            }
            let mut sqnorm = 0.0;
            for id in 0..d {
                sqnorm += qxcentered[id] * qxcentered[id];
            }
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm;
        }
        slse += logsumexp(&main_term);
    }

    let lse_alphas = logsumexp(alphas);
    let err = constant + slse - n as f64 * lse_alphas;
    err + log_wishart_prior(d, k, gamma, m, wishart_c, &sum_qs, &qdiags, icf)
}

/// The value: [`gmm_objective`] on `inp`.
pub fn primal(inp: &GmmInput) -> f64 {
    let c = wishart_constant(inp.d, inp.gamma, inp.m);
    gmm_objective(
        inp.d,
        inp.k,
        inp.n,
        &inp.alphas,
        &inp.means,
        &inp.icf,
        &inp.x,
        inp.gamma,
        inp.m,
        c,
    )
}

/// The macro's gradient, flattened as ADBench's `J`: [α.., means.., icf..].
pub fn ours(inp: &GmmInput) -> (f64, Vec<f64>) {
    let c = wishart_constant(inp.d, inp.gamma, inp.m);
    let (v, da, dm, di) = gmm_objective_grad(
        inp.d,
        inp.k,
        inp.n,
        &inp.alphas,
        &inp.means,
        &inp.icf,
        &inp.x,
        inp.gamma,
        inp.m,
        c,
    );
    (v, [da, dm, di].concat())
}

/// The macro's gradient added into the caller's `j` (zeroed first, as
/// ADBench's Manual does), laid out as ADBench's `J`.
pub fn ours_acc(inp: &GmmInput, j: &mut [f64]) -> f64 {
    let c = wishart_constant(inp.d, inp.gamma, inp.m);
    j.fill(0.0);
    let (da, rest) = j.split_at_mut(inp.k);
    let (dm, di) = rest.split_at_mut(inp.d * inp.k);
    gmm_objective_grad_acc(
        inp.d,
        inp.k,
        inp.n,
        &inp.alphas,
        &inp.means,
        &inp.icf,
        &inp.x,
        inp.gamma,
        inp.m,
        c,
        da,
        dm,
        di,
    )
}

/// ADBench's Manual gradient (`gmm_d.cpp`), ported line for line.
pub mod manual {
    use super::super::data::GmmInput;
    use super::{PI, log_gamma_distrib};

    fn preprocess_qs(d: usize, k: usize, icf: &[f64], sum_qs: &mut [f64], qdiags: &mut [f64]) {
        let icf_sz = d * (d + 1) / 2;
        for ik in 0..k {
            sum_qs[ik] = 0.0;
            for id in 0..d {
                let q = icf[ik * icf_sz + id];
                sum_qs[ik] += q;
                qdiags[ik * d + id] = q.exp();
            }
        }
    }

    fn sqnorm(x: &[f64]) -> f64 {
        let mut res = x[0] * x[0];
        for v in &x[1..] {
            res += v * v;
        }
        res
    }

    fn subtract(x: &[f64], y: &[f64], out: &mut [f64]) {
        for ((o, a), b) in out.iter_mut().zip(x).zip(y) {
            *o = a - b;
        }
    }

    fn q_times_x(d: usize, qdiag: &[f64], ltri: &[f64], x: &[f64], out: &mut [f64]) {
        for id in 0..d {
            out[id] = qdiag[id] * x[id];
        }
        let mut li = 0;
        for i in 0..d {
            for j in i + 1..d {
                out[j] += ltri[li] * x[i];
                li += 1;
            }
        }
    }

    fn q_transpose_times_x(d: usize, ldiag: &[f64], icf: &[f64], x: &[f64], out: &mut [f64]) {
        let mut li = d;
        for i in 0..d {
            out[i] = ldiag[i] * x[i];
        }
        for i in 0..d {
            for j in i + 1..d {
                out[i] += icf[li] * x[j];
                li += 1;
            }
        }
    }

    fn compute_q_inner_term(
        d: usize,
        ldiag: &[f64],
        xcentered: &[f64],
        lxcentered: &[f64],
        out: &mut [f64],
    ) {
        for i in 0..d {
            out[i] = 1.0 - ldiag[i] * xcentered[i] * lxcentered[i];
        }
    }

    fn compute_l_inner_term(d: usize, xcentered: &[f64], lxcentered: &[f64], out: &mut [f64]) {
        let mut li = 0;
        for i in 0..d {
            let n_curr = d - i - 1;
            for j in 0..n_curr {
                out[li] = -xcentered[i] * lxcentered[d - n_curr + j];
                li += 1;
            }
        }
    }

    fn arr_max_idx(x: &[f64]) -> usize {
        let mut mi = 0;
        for i in 1..x.len() {
            if x[mi] < x[i] {
                mi = i;
            }
        }
        mi
    }

    /// The value, and ∂/∂x written into `partial` (which may be `x`'s own
    /// storage in ADBench; here `x` is read before `partial` is written).
    fn logsumexp_d(x: &[f64], partial: &mut [f64]) -> f64 {
        let n = x.len();
        let mi = arr_max_idx(x);
        let mx = x[mi];
        let mut semx = 0.0;
        for i in 0..n {
            partial[i] = (x[i] - mx).exp();
            semx += partial[i];
        }
        if semx == 0.0 {
            partial.fill(0.0);
        } else {
            partial[mi] -= semx;
            for p in partial.iter_mut() {
                *p /= semx;
            }
        }
        partial[mi] += 1.0;
        semx.ln() + mx
    }

    /// In-place form of [`logsumexp_d`], as ADBench calls it on `main_term`.
    fn logsumexp_d_in_place(x: &mut [f64]) -> f64 {
        let n = x.len();
        let mi = arr_max_idx(x);
        let mx = x[mi];
        let mut semx = 0.0;
        for i in 0..n {
            x[i] = (x[i] - mx).exp();
            semx += x[i];
        }
        if semx == 0.0 {
            x.fill(0.0);
        } else {
            x[mi] -= semx;
            for p in x.iter_mut() {
                *p /= semx;
            }
        }
        x[mi] += 1.0;
        semx.ln() + mx
    }

    fn log_wishart_prior(
        p: usize,
        k: usize,
        gamma: f64,
        m: usize,
        sum_qs: &[f64],
        qdiags: &[f64],
        icf: &[f64],
    ) -> f64 {
        let n = p + m + 1;
        let icf_sz = p * (p + 1) / 2;
        let c =
            (n * p) as f64 * (gamma.ln() - 0.5 * 2f64.ln()) - log_gamma_distrib(0.5 * n as f64, p);
        let mut out = 0.0;
        for ik in 0..k {
            let frobenius = sqnorm(&qdiags[ik * p..(ik + 1) * p])
                + sqnorm(&icf[ik * icf_sz + p..(ik + 1) * icf_sz]);
            out += 0.5 * gamma * gamma * frobenius - m as f64 * sum_qs[ik];
        }
        out - k as f64 * c
    }

    /// ADBench's `gmm_objective_d`: the value, and the gradient written
    /// into `j` ([α.., means.., icf..]).
    pub fn gmm_objective_d(inp: &GmmInput, j: &mut [f64]) -> f64 {
        let (d, k, n) = (inp.d, inp.k, inp.n);
        let (alphas, means, icf, x) = (&inp.alphas[..], &inp.means[..], &inp.icf[..], &inp.x[..]);
        let constant = -((n * d) as f64) * 0.5 * (2.0 * PI).ln();
        let icf_sz = d * (d + 1) / 2;

        let mut qdiags = vec![0.0; d * k];
        let mut sum_qs = vec![0.0; k];
        let mut main_term = vec![0.0; k];
        let mut xcentered = vec![0.0; d];
        let mut qxcentered = vec![0.0; d];

        preprocess_qs(d, k, icf, &mut sum_qs, &mut qdiags);

        j[..k + d * k + icf_sz * k].fill(0.0);

        let mut curr_means_d = vec![0.0; d * k];
        let mut curr_q_d = vec![0.0; d * k];
        let mut curr_l_d = vec![0.0; (icf_sz - d) * k];

        let (alphas_d, rest) = j.split_at_mut(k);
        let (means_d, icf_d) = rest.split_at_mut(d * k);

        let mut slse = 0.0;
        for ix in 0..n {
            let curr_x = &x[ix * d..(ix + 1) * d];
            for ik in 0..k {
                let icf_off = ik * icf_sz;
                let qdiag = &qdiags[ik * d..(ik + 1) * d];

                subtract(curr_x, &means[ik * d..(ik + 1) * d], &mut xcentered);
                q_times_x(d, qdiag, &icf[icf_off + d..], &xcentered, &mut qxcentered);
                q_transpose_times_x(
                    d,
                    qdiag,
                    &icf[icf_off..],
                    &qxcentered,
                    &mut curr_means_d[ik * d..(ik + 1) * d],
                );
                compute_q_inner_term(
                    d,
                    qdiag,
                    &xcentered,
                    &qxcentered,
                    &mut curr_q_d[ik * d..(ik + 1) * d],
                );
                compute_l_inner_term(
                    d,
                    &xcentered,
                    &qxcentered,
                    &mut curr_l_d[ik * (icf_sz - d)..(ik + 1) * (icf_sz - d)],
                );
                main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(&qxcentered);
            }
            slse += logsumexp_d_in_place(&mut main_term);
            for ik in 0..k {
                let means_off = ik * d;
                let icf_off = ik * icf_sz;
                alphas_d[ik] += main_term[ik];
                for id in 0..d {
                    means_d[means_off + id] += curr_means_d[means_off + id] * main_term[ik];
                    icf_d[icf_off + id] += curr_q_d[ik * d + id] * main_term[ik];
                }
                for i in d..icf_sz {
                    icf_d[icf_off + i] += curr_l_d[ik * (icf_sz - d) + (i - d)] * main_term[ik];
                }
            }
        }

        let mut lse_alphas_d = vec![0.0; k];
        let lse_alphas = logsumexp_d(alphas, &mut lse_alphas_d);
        let g2 = inp.gamma * inp.gamma;
        for ik in 0..k {
            alphas_d[ik] -= n as f64 * lse_alphas_d[ik];
            for id in 0..d {
                icf_d[ik * icf_sz + id] +=
                    g2 * qdiags[ik * d + id] * qdiags[ik * d + id] - inp.m as f64;
            }
            for i in d..icf_sz {
                icf_d[ik * icf_sz + i] += g2 * icf[ik * icf_sz + i];
            }
        }

        let err = constant + slse - n as f64 * lse_alphas;
        err + log_wishart_prior(d, k, inp.gamma, inp.m, &sum_qs, &qdiags, icf)
    }

    /// [`gmm_objective_d`] into a fresh gradient.
    pub fn gradient(inp: &GmmInput) -> (f64, Vec<f64>) {
        let mut j = vec![0.0; inp.n_params()];
        let v = gmm_objective_d(inp, &mut j);
        (v, j)
    }
}

/// The objective as a JAX user writes it: every point against every
/// component in dense products, as `gmm_jax.py` does with
/// `jnp.einsum`/`@`, reshapes standing for the batch axes (no product is
/// quadratic in k).
///
/// The parameters in this form's own layout, all `DMatrix` (a product of
/// a `DVector` by a `DMatrix` does not compile under the macro today):
/// `alphas` (k×1), `means` (d×k, a column per component), `qlog` (d·k × 1,
/// the diagonal logs component after component) and `ltri` (k·d × d, the k lower-triangular factors stacked,
/// only the strictly lower part used). [`MatrixInput::from_adbench`] maps
/// ADBench's arrays in and [`MatrixInput::flatten`] maps a gradient back.
pub mod matrix {
    use autograd::differentiable;
    use nalgebra::{DMatrix, Dyn};

    use super::super::data::GmmInput;
    use super::{PI, wishart_constant};

    /// The data and the constant selection matrices of one instance.
    pub struct MatrixInput {
        /// The parameters: k×1.
        pub alphas: DMatrix<f64>,
        /// d×k.
        pub means: DMatrix<f64>,
        /// d·k × 1.
        pub qlog: DMatrix<f64>,
        /// k·d × d.
        pub ltri: DMatrix<f64>,
        /// The points, d×n.
        pub x: DMatrix<f64>,
        /// k·d × d: k identities stacked.
        pub eye_stack: DMatrix<f64>,
        /// k·d × d: ones strictly below each block's diagonal.
        pub lower_mask: DMatrix<f64>,
        /// k·d × k: row k·d + i has its one in column k (block sums).
        pub blocks: DMatrix<f64>,
        /// 1×d, 1×n and 1×k rows of ones.
        pub ones_d: DMatrix<f64>,
        /// 1×n.
        pub ones_n: DMatrix<f64>,
        /// Wishart γ, m and the prior's constant.
        pub gamma: f64,
        /// Wishart m.
        pub m: usize,
        /// The prior's constant.
        pub wishart_c: f64,
    }

    impl MatrixInput {
        /// ADBench's arrays in this form's layout.
        pub fn from_adbench(inp: &GmmInput) -> MatrixInput {
            let (d, k, n) = (inp.d, inp.k, inp.n);
            let icf_sz = inp.icf_sz();
            let mut qlog = DMatrix::zeros(d * k, 1);
            let mut ltri = DMatrix::zeros(k * d, d);
            let mut eye_stack = DMatrix::zeros(k * d, d);
            let mut lower_mask = DMatrix::zeros(k * d, d);
            let mut blocks = DMatrix::zeros(k * d, k);
            for ik in 0..k {
                let icf = &inp.icf[ik * icf_sz..(ik + 1) * icf_sz];
                let mut li = d;
                for i in 0..d {
                    qlog[(ik * d + i, 0)] = icf[i];
                    eye_stack[(ik * d + i, i)] = 1.0;
                    blocks[(ik * d + i, ik)] = 1.0;
                    for j in i + 1..d {
                        ltri[(ik * d + j, i)] = icf[li];
                        lower_mask[(ik * d + j, i)] = 1.0;
                        li += 1;
                    }
                }
            }
            MatrixInput {
                alphas: DMatrix::from_column_slice(k, 1, &inp.alphas),
                means: DMatrix::from_column_slice(d, k, &inp.means),
                qlog,
                ltri,
                x: DMatrix::from_column_slice(d, n, &inp.x),
                eye_stack,
                lower_mask,
                blocks,
                ones_d: DMatrix::from_element(1, d, 1.0),
                ones_n: DMatrix::from_element(1, n, 1.0),
                gamma: inp.gamma,
                m: inp.m,
                wishart_c: wishart_constant(d, inp.gamma, inp.m),
            }
        }

        /// A gradient in this layout, flattened as ADBench's `J`.
        pub fn flatten(
            &self,
            da: &DMatrix<f64>,
            dm: &DMatrix<f64>,
            dq: &DMatrix<f64>,
            dl: &DMatrix<f64>,
        ) -> Vec<f64> {
            let (d, k) = (self.means.nrows(), self.means.ncols());
            let icf_sz = d * (d + 1) / 2;
            let mut j = Vec::with_capacity(k + d * k + icf_sz * k);
            j.extend(da.iter());
            j.extend(dm.iter());
            for ik in 0..k {
                for i in 0..d {
                    j.push(dq[(ik * d + i, 0)]);
                }
                for i in 0..d {
                    for jj in i + 1..d {
                        j.push(dl[(ik * d + jj, i)]);
                    }
                }
            }
            j
        }
    }

    /// The GMM objective in dense products: L (k·d × d, the k factors
    /// stacked) times the points gives every component's Lx at once.
    #[differentiable]
    pub fn gmm_matrix(
        alphas: &DMatrix<f64>,
        means: &DMatrix<f64>,
        qlog: &DMatrix<f64>,
        ltri: &DMatrix<f64>,
        #[constant] x: &DMatrix<f64>,
        #[constant] eye_stack: &DMatrix<f64>,
        #[constant] lower_mask: &DMatrix<f64>,
        #[constant] blocks: &DMatrix<f64>,
        #[constant] ones_d: &DMatrix<f64>,
        #[constant] ones_n: &DMatrix<f64>,
        #[constant] gamma: f64,
        m: usize,
        #[constant] wishart_c: f64,
    ) -> f64 {
        let d = x.nrows();
        let n = x.ncols();
        let k = alphas.nrows();
        let qdiag = qlog.map(|v| v.exp());
        // Each block k: diag(exp(q_k)) + its strictly lower triangle.
        let l = (&qdiag * ones_d).component_mul(eye_stack) + ltri.component_mul(lower_mask);
        // μ_kᵀ repeated down block k: the means' transpose laid out as
        // one row, under a column of ones, read back as k·d × d.
        let mu_rep = (ones_d.transpose() * means.transpose().reshape_generic(Dyn(1), Dyn(k * d)))
            .reshape_generic(Dyn(k * d), Dyn(d));
        // L_k μ_k for every k, then L_k (x_j − μ_k) for every k and j.
        let l_mu = l.component_mul(&mu_rep) * ones_d.transpose();
        let lx = &l * x - &l_mu * ones_n;
        // Each block's squared norm: the d rows of a block read as a
        // column, summed, read back as k × n.
        let sq = (ones_d * lx.component_mul(&lx).reshape_generic(Dyn(d), Dyn(k * n)))
            .reshape_generic(Dyn(k), Dyn(n));
        let sum_qs = blocks.transpose() * qlog;
        let main = (alphas + &sum_qs) * ones_n - sq * 0.5;
        // logsumexp over the components, point by point.
        let mut slse = 0.0;
        for j in 0..n {
            let mut mx = main[(0, j)];
            for i in 1..k {
                mx = mx.max(main[(i, j)]);
            }
            let mut s = 0.0;
            for i in 0..k {
                s += (main[(i, j)] - mx).exp();
            }
            slse += s.ln() + mx;
        }
        let mut amx = alphas[(0, 0)];
        for i in 1..k {
            amx = amx.max(alphas[(i, 0)]);
        }
        let mut sa = 0.0;
        for i in 0..k {
            sa += (alphas[(i, 0)] - amx).exp();
        }
        let lse_alphas = sa.ln() + amx;
        let constant = -((n * d) as f64) * 0.5 * (2.0 * PI).ln();
        let frobenius = qdiag.norm_squared() + ltri.component_mul(lower_mask).norm_squared();
        let prior =
            0.5 * gamma * gamma * frobenius - m as f64 * sum_qs.sum() - k as f64 * wishart_c;
        constant + slse - n as f64 * lse_alphas + prior
    }

    /// The value.
    pub fn primal(mi: &MatrixInput) -> f64 {
        gmm_matrix(
            &mi.alphas,
            &mi.means,
            &mi.qlog,
            &mi.ltri,
            &mi.x,
            &mi.eye_stack,
            &mi.lower_mask,
            &mi.blocks,
            &mi.ones_d,
            &mi.ones_n,
            mi.gamma,
            mi.m,
            mi.wishart_c,
        )
    }

    /// The macro's gradient, in this form's layout.
    pub fn ours(mi: &MatrixInput) -> (f64, DMatrix<f64>, DMatrix<f64>, DMatrix<f64>, DMatrix<f64>) {
        gmm_matrix_grad(
            &mi.alphas,
            &mi.means,
            &mi.qlog,
            &mi.ltri,
            &mi.x,
            &mi.eye_stack,
            &mi.lower_mask,
            &mi.blocks,
            &mi.ones_d,
            &mi.ones_n,
            mi.gamma,
            mi.m,
            mi.wishart_c,
        )
    }

    /// The macro's gradient, flattened as ADBench's `J`.
    pub fn ours_flat(mi: &MatrixInput) -> (f64, Vec<f64>) {
        let (v, da, dm, dq, dl) = ours(mi);
        (v, mi.flatten(&da, &dm, &dq, &dl))
    }
}

/// Tolerance of the exact contenders against Manual, relative to the
/// largest gradient entry (sums of n·k terms in different orders).
pub const EXACT_REL: f64 = 1e-9;

/// Checks every contender against ADBench's Manual gradient (entry by
/// entry, to `EXACT_REL` of the largest entry plus `EXACT_REL` relative)
/// and Manual against central differences of the primal in up to
/// `fd_coords` coordinates (to 1e-6 of |f| + max|g| plus 1e-5 relative:
/// the step's truncation and the value's rounding).
pub fn check(inp: &GmmInput, fd_coords: usize) -> Result<(), String> {
    let (mv, mg) = manual::gradient(inp);
    let scale = mg.iter().fold(0.0f64, |a, g| a.max(g.abs()));
    let value_tol = 1e-12 * mv.abs().max(1.0);
    let pv = primal(inp);
    if (pv - mv).abs() > value_tol {
        return Err(format!("primal {pv} differs from Manual's value {mv}"));
    }
    let (ov, og) = ours(inp);
    if (ov - pv).abs() > value_tol {
        return Err(format!("_grad's value {ov} differs from the primal's {pv}"));
    }
    compare("_grad vs Manual", &og, &mg, EXACT_REL * scale, EXACT_REL)?;
    let mut j = vec![0.0; inp.n_params()];
    ours_acc(inp, &mut j);
    compare("_grad_acc vs Manual", &j, &mg, EXACT_REL * scale, EXACT_REL)?;
    let mi = matrix::MatrixInput::from_adbench(inp);
    let xv = matrix::primal(&mi);
    if (xv - pv).abs() > 1e-10 * pv.abs().max(1.0) {
        return Err(format!(
            "the matrix form's value {xv} differs from the loops' {pv}"
        ));
    }
    let (xgv, xg) = matrix::ours_flat(&mi);
    if (xgv - xv).abs() > value_tol {
        return Err(format!(
            "the matrix form's _grad value {xgv} differs from its primal's {xv}"
        ));
    }
    compare(
        "matrix _grad vs Manual",
        &xg,
        &mg,
        EXACT_REL * scale,
        EXACT_REL,
    )?;

    let params = [&inp.alphas[..], &inp.means, &inp.icf].concat();
    let which = sample_coordinates(params.len(), fd_coords);
    let (k, dk) = (inp.k, inp.d * inp.k);
    let mut probe = inp.clone();
    let fd = central_differences(&params, &which, |p| {
        probe.alphas.copy_from_slice(&p[..k]);
        probe.means.copy_from_slice(&p[k..k + dk]);
        probe.icf.copy_from_slice(&p[k + dk..]);
        primal(&probe)
    });
    let picked: Vec<f64> = which.iter().map(|&i| mg[i]).collect();
    compare(
        "Manual vs central differences",
        &picked,
        &fd,
        1e-6 * (pv.abs() + scale),
        1e-5,
    )
}
