use autograd::Tangent;

#[derive(Clone, Tangent)]
struct Grid {
    rows: Vec<Vec<f64>>,
    scale: f64,
}

fn main() {}
