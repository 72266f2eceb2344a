use autograd::differentiable;

#[differentiable(hessian)]
fn energy(x: &[f32]) -> f32 {
    x[0] * x[0] * x[1]
}

fn main() {
    // Sparse Hessians are made for `f64` functions: one error saying so.
    let coloring = energy_hessian_pattern(&[1.0, 2.0]);
    println!("{}", coloring.colors());
}
