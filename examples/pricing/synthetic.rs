//! A synthetic portfolio of any size for the pricing example: bonds' terms
//! and the z-spread each one's market price is made with, from a tiny
//! deterministic generator.

/// SplitMix64: a tiny, deterministic generator for synthetic portfolios.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

/// A synthetic bond before it has a market price: its terms and the
/// z-spread its price will be made with.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticTerms {
    /// `SYN000001`, …
    pub id: String,
    /// As a decimal: 0 to 8% in steps of 1/8%.
    pub coupon_rate: f64,
    /// 0.25 to 30 years, in whole months.
    pub maturity: f64,
    /// One of 1, 2, 4, 12 (mostly 2).
    pub frequency: u32,
    /// The spread the market price is made with: 5 to 400bp.
    pub z_spread: f64,
}

/// `n` bonds' terms drawn from `seed`; the same arguments always give the
/// same portfolio.
pub fn synthetic_terms(n: usize, seed: u64) -> Vec<SyntheticTerms> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|i| {
            let coupon_rate = (rng.uniform(0.0, 64.0).floor() / 8.0) / 100.0;
            let maturity = (rng.uniform(3.0, 361.0).floor()) / 12.0;
            let frequency = match rng.next_u64() % 8 {
                0 => 1,
                1 => 4,
                2 => 12,
                _ => 2,
            };
            let z_spread = rng.uniform(0.0005, 0.04);
            SyntheticTerms {
                id: format!("SYN{:06}", i + 1),
                coupon_rate,
                maturity,
                frequency,
                z_spread,
            }
        })
        .collect()
}
