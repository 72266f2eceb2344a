use autograd::differentiable;

#[differentiable]
fn f(x: &[f64], r#type: &[f64], a: &Vec<f64>) -> f64 {
    'x: for i in 0..x.len() {
        if i > 5 {
            break 'x;
        }
    }
    x[0] * r#type[0] * a[0]
}

#[differentiable]
fn g<'x>(x: &'x [f64], y: &[f64]) -> f64 {
    x[0] * y[0] + f(x, y, &vec![1.0])
}

fn main() {
    let v = vec![1.0, 2.0];
    println!("{:?}", g_grad(&v, &v));
}
