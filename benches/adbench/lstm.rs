//! ADBench's LSTM (`src/cpp/shared/lstm.h`): an l-layer LSTM with
//! element-wise (diagonal) weights run over a c-character sequence of
//! b-bit characters, the loss the mean log-probability of each next
//! character under a log-softmax with an extra constant term. The gradient
//! is with respect to the main parameters (8·b per layer) and the extra
//! ones (input weight, output weight, output bias).
//!
//! - [`lstm_objective`]: the C++ ported as a user ports it,
//!   `#[differentiable]`.
//! - [`reverse`]: a hand-written reverse-mode gradient (one forward sweep
//!   storing the gates, one backward sweep): the fair baseline.
//! - [`manual`]: ADBench's Manual gradient (`src/cpp/modules/manual/lstm_d.cpp`),
//!   which propagates the state's Jacobian forward through time (a weak
//!   baseline: it does l² times the work of a reverse sweep).

use autograd::differentiable;

use super::data::LstmInput;
use super::{central_differences, compare, sample_coordinates};

/// 1 / (1 + e⁻ˣ), as ADBench writes it.
#[differentiable]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// ADBench's `lstm_objective`, ported as a user ports it: the state copied
/// into a local `Vec` and updated in place, layer after layer, character
/// after character.
#[differentiable]
pub fn lstm_objective(
    l: usize,
    c: usize,
    b: usize,
    main_params: &[f64],
    extra_params: &[f64],
    #[constant] state0: &[f64],
    #[constant] sequence: &[f64],
) -> f64 {
    let mut state = vec![0.0; 2 * l * b];
    for i in 0..2 * l * b {
        state[i] = state0[i];
    }
    let mut ypred = vec![0.0; b];
    let mut total = 0.0;
    let mut count = 0;
    for t in 0..c - 1 {
        // lstm_predict
        for i in 0..b {
            ypred[i] = sequence[t * b + i] * extra_params[i];
        }
        for layer in 0..l {
            let wp = layer * 8 * b;
            let hp = layer * 2 * b;
            for i in 0..b {
                let input = if layer == 0 {
                    ypred[i]
                } else {
                    state[hp - 2 * b + i]
                };
                let forget = sigmoid(input * main_params[wp + i] + main_params[wp + 4 * b + i]);
                let ingate =
                    sigmoid(state[hp + i] * main_params[wp + b + i] + main_params[wp + 5 * b + i]);
                let outgate =
                    sigmoid(input * main_params[wp + 2 * b + i] + main_params[wp + 6 * b + i]);
                let change = (state[hp + i] * main_params[wp + 3 * b + i]
                    + main_params[wp + 7 * b + i])
                    .tanh();
                state[hp + b + i] = state[hp + b + i] * forget + ingate * change;
                state[hp + i] = outgate * state[hp + b + i].tanh();
            }
        }
        let last = (l - 1) * 2 * b;
        for i in 0..b {
            ypred[i] = state[last + i] * extra_params[b + i] + extra_params[2 * b + i];
        }
        // logsumexp with the extra 2 of ADBench's
        let mut sum = 0.0;
        for i in 0..b {
            sum += ypred[i].exp();
        }
        sum += 2.0;
        let lse = sum.ln();
        for i in 0..b {
            total += sequence[(t + 1) * b + i] * (ypred[i] - lse);
        }
        count += b;
    }
    -total / count as f64
}

/// The value.
pub fn primal(inp: &LstmInput) -> f64 {
    lstm_objective(
        inp.l,
        inp.c,
        inp.b,
        &inp.main_params,
        &inp.extra_params,
        &inp.state,
        &inp.sequence,
    )
}

/// The macro's gradient, flattened as ADBench's `J`: [main.., extra..].
pub fn ours(inp: &LstmInput) -> (f64, Vec<f64>) {
    let (v, dm, de) = lstm_objective_grad(
        inp.l,
        inp.c,
        inp.b,
        &inp.main_params,
        &inp.extra_params,
        &inp.state,
        &inp.sequence,
    );
    (v, [dm, de].concat())
}

/// The macro's gradient into the caller's `j` (zeroed first).
pub fn ours_acc(inp: &LstmInput, j: &mut [f64]) -> f64 {
    j.fill(0.0);
    let (dm, de) = j.split_at_mut(inp.main_params.len());
    lstm_objective_grad_acc(
        inp.l,
        inp.c,
        inp.b,
        &inp.main_params,
        &inp.extra_params,
        &inp.state,
        &inp.sequence,
        dm,
        de,
    )
}

/// A hand-written reverse-mode gradient: the forward sweep stores, per
/// step, layer and cell, the layer's input, the previous hidden and cell
/// values and the four gates; the backward sweep carries the adjoints of
/// the hidden and cell state.
pub mod reverse {
    use super::super::data::LstmInput;

    /// What the backward sweep reads of one cell at one step.
    #[derive(Clone, Copy, Default)]
    struct Tape {
        input: f64,
        h_old: f64,
        c_old: f64,
        forget: f64,
        ingate: f64,
        outgate: f64,
        change: f64,
        tanh_c: f64,
    }

    fn sigmoid(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    /// Reused storage: the tape, the state, the adjoints.
    pub struct Workspace {
        tape: Vec<Tape>,
        state: Vec<f64>,
        ypred: Vec<f64>,
        /// exp(ypred) / sum per step, for the backward sweep.
        softmax: Vec<f64>,
        dstate: Vec<f64>,
    }

    impl Workspace {
        /// Storage for `inp`.
        pub fn new(inp: &LstmInput) -> Workspace {
            let (l, c, b) = (inp.l, inp.c, inp.b);
            Workspace {
                tape: vec![Tape::default(); (c - 1) * l * b],
                state: vec![0.0; 2 * l * b],
                ypred: vec![0.0; b],
                softmax: vec![0.0; (c - 1) * b],
                dstate: vec![0.0; 2 * l * b],
            }
        }
    }

    /// The value, and the gradient written into `j` ([main.., extra..]).
    pub fn gradient_into(inp: &LstmInput, ws: &mut Workspace, j: &mut [f64]) -> f64 {
        let (l, c, b) = (inp.l, inp.c, inp.b);
        let mp = &inp.main_params;
        let ep = &inp.extra_params;
        let seq = &inp.sequence;
        ws.state.copy_from_slice(&inp.state);
        let mut total = 0.0;
        for t in 0..c - 1 {
            for i in 0..b {
                ws.ypred[i] = seq[t * b + i] * ep[i];
            }
            for layer in 0..l {
                let wp = layer * 8 * b;
                let hp = layer * 2 * b;
                for i in 0..b {
                    let input = if layer == 0 {
                        ws.ypred[i]
                    } else {
                        ws.state[hp - 2 * b + i]
                    };
                    let h_old = ws.state[hp + i];
                    let c_old = ws.state[hp + b + i];
                    let forget = sigmoid(input * mp[wp + i] + mp[wp + 4 * b + i]);
                    let ingate = sigmoid(h_old * mp[wp + b + i] + mp[wp + 5 * b + i]);
                    let outgate = sigmoid(input * mp[wp + 2 * b + i] + mp[wp + 6 * b + i]);
                    let change = (h_old * mp[wp + 3 * b + i] + mp[wp + 7 * b + i]).tanh();
                    let c_new = c_old * forget + ingate * change;
                    let tanh_c = c_new.tanh();
                    ws.state[hp + b + i] = c_new;
                    ws.state[hp + i] = outgate * tanh_c;
                    ws.tape[(t * l + layer) * b + i] = Tape {
                        input,
                        h_old,
                        c_old,
                        forget,
                        ingate,
                        outgate,
                        change,
                        tanh_c,
                    };
                }
            }
            let last = (l - 1) * 2 * b;
            let mut sum = 0.0;
            for i in 0..b {
                ws.ypred[i] = ws.state[last + i] * ep[b + i] + ep[2 * b + i];
                let e = ws.ypred[i].exp();
                ws.softmax[t * b + i] = e;
                sum += e;
            }
            sum += 2.0;
            let lse = sum.ln();
            for i in 0..b {
                ws.softmax[t * b + i] /= sum;
                total += seq[(t + 1) * b + i] * (ws.ypred[i] - lse);
            }
        }
        let count = ((c - 1) * b) as f64;

        j.fill(0.0);
        let (dmain, dextra) = j.split_at_mut(8 * l * b);
        ws.dstate.fill(0.0);
        let dtotal = -1.0 / count;
        for t in (0..c - 1).rev() {
            let ygold = &seq[(t + 1) * b..(t + 2) * b];
            let gold_sum: f64 = ygold.iter().sum();
            let last = (l - 1) * 2 * b;
            for i in 0..b {
                let dy = dtotal * (ygold[i] - gold_sum * ws.softmax[t * b + i]);
                // ypred = h_last * out_w + out_b
                let h_last = ws.tape[(t * l + l - 1) * b + i].outgate
                    * ws.tape[(t * l + l - 1) * b + i].tanh_c;
                dextra[b + i] += dy * h_last;
                dextra[2 * b + i] += dy;
                ws.dstate[last + i] += dy * ep[b + i];
            }
            for layer in (0..l).rev() {
                let wp = layer * 8 * b;
                let hp = layer * 2 * b;
                for i in 0..b {
                    let tp = ws.tape[(t * l + layer) * b + i];
                    let dh = ws.dstate[hp + i];
                    let mut dc = ws.dstate[hp + b + i];
                    let doutgate = dh * tp.tanh_c;
                    dc += dh * tp.outgate * (1.0 - tp.tanh_c * tp.tanh_c);
                    let dforget = dc * tp.c_old;
                    let dingate = dc * tp.change;
                    let dchange = dc * tp.ingate;
                    let zf = dforget * tp.forget * (1.0 - tp.forget);
                    let zi = dingate * tp.ingate * (1.0 - tp.ingate);
                    let zo = doutgate * tp.outgate * (1.0 - tp.outgate);
                    let zc = dchange * (1.0 - tp.change * tp.change);
                    dmain[wp + i] += zf * tp.input;
                    dmain[wp + 4 * b + i] += zf;
                    dmain[wp + b + i] += zi * tp.h_old;
                    dmain[wp + 5 * b + i] += zi;
                    dmain[wp + 2 * b + i] += zo * tp.input;
                    dmain[wp + 6 * b + i] += zo;
                    dmain[wp + 3 * b + i] += zc * tp.h_old;
                    dmain[wp + 7 * b + i] += zc;
                    ws.dstate[hp + i] = zi * mp[wp + b + i] + zc * mp[wp + 3 * b + i];
                    ws.dstate[hp + b + i] = dc * tp.forget;
                    let dinput = zf * mp[wp + i] + zo * mp[wp + 2 * b + i];
                    if layer == 0 {
                        dextra[i] += dinput * seq[t * b + i];
                    } else {
                        ws.dstate[hp - 2 * b + i] += dinput;
                    }
                }
            }
        }
        -total / count
    }

    /// [`gradient_into`] with fresh storage.
    pub fn gradient(inp: &LstmInput) -> (f64, Vec<f64>) {
        let mut ws = Workspace::new(inp);
        let mut j = vec![0.0; inp.n_params()];
        let v = gradient_into(inp, &mut ws, &mut j);
        (v, j)
    }
}

/// ADBench's Manual gradient (`lstm_d.cpp`), ported with its data layout:
/// a state element's gradient is `10l + 1` numbers (the 8 parameter groups
/// of every layer, the previous hidden and cell values of every layer, the
/// input weight), a prediction's `10l + 3` (and the output weight and
/// bias); every array is flat, indexed as the C++ structures' pointers are.
pub mod manual {
    use super::super::data::LstmInput;

    fn sigmoid(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    fn sigmoid_d(x: f64) -> (f64, f64) {
        let s = sigmoid(x);
        (s, s * (1.0 - s))
    }

    fn tanh_d(x: f64) -> (f64, f64) {
        let t = x.tanh();
        (t, 1.0 - t * t)
    }

    fn logsumexp_d(v: &[f64], j: &mut [f64]) -> f64 {
        for i in 0..v.len() {
            j[i] = v[i].exp();
        }
        let mut sum = 0.0;
        for x in j.iter() {
            sum += x;
        }
        sum += 2.0;
        for x in j.iter_mut() {
            *x /= sum;
        }
        sum.ln()
    }

    /// `StateElementGradientModel`: [dw f, i, o, c, db f, i, o, c, hidden,
    /// cell, input].
    #[derive(Clone, Copy, Default)]
    struct ModelGrad {
        dw: [f64; 4],
        db: [f64; 4],
        dh: f64,
        dc: f64,
        di: f64,
    }

    /// Offsets inside one element gradient.
    struct Layout {
        l: usize,
        b: usize,
    }

    impl Layout {
        /// State element gradient length.
        fn g(&self) -> usize {
            10 * self.l + 1
        }
        /// Prediction element gradient length.
        fn gp(&self) -> usize {
            10 * self.l + 3
        }
        fn dh(&self) -> usize {
            8 * self.l
        }
        fn dc(&self) -> usize {
            9 * self.l
        }
        fn inw(&self) -> usize {
            10 * self.l
        }
        /// One layer's `LayerStateJacobianPredict`.
        fn layer(&self) -> usize {
            2 * self.b * self.g()
        }
        /// d_hidden[j] inside a layer.
        fn hid(&self, j: usize) -> usize {
            j * self.g()
        }
        /// d_cell[j] inside a layer.
        fn cell(&self, j: usize) -> usize {
            (j + self.b) * self.g()
        }
    }

    fn lstm_model_d(
        b: usize,
        wp: &[f64],
        state: &mut [f64],
        input: &[f64],
        jac_h: &mut [ModelGrad],
        jac_c: &mut [ModelGrad],
    ) {
        let (hidden, cell) = state.split_at_mut(b);
        for i in 0..b {
            let (wf, wi, wo, wc) = (wp[i], wp[b + i], wp[2 * b + i], wp[3 * b + i]);
            let (bf, bi, bo, bc) = (wp[4 * b + i], wp[5 * b + i], wp[6 * b + i], wp[7 * b + i]);
            let (forget, forget_sd) = sigmoid_d(input[i] * wf + bf);
            let forget_dw = forget_sd * input[i];
            let forget_db = forget_sd;
            let forget_di = forget_sd * wf;
            let (ingate, ingate_sd) = sigmoid_d(hidden[i] * wi + bi);
            let ingate_dw = ingate_sd * hidden[i];
            let ingate_db = ingate_sd;
            let ingate_dh = ingate_sd * wi;
            let (outgate, outgate_sd) = sigmoid_d(input[i] * wo + bo);
            let outgate_dw = outgate_sd * input[i];
            let outgate_db = outgate_sd;
            let outgate_di = outgate_sd * wo;
            let (change, change_td) = tanh_d(hidden[i] * wc + bc);
            let change_dw = change_td * hidden[i];
            let change_db = change_td;
            let change_dh = change_td * wc;

            let orig_cell = cell[i];
            cell[i] = orig_cell * forget + ingate * change;
            let jc = &mut jac_c[i];
            jc.dw = [
                orig_cell * forget_dw,
                change * ingate_dw,
                0.0,
                ingate * change_dw,
            ];
            jc.db = [
                orig_cell * forget_db,
                change * ingate_db,
                0.0,
                ingate * change_db,
            ];
            jc.dh = ingate * change_dh + change * ingate_dh;
            jc.dc = forget;
            jc.di = orig_cell * forget_di;

            let (hidden_t, mut hidden_td) = tanh_d(cell[i]);
            hidden[i] = outgate * hidden_t;
            hidden_td *= outgate;
            let jc = jac_c[i];
            let jh = &mut jac_h[i];
            jh.dw = [
                hidden_td * jc.dw[0],
                hidden_td * jc.dw[1],
                hidden_t * outgate_dw,
                hidden_td * jc.dw[3],
            ];
            jh.db = [
                hidden_td * jc.db[0],
                hidden_td * jc.db[1],
                hidden_t * outgate_db,
                hidden_td * jc.db[3],
            ];
            jh.dh = hidden_td * jc.dh;
            jh.dc = hidden_td * jc.dc;
            jh.di = outgate_di * hidden_t + hidden_td * jc.di;
        }
    }

    /// `lstm_predict_d`: one step's prediction, the state's Jacobian `sj`
    /// (l layers) and the prediction's `pj`.
    fn lstm_predict_d(
        lay: &Layout,
        inp: &LstmInput,
        state: &mut [f64],
        input: &[f64],
        zero_layer: &mut [f64],
        jac_h: &mut [ModelGrad],
        jac_c: &mut [ModelGrad],
        output: &mut [f64],
        sj: &mut [f64],
        pj: &mut [f64],
    ) {
        let (l, b) = (lay.l, lay.b);
        let ep = &inp.extra_params;
        for i in 0..b {
            output[i] = input[i] * ep[i];
            zero_layer[lay.hid(i) + lay.inw()] = input[i];
        }
        for i in 0..l {
            {
                let wp = &inp.main_params[8 * b * i..8 * b * (i + 1)];
                let (before, cur) = state.split_at_mut(2 * b * i);
                let cur = &mut cur[..2 * b];
                if i == 0 {
                    lstm_model_d(b, wp, cur, output, jac_h, jac_c);
                } else {
                    lstm_model_d(
                        b,
                        wp,
                        cur,
                        &before[2 * b * (i - 1)..2 * b * (i - 1) + b],
                        jac_h,
                        jac_c,
                    );
                }
            }
            let (before, cur) = sj.split_at_mut(lay.layer() * i);
            let prev: &[f64] = if i == 0 {
                zero_layer
            } else {
                &before[lay.layer() * (i - 1)..]
            };
            let cur = &mut cur[..lay.layer()];
            for j in 0..b {
                let hdi = jac_h[j].di;
                let cdi = jac_c[j].di;
                let (ph, h, c) = (lay.hid(j), lay.hid(j), lay.cell(j));
                cur[h + lay.inw()] = hdi * prev[ph + lay.inw()];
                cur[c + lay.inw()] = cdi * prev[ph + lay.inw()];
                for k in 0..i {
                    for g in 0..10 {
                        cur[h + g * l + k] = hdi * prev[ph + g * l + k];
                        cur[c + g * l + k] = cdi * prev[ph + g * l + k];
                    }
                }
                for (base, m) in [(h, jac_h[j]), (c, jac_c[j])] {
                    for g in 0..4 {
                        cur[base + g * l + i] = m.dw[g];
                        cur[base + (4 + g) * l + i] = m.db[g];
                    }
                    cur[base + lay.dh() + i] = m.dh;
                    cur[base + lay.dc() + i] = m.dc;
                }
                for k in i + 1..l {
                    for g in 0..10 {
                        cur[h + g * l + k] = 0.0;
                        cur[c + g * l + k] = 0.0;
                    }
                }
            }
        }
        let last = &sj[lay.layer() * (l - 1)..lay.layer() * l];
        let hp = 2 * b * (l - 1);
        for i in 0..b {
            let ow = ep[b + i];
            let lo = state[hp + i];
            output[i] = lo * ow + ep[2 * b + i];
            let p = i * lay.gp();
            pj[p + lay.inw()] = ow * last[lay.hid(i) + lay.inw()];
            pj[p + lay.inw() + 1] = lo;
            pj[p + lay.inw() + 2] = 1.0;
            for j in 0..l {
                for g in 0..10 {
                    pj[p + g * l + j] = ow * last[lay.hid(i) + g * l + j];
                }
            }
        }
    }

    /// `logsumexp_grad`.
    fn logsumexp_grad(lay: &Layout, lse_d: &[f64], pj: &[f64], grad: &mut [f64]) {
        let (l, b) = (lay.l, lay.b);
        for i in 0..b {
            let p = i * lay.gp();
            for j in 0..l {
                for g in 0..8 {
                    grad[8 * b * j + g * b + i] = lse_d[i] * pj[p + g * l + j];
                }
            }
            for e in 0..3 {
                grad[8 * b * l + e * b + i] = lse_d[i] * pj[p + lay.inw() + e];
            }
        }
    }

    /// `update_loss_gradient`, its b² loop as written.
    fn update_loss_gradient(
        lay: &Layout,
        ygold: &[f64],
        grad_lse: &[f64],
        pj: &[f64],
        j: &mut [f64],
    ) {
        let (l, b) = (lay.l, lay.b);
        for i in 0..b {
            let yi = ygold[i];
            for jj in 0..b {
                if i != jj {
                    for k in 0..l {
                        for g in 0..8 {
                            j[8 * b * k + g * b + jj] -= yi * grad_lse[8 * b * k + g * b + jj];
                        }
                    }
                    for e in 0..3 {
                        j[8 * b * l + e * b + jj] -= yi * grad_lse[8 * b * l + e * b + jj];
                    }
                } else {
                    let p = i * lay.gp();
                    for k in 0..l {
                        for g in 0..8 {
                            let q = 8 * b * k + g * b + jj;
                            j[q] += yi * (pj[p + g * l + k] - grad_lse[q]);
                        }
                    }
                    for e in 0..3 {
                        let q = 8 * b * l + e * b + jj;
                        j[q] += yi * (pj[p + lay.inw() + e] - grad_lse[q]);
                    }
                }
            }
        }
    }

    /// `update_pred_jacobian_with_prev_state_jacobian`.
    fn update_pred_jacobian(lay: &Layout, prev: &[f64], pj: &mut [f64]) {
        let (l, b) = (lay.l, lay.b);
        for pos in 0..b {
            let p = pos * lay.gp();
            for i in 0..l {
                let ph = lay.layer() * i + lay.hid(pos);
                let pc = lay.layer() * i + lay.cell(pos);
                let dh = pj[p + lay.dh() + i];
                let dc = pj[p + lay.dc() + i];
                for j in 0..l {
                    for g in 0..8 {
                        pj[p + g * l + j] += dh * prev[ph + g * l + j] + dc * prev[pc + g * l + j];
                    }
                }
                pj[p + lay.inw()] += dh * prev[ph + lay.inw()] + dc * prev[pc + lay.inw()];
            }
        }
    }

    /// `update_state_jacobian_with_prev_state_jacobian`.
    fn update_state_jacobian(lay: &Layout, prev: &[f64], sj: &mut [f64]) {
        let (l, b) = (lay.l, lay.b);
        for pos in 0..b {
            for i in 0..l {
                for part in [lay.hid(pos), lay.cell(pos)] {
                    let s = lay.layer() * i + part;
                    for j in 0..l {
                        let ph = lay.layer() * j + lay.hid(pos);
                        let pc = lay.layer() * j + lay.cell(pos);
                        let dh = sj[s + lay.dh() + j];
                        let dc = sj[s + lay.dc() + j];
                        for k in 0..l {
                            for g in 0..8 {
                                sj[s + g * l + k] +=
                                    dh * prev[ph + g * l + k] + dc * prev[pc + g * l + k];
                            }
                        }
                        sj[s + lay.inw()] += dh * prev[ph + lay.inw()] + dc * prev[pc + lay.inw()];
                    }
                }
            }
        }
    }

    /// `lstm_objective_d`: the value, and the gradient written into `j`.
    pub fn lstm_objective_d(inp: &LstmInput, j: &mut [f64]) -> f64 {
        let (l, c, b) = (inp.l, inp.c, inp.b);
        let lay = Layout { l, b };
        let seq = &inp.sequence;
        let count = b * (c - 1);
        let mut state = inp.state.clone();
        let mut ypred = vec![0.0; b];
        let mut lse_d = vec![0.0; b];
        let mut prev_sj = vec![0.0; lay.layer() * l];
        let mut sj = vec![0.0; lay.layer() * l];
        let mut pj = vec![0.0; lay.gp() * b];
        let mut grad_lse = vec![0.0; 8 * l * b + 3 * b];
        let mut zero_layer = vec![0.0; lay.layer()];
        let mut jac_h = vec![ModelGrad::default(); b];
        let mut jac_c = vec![ModelGrad::default(); b];
        j.fill(0.0);
        let mut total = 0.0;

        lstm_predict_d(
            &lay,
            inp,
            &mut state,
            &seq[..b],
            &mut zero_layer,
            &mut jac_h,
            &mut jac_c,
            &mut ypred,
            &mut prev_sj,
            &mut pj,
        );
        let mut lse = logsumexp_d(&ypred, &mut lse_d);
        logsumexp_grad(&lay, &lse_d, &pj, &mut grad_lse);
        let mut ygold = &seq[b..2 * b];
        for i in 0..b {
            total += ygold[i] * (ypred[i] - lse);
        }
        update_loss_gradient(&lay, ygold, &grad_lse, &pj, j);

        for t in 1..c - 2 {
            lstm_predict_d(
                &lay,
                inp,
                &mut state,
                &seq[t * b..(t + 1) * b],
                &mut zero_layer,
                &mut jac_h,
                &mut jac_c,
                &mut ypred,
                &mut sj,
                &mut pj,
            );
            update_state_jacobian(&lay, &prev_sj, &mut sj);
            update_pred_jacobian(&lay, &prev_sj, &mut pj);
            lse = logsumexp_d(&ypred, &mut lse_d);
            logsumexp_grad(&lay, &lse_d, &pj, &mut grad_lse);
            ygold = &seq[(t + 1) * b..(t + 2) * b];
            for i in 0..b {
                total += ygold[i] * (ypred[i] - lse);
            }
            update_loss_gradient(&lay, ygold, &grad_lse, &pj, j);
            std::mem::swap(&mut sj, &mut prev_sj);
        }

        lstm_predict_d(
            &lay,
            inp,
            &mut state,
            &seq[(c - 2) * b..(c - 1) * b],
            &mut zero_layer,
            &mut jac_h,
            &mut jac_c,
            &mut ypred,
            &mut sj,
            &mut pj,
        );
        update_pred_jacobian(&lay, &prev_sj, &mut pj);
        lse = logsumexp_d(&ypred, &mut lse_d);
        logsumexp_grad(&lay, &lse_d, &pj, &mut grad_lse);
        ygold = &seq[(c - 1) * b..c * b];
        for i in 0..b {
            total += ygold[i] * (ypred[i] - lse);
        }
        update_loss_gradient(&lay, ygold, &grad_lse, &pj, j);

        for v in j.iter_mut() {
            *v /= -(count as f64);
        }
        -total / count as f64
    }

    /// [`lstm_objective_d`] into a fresh gradient.
    pub fn gradient(inp: &LstmInput) -> (f64, Vec<f64>) {
        let mut j = vec![0.0; inp.n_params()];
        let v = lstm_objective_d(inp, &mut j);
        (v, j)
    }
}

/// Tolerance of the exact contenders against each other, relative to the
/// largest entry (sums over c·b terms in other orders).
pub const EXACT_REL: f64 = 1e-10;

/// Checks the macro's gradient and the reverse-mode one against ADBench's
/// Manual (to `EXACT_REL` of the largest entry plus `EXACT_REL`
/// relative), and Manual against central differences of the primal in up
/// to `fd_coords` coordinates (to 1e-7 of the largest entry plus 1e-6
/// relative; the loss is a mean, of order one).
pub fn check(inp: &LstmInput, fd_coords: usize) -> Result<(), String> {
    let (mv, mg) = manual::gradient(inp);
    let scale = mg.iter().fold(0.0f64, |a, g| a.max(g.abs()));
    let pv = primal(inp);
    if (pv - mv).abs() > 1e-13 * pv.abs().max(1.0) {
        return Err(format!(
            "Manual's value {mv} differs from the primal's {pv}"
        ));
    }
    let (ov, og) = ours(inp);
    if ov != pv {
        return Err(format!("_grad's value {ov} differs from the primal's {pv}"));
    }
    compare("_grad vs Manual", &og, &mg, EXACT_REL * scale, EXACT_REL)?;
    let mut j = vec![0.0; inp.n_params()];
    ours_acc(inp, &mut j);
    compare("_grad_acc vs Manual", &j, &mg, EXACT_REL * scale, EXACT_REL)?;
    let (rv, rg) = reverse::gradient(inp);
    if (rv - pv).abs() > 1e-13 * pv.abs().max(1.0) {
        return Err(format!(
            "the reverse gradient's value {rv} differs from the primal's {pv}"
        ));
    }
    compare("reverse vs Manual", &rg, &mg, EXACT_REL * scale, EXACT_REL)?;
    let params = [&inp.main_params[..], &inp.extra_params].concat();
    let which = sample_coordinates(params.len(), fd_coords);
    let nm = inp.main_params.len();
    let mut probe = inp.clone();
    let fd = central_differences(&params, &which, |p| {
        probe.main_params.copy_from_slice(&p[..nm]);
        probe.extra_params.copy_from_slice(&p[nm..]);
        primal(&probe)
    });
    let picked: Vec<f64> = which.iter().map(|&i| mg[i]).collect();
    compare(
        "Manual vs central differences",
        &picked,
        &fd,
        1e-7 * scale.max(1.0),
        1e-6,
    )
}
