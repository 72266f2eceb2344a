use autograd::Tangent;

#[derive(Clone, Tangent)]
struct Params(f64, f64);

fn main() {}
