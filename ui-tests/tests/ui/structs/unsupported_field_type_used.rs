use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Grid {
    rows: Vec<Vec<f64>>,
    scale: f64,
}

#[differentiable]
fn total(g: &Grid, x: f64) -> f64 {
    g.scale * x
}

fn main() {
    let g = Grid {
        rows: vec![vec![1.0]],
        scale: 2.0,
    };
    let _ = (total(&g, 1.0), g.rows);
}
