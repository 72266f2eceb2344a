//! The benchmark suite's references are right: every hand-written
//! gradient agrees with central finite differences and with the closed
//! forms, and every contender the bench times agrees with the hand-written
//! one (the check the bench itself runs before timing).
//!
//! The cases are the bench's own module, included by path, so the code
//! tested here is the code `benches/gradients.rs` times. Tolerances are
//! each case's `TOLERANCES`, explained next to them.

#[path = "../benches/cases/mod.rs"]
#[allow(dead_code)]
mod cases;

use approx::assert_relative_eq;
use cases::{Flat, black_scholes, bond, dense, rosenbrock, zspread};

fn by_name<'a>(all: &'a [Flat], name: &str) -> &'a Flat {
    all.iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no contender {name}"))
}

/// The hand-written gradient against central differences alone, with the
/// case's finite-difference tolerances.
fn hand_matches_fd(case: &str, all: &[Flat], tol: cases::Tolerances) {
    let pair = [by_name(all, "hand").clone(), by_name(all, "fd").clone()];
    if let Err(e) = cases::compare(&pair, tol) {
        panic!("{case}: the hand-written gradient disagrees with central differences: {e}");
    }
}

#[test]
fn hand_written_gradients_match_central_differences() {
    for (name, all, tol) in cases::every_case() {
        hand_matches_fd(&name, &all, tol);
    }
}

#[test]
fn every_contender_matches_the_hand_written_gradient() {
    if let Err(e) = cases::check_every_case() {
        panic!("{e}");
    }
}

#[test]
fn primal_and_ours_agree_bit_for_bit() {
    for (name, all, _) in cases::every_case() {
        let (p, o) = (by_name(&all, "primal"), by_name(&all, "ours"));
        assert_eq!(p.value.to_bits(), o.value.to_bits(), "{name}");
    }
}

#[test]
fn rosenbrock_hand_written_matches_the_closed_form() {
    // ∂f/∂xᵢ = −2(1 − xᵢ) − 400·xᵢ(xᵢ₊₁ − xᵢ²) + 200(xᵢ − xᵢ₋₁²), each
    // term where it exists.
    for n in cases::ROSENBROCK_SIZES {
        let inp = rosenbrock::Inputs::new(n);
        let x = &inp.x;
        let (_, g) = rosenbrock::hand(&inp);
        for i in 0..n {
            let mut e = 0.0;
            if i + 1 < n {
                e += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
            }
            if i > 0 {
                e += 200.0 * (x[i] - x[i - 1] * x[i - 1]);
            }
            assert_relative_eq!(g[i], e, epsilon = 1e-10, max_relative = 1e-13);
        }
    }
    // The minimum.
    let (v, g) = rosenbrock::hand(&rosenbrock::Inputs { x: vec![1.0; 5] });
    assert_eq!(v, 0.0);
    assert_eq!(g, vec![0.0; 5]);
}

#[test]
fn black_scholes_hand_written_matches_independent_reference() {
    // S = 100, K = 105, r = 5%, σ = 20%, T = 1: price and Greeks from
    // Φ(x) = erfc(−x/√2)/2 of the C library (independent of Hart's Φ).
    let (price, g) = black_scholes::hand(&black_scholes::Inputs::new());
    assert_relative_eq!(
        price,
        8.021_352_235_143_176,
        epsilon = 1e-11,
        max_relative = 1e-9
    );
    let expected = [
        0.542_228_333_584_805_3,
        -0.440_014_105_936_546_2,
        46.201_481_123_337_35,
        39.670_523_808_426_53,
        6.277_126_437_009_521,
    ];
    for (got, want) in g.iter().zip(expected) {
        assert_relative_eq!(*got, want, epsilon = 1e-11, max_relative = 1e-9);
    }
}

#[test]
fn bond_spread_sensitivity_is_the_sum_of_the_key_rates() {
    // ∂P/∂z = Σᵢ ∂P/∂rᵢ: a parallel shift of the curve is a spread change.
    let (_, dr, dz) = bond::hand(&bond::Inputs::new());
    assert_eq!(dr.len(), bond::POINTS);
    assert_relative_eq!(
        dz,
        dr.iter().sum::<f64>(),
        epsilon = 1e-12,
        max_relative = 1e-13
    );
}

#[test]
fn dense_forms_agree() {
    // The loop form (row-major W) and the nalgebra form (column-major)
    // compute the same layer.
    let (vl, dwl, dxl, dbl) = dense::loops::hand(&dense::loops::Inputs::new());
    let (vm, dwm, dxm, dbm) = dense::matrix::hand(&dense::matrix::Inputs::new());
    assert_relative_eq!(vl, vm, epsilon = 1e-13, max_relative = 1e-13);
    let n = dense::SIZE;
    for i in 0..n {
        for j in 0..n {
            assert_relative_eq!(
                dwl[i * n + j],
                dwm[(i, j)],
                epsilon = 1e-14,
                max_relative = 1e-12
            );
        }
        assert_relative_eq!(dxl[i], dxm[i], epsilon = 1e-14, max_relative = 1e-12);
        assert_relative_eq!(dbl[i], dbm[i], epsilon = 1e-14, max_relative = 1e-12);
    }
}

#[test]
fn zspread_reprices_the_bond() {
    // The root is the spread the market price was computed at.
    let inp = zspread::Inputs::new();
    let (z, dr, dm) = zspread::hand(&inp);
    assert!((z - 0.01).abs() <= zspread::TOL, "z = {z}");
    // A parallel shift of the curve moves z one for one the other way.
    assert_relative_eq!(
        dr.iter().sum::<f64>(),
        -1.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    // A higher price needs a lower spread.
    assert!(dm < 0.0);
}
