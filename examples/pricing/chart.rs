//! The portfolio's key-rate sensitivities as an SVG bar chart, written by
//! hand (two panels, a few dozen elements: no plotting crate needed).

use std::fmt::Write;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 440.0;

/// Up to about six round tick values covering `[lo, hi]` (which holds 0).
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-300);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One panel: a bar per key tenor, a zero line, a value axis with ticks
/// and grid lines, the value of each bar above or below it.
fn panel(out: &mut String, x0: f64, title: &str, labels: &[String], values: &[f64], color: &str) {
    let (w, top, bottom) = (WIDTH / 2.0, 70.0, HEIGHT - 50.0);
    let (left, right) = (x0 + 70.0, x0 + w - 20.0);
    let lo = values.iter().fold(0.0f64, |m, v| m.min(*v));
    let hi = values.iter().fold(0.0f64, |m, v| m.max(*v));
    let ticks = ticks(lo, hi);
    let (t_lo, t_hi) = (ticks[0], ticks[ticks.len() - 1]);
    let y = |v: f64| bottom - (v - t_lo) / (t_hi - t_lo).max(1e-300) * (bottom - top);
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="40" font-size="15" font-weight="bold" text-anchor="middle">{}</text>"#,
        (left + right) / 2.0,
        escape(title)
    );
    for t in &ticks {
        let _ = writeln!(
            out,
            r##"<line x1="{left:.1}" x2="{right:.1}" y1="{0:.1}" y2="{0:.1}" stroke="#ddd"/><text x="{1:.1}" y="{2:.1}" font-size="11" text-anchor="end">{3}</text>"##,
            y(*t),
            left - 6.0,
            y(*t) + 4.0,
            format_tick(*t)
        );
    }
    let slot = (right - left) / labels.len().max(1) as f64;
    for (i, (label, v)) in labels.iter().zip(values).enumerate() {
        let cx = left + slot * (i as f64 + 0.5);
        let (y0, y1) = (y(0.0), y(*v));
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"#,
            cx - slot * 0.35,
            y0.min(y1),
            slot * 0.7,
            (y1 - y0).abs()
        );
        let ty = if *v >= 0.0 { y1 - 4.0 } else { y1 + 12.0 };
        let _ = writeln!(
            out,
            r#"<text x="{cx:.1}" y="{ty:.1}" font-size="10" text-anchor="middle">{}</text>"#,
            format_value(*v)
        );
        let _ = writeln!(
            out,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
            bottom + 18.0,
            escape(label)
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{left:.1}" x2="{right:.1}" y1="{0:.1}" y2="{0:.1}" stroke="#333"/><line x1="{left:.1}" x2="{left:.1}" y1="{top:.1}" y2="{bottom:.1}" stroke="#333"/>"##,
        y(0.0)
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">key tenor</text>"#,
        (left + right) / 2.0,
        bottom + 38.0
    );
}

fn format_tick(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn format_value(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The chart: key-rate DV01 at fixed spread on the left, the z-spread's
/// key-rate sensitivities on the right, both summed over the portfolio.
pub fn key_rates(labels: &[String], dv01: &[f64], dz_dr: &[f64], subtitle: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r##"<text x="{:.1}" y="18" font-size="12" fill="#555" text-anchor="middle">Portfolio key-rate sensitivities: {}</text>"##,
        WIDTH / 2.0,
        escape(subtitle)
    );
    panel(
        &mut out,
        0.0,
        "Key-rate DV01 at fixed spread: −∂P/∂rₖ × 1bp",
        labels,
        dv01,
        "#3b6ea8",
    );
    panel(
        &mut out,
        WIDTH / 2.0,
        "Z-spread key-rate sensitivity: Σ ∂z/∂rₖ",
        labels,
        dz_dr,
        "#c0504d",
    );
    out.push_str("</svg>\n");
    out
}
