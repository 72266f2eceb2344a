fn euler(x0: f64, n: usize) -> f64 {
    let mut x = x0;
    #[checkpoint]
    for _ in 0..n {
        x = x + 1e-3 * x.sin();
    }
    x
}

fn main() {
    let _ = euler(1.0, 10);
}
