//! What the pricing example prints: the inputs, a table of bonds, the
//! portfolio's key-rate sensitivities, the checks and the timings.

use std::fmt::Write;
use std::time::Duration;

use crate::cli::Solver;
use crate::data::Curve;
use crate::job::{Instrument, Portfolio, Totals};

/// A key tenor as traders say it: `6m`, `2y`.
pub fn tenor_label(t: f64) -> String {
    if t < 1.0 {
        format!("{}m", (t * 12.0).round())
    } else {
        format!("{t}y")
    }
}

fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// The lines before pricing: what is priced, on which curve, how.
pub fn inputs(source: &str, curve_file: &str, curve: &Curve, solver: Solver) -> String {
    let points: Vec<String> = curve
        .tenors
        .iter()
        .zip(&curve.rates)
        .map(|(t, r)| format!("{} {:.2}%", tenor_label(*t), r * 100.0))
        .collect();
    format!(
        "pricing {source}\ncurve: {} key tenors from {curve_file} ({})\nsolver: {}, {} threads\n\n",
        curve.tenors.len(),
        points.join(", "),
        solver.name(),
        rayon::current_num_threads()
    )
}

/// The table of the first `rows` bonds, the portfolio's totals, the checks
/// and the timings. `synthetic` says whether the bonds' true spreads are
/// known.
pub fn results(
    curve: &Curve,
    bonds: &[Instrument],
    portfolio: &Portfolio,
    rows: usize,
    synthetic: bool,
) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = table(&mut out, curve, bonds, portfolio, rows);
    let _ = totals(&mut out, curve, bonds, portfolio, synthetic);
    out
}

fn table(
    out: &mut String,
    curve: &Curve,
    bonds: &[Instrument],
    portfolio: &Portfolio,
    rows: usize,
) -> std::fmt::Result {
    writeln!(
        out,
        "{:<14} {:>9} {:>9} {:>11} {:>16} {:>9} {:>9} {:>9}",
        "id", "price", "z-spread", "dz/dprice", "largest dz/dr_k", "DV01", "convexity", "adj-bump"
    )?;
    writeln!(
        out,
        "{:<14} {:>9} {:>9} {:>11} {:>16} {:>9} {:>9} {:>9}",
        "", "per 100", "bp", "bp per 1.00", "tenor: value", "per 1bp", "years²", "rel. diff"
    )?;
    let second = &portfolio.second_order;
    for ((b, priced), s) in bonds.iter().zip(&portfolio.priced).zip(second).take(rows) {
        let (a, _, diff) = match priced {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "{:<14} {:>9.3}  error: {e}", b.id, b.market_price)?;
                continue;
            }
        };
        let (k, top) = a
            .dz_dcurve
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))
            .map_or((0, 0.0), |(k, v)| (k, *v));
        writeln!(
            out,
            "{:<14} {:>9.3} {:>9.2} {:>11.4} {:>16} {:>9.4} {:>9.3} {:>9.1e}",
            b.id,
            b.market_price,
            a.z * 1e4,
            a.dz_dprice * 1e4,
            format!("{}: {:+.4}", tenor_label(curve.tenors[k]), top),
            -a.dp_dz * 1e-4,
            s.as_ref().map_or(f64::NAN, |s| s.convexity),
            diff
        )?;
    }
    if rows < bonds.len() {
        writeln!(
            out,
            "… {} more bonds (--rows N shows more)",
            bonds.len() - rows
        )?;
    }
    Ok(())
}

fn totals(
    out: &mut String,
    curve: &Curve,
    bonds: &[Instrument],
    portfolio: &Portfolio,
    synthetic: bool,
) -> std::fmt::Result {
    let t = &portfolio.totals;
    writeln!(
        out,
        "\nportfolio: {} bonds priced, {} failed; 100 face each: \
         market value {:.2}, DV01 {:.4} per bp of spread",
        bonds.len() - t.failures,
        t.failures,
        t.market_value,
        t.dv01
    )?;
    writeln!(out, "key-rate sensitivities, summed over the portfolio:")?;
    writeln!(
        out,
        "  {:>6} {:>18} {:>12}",
        "tenor", "DV01 (-dP/dr·1bp)", "Σ dz/dr_k"
    )?;
    for k in 0..curve.tenors.len() {
        writeln!(
            out,
            "  {:>6} {:>18.4} {:>12.4}",
            tenor_label(curve.tenors[k]),
            t.key_rate_dv01[k],
            t.key_rate_dz[k]
        )?;
    }
    writeln!(
        out,
        "  {:>6} {:>18.4} {:>12.4}",
        "total",
        t.key_rate_dv01.iter().sum::<f64>(),
        t.key_rate_dz.iter().sum::<f64>()
    )?;
    key_rate_gamma(out, curve, t)?;
    let (worst, worst_id) = &t.worst_difference;
    writeln!(
        out,
        "\nchecks:\n  adjoint vs bump-and-reprice: largest relative difference {worst:.2e} ({})",
        if worst_id.is_empty() { "-" } else { worst_id }
    )?;
    let (worst, worst_id) = &t.worst_second_order;
    writeln!(
        out,
        "  Hessian vs central differences of the adjoint gradient (convexity, key-rate gamma): \
         largest relative difference {worst:.2e} ({})",
        if worst_id.is_empty() { "-" } else { worst_id }
    )?;
    writeln!(
        out,
        "  Σ_k dz/dr_k = -1 for every bond (a parallel shift moves z one for one): \
         worst |Σ + 1| = {:.1e}",
        t.worst_parallel
    )?;
    if synthetic {
        writeln!(
            out,
            "  z-spread recovered from prices made at a known spread: worst error {:.1e}",
            t.worst_true_z
        )?;
    }
    let k = curve.tenors.len();
    let (t_adjoint, t_bump) = (portfolio.adjoint_time, portfolio.bump_time);
    let rate = |d: Duration| bonds.len() as f64 / d.as_secs_f64().max(1e-12);
    writeln!(
        out,
        "\ntimings, whole portfolio ({} threads):\n  \
         adjoint:          {:>10}  {:>9.0} bonds/s  (per bond: z_spread_grad = 1 solve + 1 pullback; price_grad)\n  \
         bump-and-reprice: {:>10}  {:>9.0} bonds/s  (per bond: {} solves + {} repricings)\n  \
         bump-and-reprice took {:.1}x the adjoint's time\n  \
         second order:     {:>10}  {:>9.0} bonds/s  (per bond: price_hessian)\n  \
         its check:        {:>10}  {:>9.0} bonds/s  (per bond: {} price_grad, central differences)",
        rayon::current_num_threads(),
        duration(t_adjoint),
        rate(t_adjoint),
        duration(t_bump),
        rate(t_bump),
        2 * k + 3,
        2 * k,
        t_bump.as_secs_f64() / t_adjoint.as_secs_f64().max(1e-12),
        duration(portfolio.hessian_time),
        rate(portfolio.hessian_time),
        duration(portfolio.differenced_time),
        rate(portfolio.differenced_time),
        2 * k + 3
    )
}

/// The portfolio's convexity and key-rate gamma Σ ∂²P/∂r_j∂r_k: the
/// diagonal per tenor and the largest off-diagonal entry, per 1bp² as the
/// change of DV01 per bp.
fn key_rate_gamma(out: &mut String, curve: &Curve, t: &Totals) -> std::fmt::Result {
    let g = &t.key_rate_gamma;
    writeln!(
        out,
        "\nsecond order (price_hessian at each bond's spread), summed over the portfolio:\n  \
         convexity {:.4} years² (value-weighted; Σ d²P/dz² = {:.2})",
        t.spread_gamma / t.market_value.max(1e-300),
        t.spread_gamma
    )?;
    let diagonal: Vec<String> = (0..g.nrows())
        .map(|k| format!("{} {:.3e}", tenor_label(curve.tenors[k]), g[(k, k)] * 1e-8))
        .collect();
    writeln!(
        out,
        "  key-rate gamma d²P/dr_k² per 1bp²: {}",
        diagonal.join(", ")
    )?;
    let off = (0..g.nrows())
        .flat_map(|j| (0..j).map(move |k| (j, k)))
        .max_by(|x, y| g[*x].abs().total_cmp(&g[*y].abs()));
    if let Some((j, k)) = off {
        writeln!(
            out,
            "  largest cross gamma d²P/dr_j dr_k per 1bp²: {} x {} {:.3e}",
            tenor_label(curve.tenors[k]),
            tenor_label(curve.tenors[j]),
            g[(j, k)] * 1e-8
        )?;
    }
    Ok(())
}
