//! The pricing example's inputs: a portfolio of fixed-rate bonds and a zero
//! curve, read from small CSV files, and a synthetic portfolio of any size.
//!
//! CSV is read by hand: one record a line, fields split on commas and
//! trimmed, no quoting (no field here needs a comma). Blank lines and lines
//! starting with `#` are skipped; the first other line is the header.
//! A row that does not parse or fails a check is reported with its file
//! and line number and skipped; the rest are still read.
//!
//! `bonds.csv`: `id,coupon_pct,maturity_years,frequency,price` — the coupon
//! in percent a year, the maturity in years, coupons a year (1, 2, 3, 4, 6
//! or 12), the market (dirty) price per 100 face.
//!
//! `curve.csv`: `tenor_years,zero_rate_pct` — key tenors in increasing
//! order, continuously compounded zero rates in percent.

use std::fmt;
use std::path::Path;

/// The header `bonds.csv` starts with.
pub const BOND_HEADER: [&str; 5] = ["id", "coupon_pct", "maturity_years", "frequency", "price"];

/// The header `curve.csv` starts with.
pub const CURVE_HEADER: [&str; 2] = ["tenor_years", "zero_rate_pct"];

/// The coupon frequencies accepted.
pub const FREQUENCIES: [u32; 6] = [1, 2, 3, 4, 6, 12];

/// One fixed-rate bond.
#[derive(Clone, Debug, PartialEq)]
pub struct Bond {
    /// A name, unique in the portfolio.
    pub id: String,
    /// The annual coupon rate as a decimal (4.5% is 0.045).
    pub coupon_rate: f64,
    /// Years to maturity.
    pub maturity: f64,
    /// Coupons a year.
    pub frequency: u32,
    /// The market (dirty) price per 100 face.
    pub price: f64,
}

/// A zero curve given at key tenors.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Key tenors in years, strictly increasing.
    pub tenors: Vec<f64>,
    /// Continuously compounded zero rates at the tenors, as decimals.
    pub rates: Vec<f64>,
}

/// A row that was skipped, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RowError {
    /// The file it came from, as given.
    pub file: String,
    /// Its line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// A file that cannot be used at all: unreadable, a wrong header, or (for
/// a curve) fewer than two good rows.
#[derive(Debug)]
pub struct FileError {
    /// The file, as given.
    pub file: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for FileError {}

/// The good records of a file and the rows that were skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<T> {
    /// What was read.
    pub value: T,
    /// The rows skipped, in file order.
    pub skipped: Vec<RowError>,
}

/// The data lines of a CSV text: (line number, fields), after checking the
/// header. Blank lines and `#` comments are left out.
fn records<'a>(
    text: &'a str,
    file: &str,
    header: &[&str],
) -> Result<Vec<(usize, Vec<&'a str>)>, FileError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((line, first)) = lines.next() else {
        return Err(FileError {
            file: file.to_string(),
            message: format!("empty file; expected the header `{}`", header.join(",")),
        });
    };
    let fields: Vec<&str> = first.split(',').map(str::trim).collect();
    let matches = fields.len() == header.len()
        && fields
            .iter()
            .zip(header)
            .all(|(f, h)| f.eq_ignore_ascii_case(h));
    if !matches {
        return Err(FileError {
            file: file.to_string(),
            message: format!(
                "line {line}: expected the header `{}`, found `{first}`",
                header.join(",")
            ),
        });
    }
    Ok(lines
        .map(|(n, l)| (n, l.split(',').map(str::trim).collect()))
        .collect())
}

/// A finite number, or a message naming the column.
fn number(field: &str, column: &str) -> Result<f64, String> {
    match field.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) => Err(format!("{column} must be a finite number, found `{v}`")),
        Err(_) => Err(format!("{column} is not a number: `{field}`")),
    }
}

fn bond_row(fields: &[&str]) -> Result<Bond, String> {
    if fields.len() != BOND_HEADER.len() {
        return Err(format!(
            "expected {} fields ({}), found {}",
            BOND_HEADER.len(),
            BOND_HEADER.join(","),
            fields.len()
        ));
    }
    let id = fields[0];
    if id.is_empty() {
        return Err("the id is empty".into());
    }
    let coupon = number(fields[1], "coupon_pct")?;
    if !(0.0..100.0).contains(&coupon) {
        return Err(format!("coupon_pct must be in [0, 100), found {coupon}"));
    }
    let maturity = number(fields[2], "maturity_years")?;
    if !(maturity > 0.0 && maturity <= 100.0) {
        return Err(format!(
            "maturity_years must be in (0, 100], found {maturity}"
        ));
    }
    let frequency = fields[3]
        .parse::<u32>()
        .ok()
        .filter(|f| FREQUENCIES.contains(f))
        .ok_or_else(|| {
            format!(
                "frequency must be one of {FREQUENCIES:?} coupons a year, found `{}`",
                fields[3]
            )
        })?;
    let price = number(fields[4], "price")?;
    if price <= 0.0 {
        return Err(format!("price must be positive, found {price}"));
    }
    Ok(Bond {
        id: id.to_string(),
        coupon_rate: coupon / 100.0,
        maturity,
        frequency,
        price,
    })
}

/// Reads a portfolio from the text of a `bonds.csv`; `file` names it in
/// messages. A bad row, or a second row with an id already seen, is
/// skipped and reported.
///
/// # Errors
///
/// A missing or wrong header.
pub fn parse_bonds(text: &str, file: &str) -> Result<Parsed<Vec<Bond>>, FileError> {
    let mut bonds: Vec<Bond> = Vec::new();
    let mut skipped = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (line, fields) in records(text, file, &BOND_HEADER)? {
        let row = bond_row(&fields).and_then(|b| match seen.get(&b.id) {
            Some(first) => Err(format!("duplicate id `{}` (first on line {first})", b.id)),
            None => Ok(b),
        });
        match row {
            Ok(b) => {
                seen.insert(b.id.clone(), line);
                bonds.push(b);
            }
            Err(message) => skipped.push(RowError {
                file: file.to_string(),
                line,
                message,
            }),
        }
    }
    Ok(Parsed {
        value: bonds,
        skipped,
    })
}

/// Reads a zero curve from the text of a `curve.csv`; `file` names it in
/// messages. A bad row, or a tenor not above the one before, is skipped and
/// reported.
///
/// # Errors
///
/// A missing or wrong header, or fewer than two good rows.
pub fn parse_curve(text: &str, file: &str) -> Result<Parsed<Curve>, FileError> {
    let mut curve = Curve {
        tenors: Vec::new(),
        rates: Vec::new(),
    };
    let mut skipped = Vec::new();
    for (line, fields) in records(text, file, &CURVE_HEADER)? {
        let row = (|| {
            if fields.len() != CURVE_HEADER.len() {
                return Err(format!(
                    "expected {} fields ({}), found {}",
                    CURVE_HEADER.len(),
                    CURVE_HEADER.join(","),
                    fields.len()
                ));
            }
            let tenor = number(fields[0], "tenor_years")?;
            if !(tenor > 0.0 && tenor <= 100.0) {
                return Err(format!("tenor_years must be in (0, 100], found {tenor}"));
            }
            if let Some(&last) = curve.tenors.last()
                && tenor <= last
            {
                return Err(format!(
                    "tenors must increase: {tenor} does not come after {last}"
                ));
            }
            let rate = number(fields[1], "zero_rate_pct")?;
            if rate.abs() >= 100.0 {
                return Err(format!(
                    "zero_rate_pct must be in (-100, 100), found {rate}"
                ));
            }
            Ok((tenor, rate / 100.0))
        })();
        match row {
            Ok((t, r)) => {
                curve.tenors.push(t);
                curve.rates.push(r);
            }
            Err(message) => skipped.push(RowError {
                file: file.to_string(),
                line,
                message,
            }),
        }
    }
    if curve.tenors.len() < 2 {
        return Err(FileError {
            file: file.to_string(),
            message: format!(
                "a curve needs at least two key tenors, found {} good row(s)",
                curve.tenors.len()
            ),
        });
    }
    Ok(Parsed {
        value: curve,
        skipped,
    })
}

fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|e| FileError {
        file: path.display().to_string(),
        message: format!("cannot read: {e}"),
    })
}

/// [`parse_bonds`] on a file.
///
/// # Errors
///
/// An unreadable file, or those of [`parse_bonds`].
pub fn read_bonds(path: &Path) -> Result<Parsed<Vec<Bond>>, FileError> {
    parse_bonds(&read(path)?, &path.display().to_string())
}

/// [`parse_curve`] on a file.
///
/// # Errors
///
/// An unreadable file, or those of [`parse_curve`].
pub fn read_curve(path: &Path) -> Result<Parsed<Curve>, FileError> {
    parse_curve(&read(path)?, &path.display().to_string())
}

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
