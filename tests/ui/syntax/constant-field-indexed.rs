use autograd::differentiable;

pub struct Schedule {
    pub times: Vec<f64>,
}

// The macro does not see the field's type: it says to name it in a local.
#[differentiable]
fn first_discount(rate: f64, #[constant] sched: &Schedule) -> f64 {
    (-rate * sched.times[0]).exp()
}

fn main() {
    let _ = first_discount(0.1, &Schedule { times: vec![1.0] });
}
