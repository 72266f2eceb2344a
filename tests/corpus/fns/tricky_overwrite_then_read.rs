use autograd::differentiable;

/// Values overwritten and then read: a local read before and after its
/// reassignment, array slots overwritten from each other, and compound
/// assignments whose right side reads the target itself.
#[differentiable]
pub fn tricky_overwrite_then_read(x: f64, y: f64) -> f64 {
    let mut a = x * y;
    let b = a * a;
    a = a.sin() + x;
    let mut v = [x, y, x * y];
    v[0] = v[1] * v[2];
    v[2] = v[0] - v[2];
    v[1] = v[1] * v[1];
    let mut c = x;
    c *= c;
    c += c * y;
    c -= a;
    a * b + v[0] * v[2] + v[1] + a + c
}

pub fn check() -> Result<(), String> {
    scalar_check!(tricky_overwrite_then_read, tricky_overwrite_then_read_grad, 1e-6,
        [[1.3, 0.7], [-0.6, 1.9], [0.4, -1.2]],
        (x, y))
}
