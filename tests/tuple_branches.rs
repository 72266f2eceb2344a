//! A `let` binding a tuple from an `if` or `match` value (finding 034,
//! section 2): `let (l, r) = match .. { .. => (a, b), .. };` is one branch
//! with a φ per component (issue 36: lowered, no longer one `let` and one
//! copy of the branch per component). Expected adjoints come from closed
//! forms (tolerance `CF64_*`).

#[path = "fd_support/mod.rs"]
mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;

/// The one-sided difference at a boundary, the corpus's
/// laplacian_match_boundary form.
#[differentiable(jvp, hessian)]
fn one_sided(u: &[f64], #[constant] i: usize) -> f64 {
    let (l, r) = match i == 0 {
        true => (u[i], u[i + 1]),
        false => (u[i - 1], u[i]),
    };
    (r - l) * (r + l)
}

/// The finding's corpus form (laplacian_match_boundary): a `match` on a
/// tuple of tests.
#[differentiable]
fn neighbours_at_edges(u: &[f64], #[constant] i: usize) -> f64 {
    let n = u.len();
    let (l, r) = match (i == 0, i == n - 1) {
        (true, _) => (u[i], u[i + 1]),
        (_, true) => (u[i - 1], u[i]),
        _ => (u[i - 1], u[i + 1]),
    };
    r * r - l
}

/// A tuple from an `if` / `else if` chain, typed, one component ignored.
#[differentiable(jvp, hessian)]
fn piecewise(x: f64, y: f64) -> f64 {
    let (a, b, _): (f64, f64, f64) = if x > 1.0 {
        (x * y, 2.0 * x, 0.0)
    } else if x > 0.0 {
        (x.sin(), y * y, 1.0)
    } else {
        (y, x, 2.0)
    };
    a + b * x
}

/// A tuple from a `match` with a guard and an arm that leaves.
#[differentiable]
fn by_edges(u: &[f64], #[constant] i: usize) -> f64 {
    let n = u.len();
    let (w, c) = match i {
        _ if n == 1 => return u[i],
        0 => (u[i + 1], 2.0),
        k if k + 1 == n => (u[i - 1], 3.0),
        _ => (u[i - 1] * u[i + 1], 4.0),
    };
    c * w * u[i]
}

/// An arm that computes before its tuple (it was one error: the branch
/// was copied per component, so its statements would have run twice).
#[differentiable(jvp, hessian)]
fn ends(u: &[f64], #[constant] i: usize) -> f64 {
    let (l, r) = match i {
        0 => {
            let d = u[1] - u[0];
            (u[0] - d, u[0])
        }
        _ => (u[i - 1], u[i]),
    };
    r * l
}

/// A nested tuple of three from a `match` of three arms, one arm a
/// tuple-valued `if`, and a tuple bound whole by name.
#[differentiable(jvp, hessian)]
fn nested_parts(x: f64, y: f64, #[constant] k: usize) -> f64 {
    let ((a, b), c) = match k {
        0 => ((x * y, x), 1.0),
        1 => {
            if x > 0.0 {
                ((x, y * y), 2.0)
            } else {
                ((-x, y), 3.0)
            }
        }
        _ => ((y, x.exp()), 4.0),
    };
    let t = if a > b { (a, b) } else { (b, a) };
    c * t.0 + t.1 * t.1
}

#[test]
fn a_tuple_whose_arm_computes_first_and_nested_tuples() {
    let u = [0.7, -1.2, 0.4];
    // i = 0: (2u₀ − u₁)·u₀ = 2u₀² − u₀u₁; i > 0: u_{i−1}·u_i.
    for i in 0..3 {
        let (v, g) = ends_grad(&u, i);
        assert_eq!(v, ends(&u, i));
        let want = match i {
            0 => [4.0 * u[0] - u[1], -u[0], 0.0],
            1 => [u[1], u[0], 0.0],
            _ => [0.0, u[2], u[1]],
        };
        for k in 0..3 {
            assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
        }
        let dir = [0.3, -0.5, 1.1];
        let (_, t) = ends_jvp(&u, i, &dir);
        let along: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, _, h) = ends_hessian(&u, i);
        let hwant = match i {
            0 => [[4.0, -1.0, 0.0], [-1.0, 0.0, 0.0], [0.0; 3]],
            1 => [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0; 3]],
            _ => [[0.0; 3], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
        };
        for a in 0..3 {
            for b in 0..3 {
                assert_relative_eq!(
                    h[(a, b)],
                    hwant[a][b],
                    epsilon = CF64_ABS,
                    max_relative = CF64_REL
                );
            }
        }
    }

    // Each case: the value's gradient (d/dx, d/dy) and Hessian entries
    // (xx, xy, yy), from v = c·max(a, b) + min(a, b)².
    let (x, y) = (1.5_f64, 0.8_f64);
    // k = 0: a = xy = 1.2 < b = x: v = x + (xy)².
    let k0 = (
        (1.0 + 2.0 * x * y * y, 2.0 * x * x * y),
        (2.0 * y * y, 4.0 * x * y, 2.0 * x * x),
    );
    // k = 1, x > 0: a = x > b = y²: v = 2x + y⁴.
    let k1 = ((2.0, 4.0 * y.powi(3)), (0.0, 0.0, 12.0 * y * y));
    // k = 2: a = y < b = eˣ: v = 4eˣ + y².
    let k2 = ((4.0 * x.exp(), 2.0 * y), (4.0 * x.exp(), 0.0, 2.0));
    for (k, ((gx, gy), (hxx, hxy, hyy))) in [(0, k0), (1, k1), (2, k2)] {
        let (v, dx, dy) = nested_parts_grad(x, y, k);
        assert_eq!(v, nested_parts(x, y, k));
        assert_relative_eq!(dx, gx, epsilon = CF64_ABS, max_relative = CF64_REL);
        assert_relative_eq!(dy, gy, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, t) = nested_parts_jvp(x, y, k, 0.7, -0.2);
        assert_relative_eq!(
            t,
            0.7 * gx - 0.2 * gy,
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        let (_, _, h) = nested_parts_hessian(x, y, k);
        for (got, want) in [
            (h[(0, 0)], hxx),
            (h[(0, 1)], hxy),
            (h[(1, 0)], hxy),
            (h[(1, 1)], hyy),
        ] {
            assert_relative_eq!(got, want, epsilon = CF64_ABS, max_relative = CF64_REL);
        }
    }
    // k = 1, x < 0: a = −x = 0.5 < b = y = 0.8: v = 3y + x².
    let (_, dx, dy) = nested_parts_grad(-0.5, 0.8, 1);
    assert_relative_eq!(dx, -1.0, epsilon = CF64_ABS, max_relative = CF64_REL);
    assert_relative_eq!(dy, 3.0, epsilon = CF64_ABS, max_relative = CF64_REL);
}

#[test]
fn a_tuple_from_an_if_or_match() {
    let u = [0.7, -1.2, 0.4, 2.0];
    // (r - l)(r + l) = r² - l².
    for i in 0..3 {
        let (l, r) = if i == 0 { (0, 1) } else { (i - 1, i) };
        let (v, g) = one_sided_grad(&u, i);
        assert_eq!(v, one_sided(&u, i));
        let mut want = [0.0; 4];
        want[r] += 2.0 * u[r];
        want[l] -= 2.0 * u[l];
        for k in 0..4 {
            assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
        }
        let dir = [0.3, -0.5, 1.1, 0.2];
        let (_, t) = one_sided_jvp(&u, i, &dir);
        let along: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, _, h) = one_sided_hessian(&u, i);
        for a in 0..4 {
            for b in 0..4 {
                let want = match (a == b, a) {
                    (true, a) if a == r => 2.0,
                    (true, a) if a == l => -2.0,
                    _ => 0.0,
                };
                assert_relative_eq!(h[(a, b)], want, epsilon = CF64_ABS, max_relative = CF64_REL);
            }
        }
    }

    // r² - l: 2 u_r at r, -1 at l.
    for i in 0..4 {
        let (l, r) = match i {
            0 => (0, 1),
            3 => (2, 3),
            _ => (i - 1, i + 1),
        };
        let (v, g) = neighbours_at_edges_grad(&u, i);
        assert_eq!(v, neighbours_at_edges(&u, i));
        let mut want = [0.0; 4];
        want[r] += 2.0 * u[r];
        want[l] -= 1.0;
        for k in 0..4 {
            assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
        }
    }

    // x > 1: xy + 2x²; 0 < x ≤ 1: sin x + x y²; x ≤ 0: y + x².
    for (x, y) in [(1.5_f64, 0.3_f64), (0.6, -0.8), (-0.4, 1.3)] {
        let (gx, gy, hxx, hxy, hyy) = if x > 1.0 {
            (y + 4.0 * x, x, 4.0, 1.0, 0.0)
        } else if x > 0.0 {
            (x.cos() + y * y, 2.0 * x * y, -x.sin(), 2.0 * y, 2.0 * x)
        } else {
            (2.0 * x, 1.0, 2.0, 0.0, 0.0)
        };
        let (v, dx, dy) = piecewise_grad(x, y);
        assert_eq!(v, piecewise(x, y));
        assert_relative_eq!(dx, gx, epsilon = CF64_ABS, max_relative = CF64_REL);
        assert_relative_eq!(dy, gy, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, t) = piecewise_jvp(x, y, 0.7, -0.2);
        let along = 0.7 * gx - 0.2 * gy;
        assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, _, h) = piecewise_hessian(x, y);
        for (got, want) in [
            (h[(0, 0)], hxx),
            (h[(0, 1)], hxy),
            (h[(1, 0)], hxy),
            (h[(1, 1)], hyy),
        ] {
            assert_relative_eq!(got, want, epsilon = CF64_ABS, max_relative = CF64_REL);
        }
    }

    // One element: u_0. First: 2 u_1 u_0. Last: 3 u_{n-2} u_{n-1}. Else:
    // 4 u_{i-1} u_{i+1} u_i.
    let (v, g) = by_edges_grad(&[1.7], 0);
    assert_eq!((v, g), (1.7, vec![1.0]));
    let (v, g) = by_edges_grad(&u, 0);
    assert_eq!(v, by_edges(&u, 0));
    let want = [2.0 * u[1], 2.0 * u[0], 0.0, 0.0];
    for k in 0..4 {
        assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
    }
    let (_, g) = by_edges_grad(&u, 3);
    let want = [0.0, 0.0, 3.0 * u[3], 3.0 * u[2]];
    for k in 0..4 {
        assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
    }
    let (_, g) = by_edges_grad(&u, 1);
    let want = [4.0 * u[2] * u[1], 4.0 * u[0] * u[2], 4.0 * u[0] * u[1], 0.0];
    for k in 0..4 {
        assert_relative_eq!(g[k], want[k], epsilon = CF64_ABS, max_relative = CF64_REL);
    }
}
