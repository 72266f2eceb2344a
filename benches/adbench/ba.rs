//! ADBench's bundle adjustment (`src/cpp/shared/ba.h`): for every
//! observation the reprojection error of a point through a camera
//! (Rodrigues rotation, perspective division, radial distortion, focal
//! length and principal point) scaled by the observation's weight, and the
//! weight error 1 − w²; the derivative wanted is the whole sparse Jacobian
//! (2p + p rows, 11n + 3m + p columns), assembled in ADBench's `BASparseMat`
//! (compressed rows).
//!
//! - [`compute_reproj_error`], [`compute_zach_weight_error`]: the C++
//!   ported as a user ports it, slice arguments, `#[differentiable]`; the
//!   Jacobian of each 2×15 block from `compute_reproj_error_jacobian`.
//! - [`ours_acc`]: the same blocks from `compute_reproj_error_jacobian_acc`
//!   into one reused 2×15 matrix, as Manual reuses its block.
//! - [`manual`]: ADBench's Manual Jacobian (`src/cpp/modules/manual/ba_d.cpp`).

use autograd::differentiable;
use autograd::nalgebra::DMatrix;

use super::data::{BA_NCAMPARAMS, BaInput};
use super::{central_differences, compare, sample_coordinates};

/// Σ xᵢ².
#[differentiable]
pub fn sqsum(x: &[f64]) -> f64 {
    let mut res = 0.0;
    for i in 0..x.len() {
        res += x[i] * x[i];
    }
    res
}

/// a × b.
#[differentiable]
pub fn cross(a: &[f64], b: &[f64]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `pt` rotated by the angle-axis vector `rot` (Rodrigues' formula, the
/// Ceres form ADBench uses).
#[differentiable]
pub fn rodrigues_rotate_point(rot: &[f64], pt: &[f64]) -> [f64; 3] {
    let sqtheta = sqsum(rot);
    if sqtheta != 0.0 {
        let theta = sqtheta.sqrt();
        let costheta = theta.cos();
        let sintheta = theta.sin();
        let theta_inverse = 1.0 / theta;
        let w = [
            rot[0] * theta_inverse,
            rot[1] * theta_inverse,
            rot[2] * theta_inverse,
        ];
        let w_cross_pt = cross(&w, pt);
        let tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - costheta);
        [
            pt[0] * costheta + w_cross_pt[0] * sintheta + w[0] * tmp,
            pt[1] * costheta + w_cross_pt[1] * sintheta + w[1] * tmp,
            pt[2] * costheta + w_cross_pt[2] * sintheta + w[2] * tmp,
        ]
    } else {
        let rot_cross_pt = cross(rot, pt);
        [
            pt[0] + rot_cross_pt[0],
            pt[1] + rot_cross_pt[1],
            pt[2] + rot_cross_pt[2],
        ]
    }
}

/// `proj` scaled by 1 + k₁r² + k₂r⁴.
#[differentiable]
pub fn radial_distort(rad_params: &[f64], proj: &[f64]) -> [f64; 2] {
    let rsq = sqsum(proj);
    let l = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    [proj[0] * l, proj[1] * l]
}

/// The point `x` seen by camera `cam`, in pixels (as ADBench's C++,
/// which passes `&cam[BA_ROT_IDX]` and `&cam[BA_RAD_IDX]`).
#[differentiable]
pub fn project(cam: &[f64], x: &[f64]) -> [f64; 2] {
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let xcam = rodrigues_rotate_point(&cam[0..3], &xo);
    let proj = [xcam[0] / xcam[2], xcam[1] / xcam[2]];
    let distorted = radial_distort(&cam[9..11], &proj);
    [
        distorted[0] * cam[6] + cam[7],
        distorted[1] * cam[6] + cam[8],
    ]
}

/// One observation's weighted reprojection error.
#[differentiable]
pub fn compute_reproj_error(cam: &[f64], x: &[f64], w: f64, #[constant] feat: &[f64]) -> [f64; 2] {
    let proj = project(cam, x);
    [w * (proj[0] - feat[0]), w * (proj[1] - feat[1])]
}

/// One observation's weight error.
#[differentiable]
pub fn compute_zach_weight_error(w: f64) -> f64 {
    1.0 - w * w
}

/// ADBench's `ba_objective`: the reprojection errors and the weight errors.
pub fn primal(inp: &BaInput, reproj_err: &mut [f64], w_err: &mut [f64]) {
    for i in 0..inp.p {
        let ci = inp.obs[2 * i];
        let pi = inp.obs[2 * i + 1];
        let e = compute_reproj_error(
            &inp.cams[ci * BA_NCAMPARAMS..(ci + 1) * BA_NCAMPARAMS],
            &inp.x[pi * 3..pi * 3 + 3],
            inp.w[i],
            &inp.feats[2 * i..2 * i + 2],
        );
        reproj_err[2 * i] = e[0];
        reproj_err[2 * i + 1] = e[1];
    }
    for i in 0..inp.p {
        w_err[i] = compute_zach_weight_error(inp.w[i]);
    }
}

/// ADBench's `BASparseMat`: the Jacobian in compressed rows.
#[derive(Clone, Debug, PartialEq)]
pub struct BaSparseMat {
    /// Cameras, points, observations.
    pub n: usize,
    /// Points.
    pub m: usize,
    /// Observations.
    pub p: usize,
    /// Row starts (nrows + 1).
    pub rows: Vec<usize>,
    /// Column of each stored entry.
    pub cols: Vec<usize>,
    /// Value of each stored entry.
    pub vals: Vec<f64>,
}

impl BaSparseMat {
    /// An empty matrix with room for every entry.
    pub fn new(n: usize, m: usize, p: usize) -> BaSparseMat {
        let nnz = (BA_NCAMPARAMS + 3 + 1) * 2 * p + p;
        let mut rows = Vec::with_capacity(3 * p + 1);
        rows.push(0);
        BaSparseMat {
            n,
            m,
            p,
            rows,
            cols: Vec::with_capacity(nnz),
            vals: Vec::with_capacity(nnz),
        }
    }

    /// Empties the matrix, keeping its storage.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.rows.push(0);
        self.cols.clear();
        self.vals.clear();
    }

    /// Appends observation `obs`'s two rows from a 2×15 block `j`
    /// (column-major: camera 11, point 3, weight 1).
    pub fn insert_reproj_err_block(&mut self, obs: usize, cam: usize, pt: usize, j: &[f64]) {
        let n_new_cols = BA_NCAMPARAMS + 3 + 1;
        let last = *self.rows.last().unwrap();
        self.rows.push(last + n_new_cols);
        self.rows.push(last + 2 * n_new_cols);
        for i_row in 0..2 {
            for i in 0..BA_NCAMPARAMS {
                self.cols.push(BA_NCAMPARAMS * cam + i);
                self.vals.push(j[2 * i + i_row]);
            }
            let col_offset = BA_NCAMPARAMS * self.n;
            let val_offset = BA_NCAMPARAMS * 2;
            for i in 0..3 {
                self.cols.push(col_offset + 3 * pt + i);
                self.vals.push(j[val_offset + 2 * i + i_row]);
            }
            self.cols.push(col_offset + 3 * self.m + obs);
            self.vals.push(j[val_offset + 6 + i_row]);
        }
    }

    /// Appends weight error `i`'s row.
    pub fn insert_w_err_block(&mut self, i: usize, w_d: f64) {
        let last = *self.rows.last().unwrap();
        self.rows.push(last + 1);
        self.cols.push(BA_NCAMPARAMS * self.n + 3 * self.m + i);
        self.vals.push(w_d);
    }
}

/// The outputs of a Jacobian evaluation, reused across calls as ADBench's
/// runner reuses its `BAOutput`.
pub struct BaOutput {
    /// 2p reprojection errors.
    pub reproj_err: Vec<f64>,
    /// p weight errors.
    pub w_err: Vec<f64>,
    /// The Jacobian.
    pub j: BaSparseMat,
}

impl BaOutput {
    /// Outputs for `inp`.
    pub fn new(inp: &BaInput) -> BaOutput {
        BaOutput {
            reproj_err: vec![0.0; 2 * inp.p],
            w_err: vec![0.0; inp.p],
            j: BaSparseMat::new(inp.n, inp.m, inp.p),
        }
    }
}

/// The whole Jacobian from the macro: `compute_reproj_error_jacobian` per
/// observation (a fresh 2×15 `DMatrix`, column-major as ADBench's block)
/// and `compute_zach_weight_error_grad` per weight.
pub fn ours(inp: &BaInput, out: &mut BaOutput) {
    out.j.clear();
    for i in 0..inp.p {
        let ci = inp.obs[2 * i];
        let pi = inp.obs[2 * i + 1];
        let (e, jac) = compute_reproj_error_jacobian(
            &inp.cams[ci * BA_NCAMPARAMS..(ci + 1) * BA_NCAMPARAMS],
            &inp.x[pi * 3..pi * 3 + 3],
            inp.w[i],
            &inp.feats[2 * i..2 * i + 2],
        );
        out.reproj_err[2 * i] = e[0];
        out.reproj_err[2 * i + 1] = e[1];
        out.j.insert_reproj_err_block(i, ci, pi, jac.as_slice());
    }
    for i in 0..inp.p {
        let (e, w_d) = compute_zach_weight_error_grad(inp.w[i]);
        out.w_err[i] = e;
        out.j.insert_w_err_block(i, w_d);
    }
}

/// The whole Jacobian from `compute_reproj_error_jacobian_acc` into one
/// reused 2×15 block (zeroed per observation, as Manual's), then copied
/// into the compressed rows: no matrix per block, and no allocation per
/// observation (the slices' adjoints come from the thread's pool and go
/// back to it).
pub fn ours_acc(inp: &BaInput, out: &mut BaOutput, block: &mut DMatrix<f64>) {
    out.j.clear();
    for i in 0..inp.p {
        block.fill(0.0);
        let ci = inp.obs[2 * i];
        let pi = inp.obs[2 * i + 1];
        let e = compute_reproj_error_jacobian_acc(
            &inp.cams[ci * BA_NCAMPARAMS..(ci + 1) * BA_NCAMPARAMS],
            &inp.x[pi * 3..pi * 3 + 3],
            inp.w[i],
            &inp.feats[2 * i..2 * i + 2],
            block,
        );
        out.reproj_err[2 * i] = e[0];
        out.reproj_err[2 * i + 1] = e[1];
        out.j.insert_reproj_err_block(i, ci, pi, block.as_slice());
    }
    for i in 0..inp.p {
        let (e, w_d) = compute_zach_weight_error_grad(inp.w[i]);
        out.w_err[i] = e;
        out.j.insert_w_err_block(i, w_d);
    }
}

/// The 2×15 block [`ours_acc`] adds into.
pub fn block() -> DMatrix<f64> {
    DMatrix::zeros(2, BA_NCAMPARAMS + 3 + 1)
}

/// ADBench's Manual Jacobian (`ba_d.cpp`), ported line for line.
pub mod manual {
    use super::super::data::{BA_NCAMPARAMS, BaInput};
    use super::BaOutput;

    const BA_ROT_IDX: usize = 0;
    const BA_C_IDX: usize = 3;
    const BA_F_IDX: usize = 6;
    const BA_X0_IDX: usize = 7;
    const BA_RAD_IDX: usize = 9;

    fn sqnorm(x: &[f64]) -> f64 {
        let mut res = x[0] * x[0];
        for v in &x[1..] {
            res += v * v;
        }
        res
    }

    fn dot(x: &[f64], y: &[f64]) -> f64 {
        let mut acc = x[0] * y[0];
        for i in 1..x.len() {
            acc += x[i] * y[i];
        }
        acc
    }

    fn cross(a: &[f64], b: &[f64], out: &mut [f64]) {
        out[0] = a[1] * b[2] - a[2] * b[1];
        out[1] = a[2] * b[0] - a[0] * b[2];
        out[2] = a[0] * b[1] - a[1] * b[0];
    }

    fn scale(factor: f64, x: &[f64], out: &mut [f64]) {
        for (o, v) in out.iter_mut().zip(x) {
            *o = factor * v;
        }
    }

    fn add_to(acc: &mut [f64], x: &[f64]) {
        for (a, v) in acc.iter_mut().zip(x) {
            *a += v;
        }
    }

    /// n×m times m×p, column-major.
    fn mat_mul(n: usize, m: usize, p: usize, x: &[f64], y: &[f64], out: &mut [f64]) {
        for i in 0..n {
            for j in 0..p {
                let mut rij = 0.0;
                for k in 0..m {
                    rij += x[k * n + i] * y[j * m + k];
                }
                out[j * n + i] = rij;
            }
        }
    }

    fn set_cross_mat(v: &[f64], m: &mut [f64; 9]) {
        m[0] = 0.0;
        m[3] = -v[2];
        m[6] = v[1];
        m[1] = v[2];
        m[4] = 0.0;
        m[7] = -v[0];
        m[2] = -v[1];
        m[5] = v[0];
        m[8] = 0.0;
    }

    fn compute_zach_weight_error_d(w: f64) -> (f64, f64) {
        (1.0 - w * w, -2.0 * w)
    }

    fn rodrigues_rotate_point_d(
        rot: &[f64],
        x: &[f64],
        rotated_x: &mut [f64; 3],
        rodri_rot_d: &mut [f64; 9],
        rodri_x_d: &mut [f64; 9],
    ) {
        let sqtheta = sqnorm(rot);
        if sqtheta != 0.0 {
            let mut w = [0.0; 3];
            let mut w_cross_x = [0.0; 3];
            let mut acc = [0.0; 3];
            let mut acc2 = [0.0; 3];
            let mut tmp_d = [0.0; 3];
            let mut theta_d_scaled = [0.0; 3];
            let mut x_scaled = [0.0; 3];
            let mut w_d = [0.0; 9];
            let mut m = [0.0; 9];
            let mut x_cross = [0.0; 9];
            let mut accm = [0.0; 9];

            let theta = sqtheta.sqrt();
            let costheta = theta.cos();
            let sintheta = theta.sin();
            let theta_inverse = 1.0 / theta;

            scale(theta_inverse, rot, &mut w);

            scale(-theta_inverse * theta_inverse, &w, &mut tmp_d);
            mat_mul(3, 1, 3, rot, &tmp_d, &mut w_d);
            for i in 0..3 {
                w_d[i * 3 + i] += theta_inverse;
            }

            cross(&w, x, &mut w_cross_x);

            let w_dot_x = dot(&w, x);
            let tmp = (1.0 - costheta) * w_dot_x;
            scale(1.0 - costheta, x, &mut x_scaled);
            mat_mul(1, 3, 3, &x_scaled, &w_d, &mut tmp_d);
            scale(w_dot_x * sintheta, &w, &mut theta_d_scaled);
            add_to(&mut tmp_d, &theta_d_scaled);

            scale(costheta, x, rotated_x);
            scale(sintheta, &w_cross_x, &mut acc);
            add_to(rotated_x, &acc);
            scale(tmp, &w, &mut acc);
            add_to(rotated_x, &acc);

            set_cross_mat(x, &mut m);
            for v in m.iter_mut() {
                *v *= -sintheta;
            }
            for i in 0..3 {
                m[i * 3 + i] = tmp;
            }

            scale(costheta, &w_cross_x, &mut acc);
            scale(-sintheta, x, &mut acc2);
            add_to(&mut acc, &acc2);
            mat_mul(3, 1, 3, &acc, &w, rodri_rot_d);
            mat_mul(3, 3, 3, &m, &w_d, &mut accm);
            for i in 0..9 {
                rodri_rot_d[i] += accm[i];
            }
            mat_mul(3, 1, 3, &w, &tmp_d, &mut accm);
            add_to(rodri_rot_d, &accm);

            set_cross_mat(&w, &mut x_cross);
            for i in 0..9 {
                rodri_x_d[i] = x_cross[i] * sintheta;
            }
            scale(1.0 - costheta, &w, &mut acc);
            mat_mul(3, 1, 3, &acc, &w, &mut accm);
            add_to(rodri_x_d, &accm);
            for i in 0..3 {
                rodri_x_d[i * 3 + i] += costheta;
            }
        } else {
            set_cross_mat(x, rodri_rot_d);
            for v in rodri_rot_d.iter_mut() {
                *v *= -1.0;
            }
            set_cross_mat(rot, rodri_x_d);
            mat_mul(3, 3, 1, rodri_x_d, x, rotated_x);
            add_to(rotated_x, x);
            for i in 0..3 {
                rodri_x_d[i * 3 + i] += 1.0;
            }
        }
    }

    fn radial_distort_d(
        rad_params: &[f64],
        proj: &mut [f64; 2],
        distort_proj_d: &mut [f64; 4],
        distort_rad_d: &mut [f64; 4],
    ) {
        let rsq = sqnorm(proj);
        let l = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
        let coef = 2.0 * rad_params[0] + 4.0 * rad_params[1] * rsq;
        distort_proj_d[0] = coef * proj[0] * proj[0] + l;
        distort_proj_d[2] = coef * proj[0] * proj[1];
        distort_proj_d[1] = coef * proj[1] * proj[0];
        distort_proj_d[3] = coef * proj[1] * proj[1] + l;
        distort_rad_d[0] = rsq * proj[0];
        distort_rad_d[1] = rsq * proj[1];
        distort_rad_d[2] = rsq * distort_rad_d[0];
        distort_rad_d[3] = rsq * distort_rad_d[1];
        proj[0] *= l;
        proj[1] *= l;
    }

    /// `project_d`: the projection and its 2×15 Jacobian (column-major).
    fn project_d(cam: &[f64], x: &[f64], proj: &mut [f64; 2], j: &mut [f64]) {
        let rot = &cam[BA_ROT_IDX..BA_ROT_IDX + 3];
        let c = &cam[BA_C_IDX..BA_C_IDX + 3];
        let f = cam[BA_F_IDX];
        let x0 = &cam[BA_X0_IDX..BA_X0_IDX + 2];
        let rad = &cam[BA_RAD_IDX..BA_RAD_IDX + 2];

        let xo = [x[0] - c[0], x[1] - c[1], x[2] - c[2]];
        let mut xcam = [0.0; 3];
        let mut rodri_rot_d = [0.0; 9];
        let mut rodri_xo_d = [0.0; 9];
        rodrigues_rotate_point_d(rot, &xo, &mut xcam, &mut rodri_rot_d, &mut rodri_xo_d);

        proj[0] = xcam[0] / xcam[2];
        proj[1] = xcam[1] / xcam[2];

        let mut distort_proj_d = [0.0; 4];
        let mut distort_rad_d = [0.0; 4];
        radial_distort_d(rad, proj, &mut distort_proj_d, &mut distort_rad_d);

        let tmp = 1.0 / (xcam[2] * xcam[2]);
        let hnorm_right_col = [-xcam[0] * tmp, -xcam[1] * tmp];
        let mut distort_hnorm_d = [0.0; 6];
        for i in 0..4 {
            distort_hnorm_d[i] = distort_proj_d[i] / xcam[2];
        }
        distort_hnorm_d[4] =
            distort_proj_d[0] * hnorm_right_col[0] + distort_proj_d[2] * hnorm_right_col[1];
        distort_hnorm_d[5] =
            distort_proj_d[1] * hnorm_right_col[0] + distort_proj_d[3] * hnorm_right_col[1];

        let (jrot, rest) = j.split_at_mut(2 * BA_C_IDX);
        let (jc, rest) = rest.split_at_mut(2 * (BA_F_IDX - BA_C_IDX));
        let (jf, rest) = rest.split_at_mut(2);
        let (jx0, rest) = rest.split_at_mut(4);
        let (jrad, rest) = rest.split_at_mut(4);
        let jx = &mut rest[..6];

        mat_mul(2, 3, 3, &distort_hnorm_d, &rodri_rot_d, jrot);
        for v in jrot.iter_mut() {
            *v *= f;
        }
        mat_mul(2, 3, 3, &distort_hnorm_d, &rodri_xo_d, jc);
        for v in jc.iter_mut() {
            *v *= -f;
        }
        jf[0] = proj[0];
        jf[1] = proj[1];
        jx0[0] = 1.0;
        jx0[1] = 0.0;
        jx0[2] = 0.0;
        jx0[3] = 1.0;
        for i in 0..4 {
            jrad[i] = distort_rad_d[i] * f;
        }
        for i in 0..6 {
            jx[i] = -jc[i];
        }
        proj[0] = proj[0] * f + x0[0];
        proj[1] = proj[1] * f + x0[1];
    }

    /// `compute_reproj_error_d`: the error and its 2×15 Jacobian.
    fn compute_reproj_error_d(
        cam: &[f64],
        x: &[f64],
        w: f64,
        feat_x: f64,
        feat_y: f64,
        err: &mut [f64],
        j: &mut [f64],
    ) {
        let mut proj = [0.0; 2];
        project_d(cam, x, &mut proj, j);
        let jw = 2 * (BA_NCAMPARAMS + 3);
        j[jw] = proj[0] - feat_x;
        j[jw + 1] = proj[1] - feat_y;
        err[0] = w * j[jw];
        err[1] = w * j[jw + 1];
        for v in j[..jw].iter_mut() {
            *v *= w;
        }
    }

    /// `ManualBA::calculate_jacobian`: the whole sparse Jacobian, with
    /// one reused 2×15 block buffer.
    pub fn jacobian(inp: &BaInput, out: &mut BaOutput, block: &mut [f64; 30]) {
        out.j.clear();
        for i in 0..inp.p {
            block.fill(0.0);
            let ci = inp.obs[2 * i];
            let pi = inp.obs[2 * i + 1];
            compute_reproj_error_d(
                &inp.cams[BA_NCAMPARAMS * ci..BA_NCAMPARAMS * (ci + 1)],
                &inp.x[pi * 3..pi * 3 + 3],
                inp.w[i],
                inp.feats[2 * i],
                inp.feats[2 * i + 1],
                &mut out.reproj_err[2 * i..2 * i + 2],
                block,
            );
            out.j.insert_reproj_err_block(i, ci, pi, block);
        }
        for i in 0..inp.p {
            let (e, w_d) = compute_zach_weight_error_d(inp.w[i]);
            out.w_err[i] = e;
            out.j.insert_w_err_block(i, w_d);
        }
    }
}

/// Tolerance of the macro's Jacobian against Manual (relative, plus the
/// same times the block's largest entry: the same sums in other orders).
pub const EXACT_REL: f64 = 1e-10;

/// Checks the macro's whole Jacobian against Manual's (same pattern,
/// entries to `EXACT_REL`) and Manual's blocks against central
/// differences of [`compute_reproj_error`] in all 15 inputs of up to
/// `fd_blocks` observations (to 1e-6 of the block's largest entry plus
/// 1e-6 relative), and the errors against the primal's.
pub fn check(inp: &BaInput, fd_blocks: usize) -> Result<(), String> {
    let mut want = BaOutput::new(inp);
    manual::jacobian(inp, &mut want, &mut [0.0; 30]);
    let mut got = BaOutput::new(inp);
    ours(inp, &mut got);
    // `_jacobian_acc` into a reused block: the same matrix bit for bit
    // (each block is `_jacobian`'s, which is `_jacobian_acc` into zeros),
    // twice, so a block left over from the previous call would show.
    let mut got_acc = BaOutput::new(inp);
    let mut block = block();
    ours_acc(inp, &mut got_acc, &mut block);
    ours_acc(inp, &mut got_acc, &mut block);
    if got_acc.j != got.j || got_acc.reproj_err != got.reproj_err || got_acc.w_err != got.w_err {
        return Err("`_jacobian_acc`'s Jacobian differs from `_jacobian`'s".into());
    }
    let mut err = vec![0.0; 2 * inp.p];
    let mut w_err = vec![0.0; inp.p];
    primal(inp, &mut err, &mut w_err);
    compare(
        "Manual's errors vs the primal",
        &want.reproj_err,
        &err,
        1e-12,
        1e-12,
    )?;
    compare(
        "Manual's weight errors vs the primal",
        &want.w_err,
        &w_err,
        0.0,
        0.0,
    )?;
    compare(
        "_jacobian's errors vs the primal",
        &got.reproj_err,
        &err,
        0.0,
        0.0,
    )?;
    compare(
        "_grad's weight errors vs the primal",
        &got.w_err,
        &w_err,
        0.0,
        0.0,
    )?;
    if got.j.rows != want.j.rows || got.j.cols != want.j.cols {
        return Err("the macro's Jacobian has another sparsity pattern than Manual's".into());
    }
    let scale = want.j.vals.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    compare(
        "_jacobian vs Manual",
        &got.j.vals,
        &want.j.vals,
        EXACT_REL * scale,
        EXACT_REL,
    )?;
    for i in sample_coordinates(inp.p, fd_blocks) {
        let ci = inp.obs[2 * i];
        let pi = inp.obs[2 * i + 1];
        let feat = &inp.feats[2 * i..2 * i + 2];
        let args = [
            &inp.cams[ci * BA_NCAMPARAMS..(ci + 1) * BA_NCAMPARAMS],
            &inp.x[pi * 3..pi * 3 + 3],
            &[inp.w[i]],
        ]
        .concat();
        // Manual's block, back from the compressed rows: row r's 15
        // entries are camera, point, weight, i.e. the block's row r.
        let start = want.j.rows[2 * i];
        let block = &want.j.vals[start..start + 30];
        let bscale = block.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for r in 0..2 {
            let fd = central_differences(&args, &(0..15).collect::<Vec<_>>(), |a| {
                compute_reproj_error(&a[..11], &a[11..14], a[14], feat)[r]
            });
            compare(
                &format!(
                    "Manual's row {} of observation {i} vs central differences",
                    r
                ),
                &block[15 * r..15 * r + 15],
                &fd,
                1e-6 * bscale,
                1e-6,
            )?;
        }
        let fdw = central_differences(&[inp.w[i]], &[0], |a| compute_zach_weight_error(a[0]));
        let wd = want.j.vals[want.j.rows[2 * inp.p + i]];
        compare(
            "Manual's weight derivative vs central differences",
            &[wd],
            &fdw,
            1e-8,
            1e-8,
        )?;
    }
    Ok(())
}
