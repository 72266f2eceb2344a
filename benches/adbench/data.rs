//! Deterministic inputs of ADBench's shapes and distributions.
//!
//! ADBench draws its GMM inputs with numpy (`data/gmm/gmm-data-gen.py`:
//! α, the `icf` entries and the points from N(0, 1), the means from
//! U(0, 1), Wishart γ = 1, m = 0), its LSTM inputs likewise
//! (`data/lstm/gen_data.py`: parameters and state from U(0, 1), the text
//! as `b`-bit characters) and ships BA files holding one camera, one point,
//! one weight and one feature that its reader replicates (`read_ba_instance`
//! in `src/cpp/shared/utils.cpp`). Here the same distributions come from a
//! seeded generator, so every run and every machine sees the same numbers
//! without the data files; `write_gmm` writes a GMM instance in ADBench's
//! text format for `gmm_jax.py`.

use std::fmt::Write as _;

/// SplitMix64: small, fast and good enough for benchmark inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform on [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Standard normal (Box–Muller, one of the pair).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A value rounded to ADBench's six printed decimals (its files hold
    /// `{:.6f}`), so an instance written out and read back is the same.
    pub fn six(v: f64) -> f64 {
        (v * 1e6).round() / 1e6
    }
}

/// A GMM instance in ADBench's layout (`src/cpp/shared/gmm.h`).
#[derive(Clone, Debug)]
pub struct GmmInput {
    /// Dimension.
    pub d: usize,
    /// Components.
    pub k: usize,
    /// Points.
    pub n: usize,
    /// k log-weights (unnormalised).
    pub alphas: Vec<f64>,
    /// d·k means, component after component.
    pub means: Vec<f64>,
    /// (d(d+1)/2)·k inverse covariance factors: per component the d logs of
    /// the diagonal, then the strictly lower triangle column by column.
    pub icf: Vec<f64>,
    /// d·n points.
    pub x: Vec<f64>,
    /// Wishart γ.
    pub gamma: f64,
    /// Wishart m.
    pub m: usize,
}

impl GmmInput {
    /// Entries of one component's inverse covariance factor.
    pub fn icf_sz(&self) -> usize {
        self.d * (self.d + 1) / 2
    }

    /// Number of parameters: k + d·k + icf_sz·k.
    pub fn n_params(&self) -> usize {
        self.k + self.d * self.k + self.icf_sz() * self.k
    }
}

/// The GMM instance of size (d, k, n), drawn as ADBench's generator draws.
pub fn gmm(d: usize, k: usize, n: usize) -> GmmInput {
    let mut rng = Rng::new(0x6d6d_0000 ^ ((d as u64) << 32) ^ ((k as u64) << 16) ^ n as u64);
    let icf_sz = d * (d + 1) / 2;
    let alphas = (0..k).map(|_| Rng::six(rng.normal())).collect();
    let means = (0..d * k).map(|_| Rng::six(rng.uniform())).collect();
    let icf = (0..icf_sz * k).map(|_| Rng::six(rng.normal())).collect();
    let x = (0..d * n).map(|_| Rng::six(rng.normal())).collect();
    GmmInput {
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        gamma: 1.0,
        m: 0,
    }
}

/// `inp` in ADBench's GMM text format (`read_gmm_instance`).
pub fn write_gmm(inp: &GmmInput) -> String {
    let mut s = String::new();
    let icf_sz = inp.icf_sz();
    writeln!(s, "{} {} {}", inp.d, inp.k, inp.n).unwrap();
    for a in &inp.alphas {
        writeln!(s, "{a:.6}").unwrap();
    }
    for row in inp.means.chunks(inp.d) {
        for v in row {
            write!(s, "{v:.6} ").unwrap();
        }
        s.push('\n');
    }
    for row in inp.icf.chunks(icf_sz) {
        for v in row {
            write!(s, "{v:.6} ").unwrap();
        }
        s.push('\n');
    }
    for row in inp.x.chunks(inp.d) {
        for v in row {
            write!(s, "{v:.6} ").unwrap();
        }
        s.push('\n');
    }
    writeln!(s, "{:.6} {} ", inp.gamma, inp.m).unwrap();
    s
}

/// Number of camera parameters: rotation (3), centre (3), focal length,
/// principal point (2), radial distortion (2).
pub const BA_NCAMPARAMS: usize = 11;

/// A bundle-adjustment instance in ADBench's layout (`src/cpp/shared/ba.h`).
#[derive(Clone, Debug)]
pub struct BaInput {
    /// Cameras.
    pub n: usize,
    /// Points.
    pub m: usize,
    /// Observations.
    pub p: usize,
    /// 11·n camera parameters.
    pub cams: Vec<f64>,
    /// 3·m points.
    pub x: Vec<f64>,
    /// p weights.
    pub w: Vec<f64>,
    /// 2·p (camera, point) index pairs.
    pub obs: Vec<usize>,
    /// 2·p measured features.
    pub feats: Vec<f64>,
}

/// ADBench's ba1–ba10 (cameras, points, observations), from the names of
/// its files `data/ba/baI_nN_mM_pP.txt`.
pub const BA_SHAPES: [(&str, usize, usize, usize); 10] = [
    ("ba1", 49, 7776, 31843),
    ("ba2", 21, 11315, 36455),
    ("ba3", 161, 48126, 182072),
    ("ba4", 372, 47423, 204472),
    ("ba5", 257, 65132, 225911),
    ("ba6", 539, 65220, 277273),
    ("ba7", 93, 61203, 287451),
    ("ba8", 88, 64298, 383937),
    ("ba9", 810, 88814, 393775),
    ("ba10", 1197, 126327, 563734),
];

/// ADBench's ba1 camera, point, weight and feature, which its reader
/// replicates to every camera, point and observation.
const BA1_CAM: [f64; 11] = [
    -0.758453, -1.109613, -0.845551, 34.556073, 39.676747, 53.881673, 419.194514, 5.864426,
    -8.518870, 0.087812, 0.002739,
];
const BA1_X: [f64; 3] = [7.203245, 0.001144, 3.023326];
const BA1_W: f64 = 0.417022;
const BA1_FEAT: [f64; 2] = [271.760969, 834.209256];

/// A BA instance of shape (n, m, p): ADBench's observation pattern
/// (observation i sees camera i mod n and point i mod m) and ADBench's ba1
/// values, each camera, point, weight and feature perturbed by a few
/// percent so that no two blocks are equal (ADBench's own replicated
/// values make every block the same, which a cache would flatter).
pub fn ba(n: usize, m: usize, p: usize) -> BaInput {
    let mut rng = Rng::new(0xba00 ^ ((n as u64) << 40) ^ ((m as u64) << 20) ^ p as u64);
    let mut jitter = |v: f64, rel: f64| v * (1.0 + rel * rng.range(-1.0, 1.0));
    let mut cams = Vec::with_capacity(BA_NCAMPARAMS * n);
    for _ in 0..n {
        cams.extend(BA1_CAM.iter().map(|&v| jitter(v, 0.05)));
    }
    let mut x = Vec::with_capacity(3 * m);
    for _ in 0..m {
        x.extend(BA1_X.iter().map(|&v| jitter(v, 0.05)));
    }
    let w = (0..p).map(|_| jitter(BA1_W, 0.05)).collect();
    let mut obs = Vec::with_capacity(2 * p);
    for i in 0..p {
        obs.push(i % n);
        obs.push(i % m);
    }
    let mut feats = Vec::with_capacity(2 * p);
    for _ in 0..p {
        feats.extend(BA1_FEAT.iter().map(|&v| jitter(v, 0.05)));
    }
    BaInput {
        n,
        m,
        p,
        cams,
        x,
        w,
        obs,
        feats,
    }
}

/// An LSTM instance in ADBench's layout (`src/cpp/shared/lstm.h`).
#[derive(Clone, Debug)]
pub struct LstmInput {
    /// Layers.
    pub l: usize,
    /// Characters in the sequence.
    pub c: usize,
    /// Bits per character (the hidden size).
    pub b: usize,
    /// 8·b·l: per layer the weights (forget, ingate, outgate, change) then
    /// the biases, b each.
    pub main_params: Vec<f64>,
    /// 3·b: input weight, output weight, output bias.
    pub extra_params: Vec<f64>,
    /// 2·b·l: per layer the hidden state then the cell state.
    pub state: Vec<f64>,
    /// c·b: the characters' bits.
    pub sequence: Vec<f64>,
}

impl LstmInput {
    /// Number of parameters: main then extra.
    pub fn n_params(&self) -> usize {
        self.main_params.len() + self.extra_params.len()
    }
}

/// ADBench's LSTM bits per character for its text extracts (`b = 14` in
/// every `data/lstm/lstm_l*_c*.txt`).
pub const LSTM_BITS: usize = 14;

/// The LSTM instance of size (l, c): parameters and state from U(0, 1) as
/// `gen_data.py` draws them, and a sequence of `c` characters of
/// `LSTM_BITS` bits (drawn from printable ASCII and the accented range,
/// as a text extract's code points are).
pub fn lstm(l: usize, c: usize) -> LstmInput {
    let b = LSTM_BITS;
    let mut rng = Rng::new(0x1570 ^ ((l as u64) << 32) ^ c as u64);
    let main_params = (0..8 * b * l).map(|_| rng.uniform()).collect();
    let extra_params = (0..3 * b).map(|_| rng.uniform()).collect();
    let state = (0..2 * b * l).map(|_| rng.uniform()).collect();
    let mut sequence = Vec::with_capacity(c * b);
    for _ in 0..c {
        let code = if rng.uniform() < 0.98 {
            32 + (rng.uniform() * 95.0) as u32
        } else {
            0x400 + (rng.uniform() * 0x2000 as f64) as u32
        };
        for bit in (0..b).rev() {
            sequence.push(f64::from((code >> bit) & 1));
        }
    }
    LstmInput {
        l,
        c,
        b,
        main_params,
        extra_params,
        state,
        sequence,
    }
}
