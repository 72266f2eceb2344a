//! Bond and zero-curve inputs: the one loader of `bonds.csv` and
//! `curve.csv`, shared by the pricing example and the calibration workload
//! (`workloads/src/lib.rs` includes this file as `workloads::bond_data`),
//! and a fixed-rate bond's cash flows.
//!
//! Files are read with the `csv` crate, each row into a serde struct by
//! column name: columns may come in any order, extra columns are ignored,
//! header names are matched without regard to case. Fields are trimmed;
//! lines starting with `#` are comments. A missing column is an error for
//! the whole file. A row that does not parse or fails a check is reported
//! with its file, line and column, and skipped; the rest are still read.
//!
//! `bonds.csv`: `id,coupon_pct,maturity_years,frequency,price` — the coupon
//! in percent a year, the maturity in years, coupons a year (1, 2, 3, 4, 6
//! or 12), the market (dirty) price per 100 face.
//!
//! `curve.csv`: `tenor_years,zero_rate_pct` — key tenors in increasing
//! order, continuously compounded zero rates in percent.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The columns of `bonds.csv`.
pub const BOND_COLUMNS: [&str; 5] = ["id", "coupon_pct", "maturity_years", "frequency", "price"];

/// The columns of `curve.csv`.
pub const CURVE_COLUMNS: [&str; 2] = ["tenor_years", "zero_rate_pct"];

/// The coupon frequencies accepted.
pub const FREQUENCIES: [u32; 6] = [1, 2, 3, 4, 6, 12];

/// One row of `bonds.csv`, as serde reads it.
#[derive(Debug, Deserialize)]
struct BondRow {
    id: String,
    coupon_pct: f64,
    maturity_years: f64,
    frequency: u32,
    price: f64,
}

/// One row of `curve.csv`, as serde reads it.
#[derive(Debug, Deserialize)]
struct CurveRow {
    tenor_years: f64,
    zero_rate_pct: f64,
}

/// What a column's field must be, for messages.
fn expected(column: &str) -> &'static str {
    match column {
        "id" => "text",
        "frequency" => "a whole number",
        _ => "a number",
    }
}

/// One fixed-rate bond's terms.
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

impl Bond {
    /// The bond's cash flows per 100 face.
    pub fn cash_flows(&self) -> CashFlows {
        CashFlows::fixed_rate(self.coupon_rate, self.maturity, self.frequency)
    }
}

/// A bond's cash flows per 100 face.
#[derive(Clone, Debug, PartialEq)]
pub struct CashFlows {
    /// Payment times in years, increasing.
    pub times: Vec<f64>,
    /// Amounts per 100 face.
    pub amounts: Vec<f64>,
}

impl CashFlows {
    /// The schedule of a bond paying `coupon_rate` (a decimal) `frequency`
    /// times a year until `maturity` years from now: a coupon of
    /// `100·coupon_rate/frequency` at `maturity`, `maturity − 1/frequency`,
    /// … down to the first date after today, and the face at maturity.
    pub fn fixed_rate(coupon_rate: f64, maturity: f64, frequency: u32) -> CashFlows {
        let f = f64::from(frequency.max(1));
        let coupon = 100.0 * coupon_rate / f;
        // Periods left, counted back from maturity; a tiny slack so 10.0
        // years at 2 a year is 20 periods, not 19.
        let periods = (maturity * f + 1e-9).ceil().max(1.0) as usize;
        let mut times = Vec::with_capacity(periods);
        let mut amounts = Vec::with_capacity(periods);
        for k in (0..periods).rev() {
            let t = maturity - k as f64 / f;
            if t > 1e-9 {
                times.push(t);
                amounts.push(coupon);
            }
        }
        if let Some(last) = amounts.last_mut() {
            *last += 100.0;
        }
        CashFlows { times, amounts }
    }
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
    pub line: u64,
    /// What is wrong with it, naming the column.
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// A file that cannot be used at all: unreadable, empty, a column missing,
/// or (for a curve) fewer than two good rows.
#[derive(Clone, Debug, PartialEq)]
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

/// A data row's line number, and the row deserialized by column name or
/// what is wrong with it.
type Row<T> = (u64, Result<T, String>);

/// Every data row of a CSV text. `columns` must all be in the header.
fn rows<T: DeserializeOwned>(
    text: &str,
    file: &str,
    columns: &[&str],
) -> Result<Vec<Row<T>>, FileError> {
    let file_error = |message: String| FileError {
        file: file.to_string(),
        message,
    };
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    let found = reader
        .headers()
        .map_err(|e| file_error(e.to_string()))?
        .clone();
    let wanted = columns.join(",");
    if found.iter().all(str::is_empty) {
        return Err(file_error(format!(
            "empty file; expected the header `{wanted}`"
        )));
    }
    let line = found.position().map_or(1, |p| line_of(text, p.byte()));
    let header: csv::StringRecord = found.iter().map(str::to_ascii_lowercase).collect();
    let missing: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| !header.iter().any(|h| h == *c))
        .collect();
    if !missing.is_empty() {
        let found = found.iter().collect::<Vec<_>>().join(",");
        return Err(file_error(format!(
            "line {line}: missing column{} `{}`; expected the header `{wanted}`, found `{found}`",
            if missing.len() > 1 { "s" } else { "" },
            missing.join("`, `"),
        )));
    }
    if let Some(twice) = columns
        .iter()
        .find(|c| header.iter().filter(|h| h == *c).count() > 1)
    {
        return Err(file_error(format!(
            "line {line}: column `{twice}` appears twice"
        )));
    }
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| file_error(e.to_string()))?;
        let line = record.position().map_or(0, |p| line_of(text, p.byte()));
        let row = if record.len() != header.len() {
            Err(format!(
                "expected {} fields ({}), found {}",
                header.len(),
                header.iter().collect::<Vec<_>>().join(","),
                record.len()
            ))
        } else {
            record.deserialize(Some(&header)).map_err(|e| {
                let csv::ErrorKind::Deserialize { err, .. } = e.kind() else {
                    return e.to_string();
                };
                match err.field() {
                    Some(i) => {
                        let (i, name) = (i as usize, &header[i as usize]);
                        format!(
                            "{name} (column {}) must be {}, found `{}`",
                            i + 1,
                            expected(name),
                            &record[i]
                        )
                    }
                    None => err.to_string(),
                }
            })
        };
        out.push((line, row));
    }
    Ok(out)
}

/// The line number (from 1) of the record the reader started reading at
/// `byte`. The reader's own line count misses comment and blank lines
/// after the first record and lines ended by CRLF, and its byte offset is
/// where it began skipping them: the record is on the first line from
/// there that is neither empty nor a `#` comment.
fn line_of(text: &str, byte: u64) -> u64 {
    let (before, after) = text
        .as_bytes()
        .split_at(usize::try_from(byte).map_or(text.len(), |b| b.min(text.len())));
    let before = before.iter().filter(|&&b| b == b'\n').count();
    let skipped = after
        .split(|&b| b == b'\n')
        .take_while(|l| matches!(l, [] | [b'\r'] | [b'#', ..]))
        .count();
    (before + skipped + 1) as u64
}

/// A finite number, or a message naming the column.
fn finite(value: f64, column: &str) -> Result<f64, String> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("{column} must be a finite number, found `{value}`"))
    }
}

fn check_bond(row: BondRow) -> Result<Bond, String> {
    if row.id.is_empty() {
        return Err("the id is empty".into());
    }
    let coupon = finite(row.coupon_pct, "coupon_pct")?;
    if !(0.0..100.0).contains(&coupon) {
        return Err(format!("coupon_pct must be in [0, 100), found {coupon}"));
    }
    let maturity = finite(row.maturity_years, "maturity_years")?;
    if !(maturity > 0.0 && maturity <= 100.0) {
        return Err(format!(
            "maturity_years must be in (0, 100], found {maturity}"
        ));
    }
    if !FREQUENCIES.contains(&row.frequency) {
        return Err(format!(
            "frequency must be one of {FREQUENCIES:?} coupons a year, found {}",
            row.frequency
        ));
    }
    let price = finite(row.price, "price")?;
    if price <= 0.0 {
        return Err(format!("price must be positive, found {price}"));
    }
    Ok(Bond {
        id: row.id,
        coupon_rate: coupon / 100.0,
        maturity,
        frequency: row.frequency,
        price,
    })
}

/// Reads a portfolio from the text of a `bonds.csv`; `file` names it in
/// messages. A bad row, or a second row with an id already seen, is
/// skipped and reported.
///
/// # Errors
///
/// An empty file, a missing column or one named twice.
pub fn parse_bonds(text: &str, file: &str) -> Result<Parsed<Vec<Bond>>, FileError> {
    let mut bonds: Vec<Bond> = Vec::new();
    let mut skipped = Vec::new();
    let mut seen = HashMap::new();
    for (line, row) in rows::<BondRow>(text, file, &BOND_COLUMNS)? {
        let bond = row
            .and_then(check_bond)
            .and_then(|b| match seen.get(&b.id) {
                Some(first) => Err(format!("duplicate id `{}` (first on line {first})", b.id)),
                None => Ok(b),
            });
        match bond {
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
/// An empty file, a missing column or one named twice, or fewer than two
/// good rows.
pub fn parse_curve(text: &str, file: &str) -> Result<Parsed<Curve>, FileError> {
    let mut curve = Curve {
        tenors: Vec::new(),
        rates: Vec::new(),
    };
    let mut skipped = Vec::new();
    for (line, row) in rows::<CurveRow>(text, file, &CURVE_COLUMNS)? {
        let point = row.and_then(|row| {
            let tenor = finite(row.tenor_years, "tenor_years")?;
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
            let rate = finite(row.zero_rate_pct, "zero_rate_pct")?;
            if rate.abs() >= 100.0 {
                return Err(format!(
                    "zero_rate_pct must be in (-100, 100), found {rate}"
                ));
            }
            Ok((tenor, rate / 100.0))
        });
        match point {
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
