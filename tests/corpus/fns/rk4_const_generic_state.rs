use autograd::differentiable;

/// A ring of damped oscillators, its state a fixed-size array of any length.
#[differentiable]
fn ring_rhs<const N: usize>(y: &[f64; N], k: f64) -> [f64; N] {
    let mut dy = [0.0; N];
    for i in 0..N {
        let next = y[(i + 1) % N];
        dy[i] = -k * y[i] + 0.5 * next.sin();
    }
    dy
}

/// Classical RK4 over the ring, written once for every state size.
#[differentiable]
pub fn rk4_ring<const N: usize>(y0: [f64; N], k: f64, h: f64, steps: usize) -> f64 {
    let mut y = y0;
    for _ in 0..steps {
        let k1 = ring_rhs(&y, k);
        let mut tmp = [0.0; N];
        for i in 0..N {
            tmp[i] = y[i] + 0.5 * h * k1[i];
        }
        let k2 = ring_rhs(&tmp, k);
        for i in 0..N {
            tmp[i] = y[i] + 0.5 * h * k2[i];
        }
        let k3 = ring_rhs(&tmp, k);
        for i in 0..N {
            tmp[i] = y[i] + h * k3[i];
        }
        let k4 = ring_rhs(&tmp, k);
        for i in 0..N {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    y.iter().map(|v| v * v).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let y0 = [0.3, -0.7, 1.1, 0.4];
    let (v, dy, dk, dh) = rk4_ring_grad(y0, 0.8, 0.05, 20);
    crate::support::same_value("rk4", v, rk4_ring(y0, 0.8, 0.05, 20))?;
    let want = crate::support::fd_grad(|q| rk4_ring([q[0], q[1], q[2], q[3]], q[4], q[5], 20), &[0.3, -0.7, 1.1, 0.4, 0.8, 0.05]);
    let mut got = dy.to_vec();
    got.push(dk);
    got.push(dh);
    crate::support::close("rk4_ring", &got, &want, 1e-6)?;
    let (_, dy3, _, _) = rk4_ring_grad([0.2, 0.9, -0.5], 0.8, 0.05, 20);
    let want3 = crate::support::fd_grad(|q| rk4_ring([q[0], q[1], q[2]], 0.8, 0.05, 20), &[0.2, 0.9, -0.5]);
    crate::support::close("rk4_ring, N = 3", &dy3, &want3, 1e-6)
}
