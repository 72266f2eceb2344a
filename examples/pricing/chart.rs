//! The portfolio's key-rate sensitivities as an SVG bar chart (plotters):
//! two panels, one bar per key tenor.

use std::error::Error;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const SIZE: (u32, u32) = (960, 440);

fn format_value(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// One panel: a bar per key tenor with its value above (or below) it.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    labels: &[String],
    values: &[f64],
    color: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let lo = values.iter().fold(0.0f64, |m, v| m.min(*v));
    let hi = values.iter().fold(0.0f64, |m, v| m.max(*v));
    // Room for the value printed past the end of the longest bar.
    let pad = 0.12 * (hi - lo).max(1e-12);
    let y = (if lo < 0.0 { lo - pad } else { 0.0 })..(if hi > 0.0 { hi + pad } else { 0.0 });
    let n = labels.len();
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((0..n.max(1) - 1).into_segmented(), y)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(n)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_desc("key tenor")
        .draw()?;
    chart.draw_series(values.iter().enumerate().map(|(i, v)| {
        let mut bar = Rectangle::new(
            [
                (SegmentValue::Exact(i), 0.0),
                (SegmentValue::Exact(i + 1), *v),
            ],
            color.filled(),
        );
        bar.set_margin(0, 0, 6, 6);
        bar
    }))?;
    chart.draw_series(values.iter().enumerate().map(|(i, v)| {
        let anchor = if *v >= 0.0 { VPos::Bottom } else { VPos::Top };
        let style = TextStyle::from(("sans-serif", 11)).pos(Pos::new(HPos::Center, anchor));
        Text::new(format_value(*v), (SegmentValue::CenterOf(i), *v), style)
    }))?;
    chart.draw_series(LineSeries::new(
        [(SegmentValue::Exact(0), 0.0), (SegmentValue::Exact(n), 0.0)],
        BLACK,
    ))?;
    Ok(())
}

/// The chart as SVG text: key-rate DV01 at fixed spread on the left, the
/// z-spread's key-rate sensitivities on the right, both summed over the
/// portfolio, one bar per entry of `labels`.
///
/// # Errors
///
/// plotters' drawing errors.
pub fn key_rates(
    labels: &[String],
    dv01: &[f64],
    dz_dr: &[f64],
    subtitle: &str,
) -> Result<String, Box<dyn Error>> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let root = root.titled(
            &format!("Portfolio key-rate sensitivities: {subtitle}"),
            ("sans-serif", 13)
                .into_font()
                .color(&RGBColor(0x55, 0x55, 0x55)),
        )?;
        let panels = root.split_evenly((1, 2));
        panel(
            &panels[0],
            "Key-rate DV01 at fixed spread: −∂P/∂rₖ × 1bp",
            labels,
            dv01,
            RGBColor(0x3b, 0x6e, 0xa8),
        )?;
        panel(
            &panels[1],
            "Z-spread key-rate sensitivity: Σ ∂z/∂rₖ",
            labels,
            dz_dr,
            RGBColor(0xc0, 0x50, 0x4d),
        )?;
        root.present()?;
    }
    Ok(svg)
}
