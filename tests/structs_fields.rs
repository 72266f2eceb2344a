//! `Tangent` structs with fields other than floats: `Vec<f64>`, `[f64; N]`
//! and `DVector<f64>` fields, nested structs, integer, `bool` and
//! `#[constant]` fields of any type.
//!
//! Expected derivatives are central differences of the primal, one per
//! field element (step 1e-6 relative, tolerance 1e-6 relative to the
//! larger of the two and 1), or closed forms.

#![allow(clippy::needless_range_loop)]

use autograd::{Tangent, differentiable};
use nalgebra::DVector;

/// Central difference of `f` at `x`.
fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn assert_close(what: &str, got: f64, want: f64) {
    let tol = 1e-6 * got.abs().max(want.abs()).max(1.0);
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got} vs central difference {want}"
    );
}

/// A linear model: one weight per feature and a bias.
#[derive(Clone, Debug, PartialEq, Tangent)]
struct Linear {
    w: Vec<f64>,
    b: f64,
    /// Ridge penalty: data, not a parameter.
    #[constant]
    lambda: f64,
    name: String,
}

impl Linear {
    /// Mean squared error over the rows of `x`, plus a ridge penalty.
    #[differentiable]
    fn loss(&self, #[constant] x: &[Vec<f64>], y: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..y.len() {
            let mut p = self.b;
            for j in 0..self.w.len() {
                p += self.w[j] * x[i][j];
            }
            let r = p - y[i];
            s += r * r;
        }
        let mut penalty = 0.0;
        for w in self.w.iter() {
            penalty += w * w;
        }
        s / y.len() as f64 + self.lambda * penalty
    }
}

fn linear() -> (Linear, Vec<Vec<f64>>, Vec<f64>) {
    let model = Linear {
        w: vec![0.4, -1.2, 0.7],
        b: 0.3,
        lambda: 0.05,
        name: "ridge".into(),
    };
    let x = vec![
        vec![1.0, 0.5, -0.3],
        vec![0.2, -1.0, 2.0],
        vec![-0.7, 0.1, 0.9],
        vec![1.5, 1.2, -0.4],
    ];
    let y = vec![0.5, -1.0, 2.2, 0.1];
    (model, x, y)
}

#[test]
fn linear_regression_against_central_differences_of_every_weight() {
    let (m, x, y) = linear();
    let (value, dm, dy) = m.loss_grad(&x, &y);
    assert_eq!(value, m.loss(&x, &y));
    assert_eq!(dm.w.len(), 3);
    for j in 0..3 {
        let want = central(
            |v| {
                let mut q = m.clone();
                q.w[j] = v;
                q.loss(&x, &y)
            },
            m.w[j],
        );
        assert_close(&format!("w[{j}]"), dm.w[j], want);
    }
    let want = central(|v| Linear { b: v, ..m.clone() }.loss(&x, &y), m.b);
    assert_close("b", dm.b, want);
    for i in 0..y.len() {
        let want = central(
            |v| {
                let mut z = y.clone();
                z[i] = v;
                m.loss(&x, &z)
            },
            y[i],
        );
        assert_close(&format!("y[{i}]"), dy[i], want);
    }
    // Constant fields are the argument's.
    assert_eq!((dm.lambda, dm.name.as_str()), (0.05, "ridge"));
    let check = m.loss_check(&x, &y);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    // The check sees every element of `w`, `b`, and `y`.
    assert_eq!(check.components().len(), 3 + 1 + 4);
}

#[test]
fn grad_acc_adds_into_a_struct_buffer_with_a_vec_field() {
    let (m, x, y) = linear();
    let mut dm = Linear {
        w: vec![1.0, 2.0, 3.0],
        b: 10.0,
        lambda: 7.0,
        name: "buffer".into(),
    };
    let mut dy = vec![0.5; 4];
    let value = m.loss_grad_acc(&x, &y, &mut dm, &mut dy);
    assert_eq!(value, m.loss(&x, &y));
    let (_, g, gy) = m.loss_grad(&x, &y);
    for j in 0..3 {
        assert_eq!(dm.w[j], (j + 1) as f64 + g.w[j]);
    }
    assert_eq!(dm.b, 10.0 + g.b);
    // The buffer's constant fields stay as they were.
    assert_eq!((dm.lambda, dm.name.as_str()), (7.0, "buffer"));
    assert_eq!(dy, gy.iter().map(|g| 0.5 + g).collect::<Vec<_>>());
    // Twice: twice the gradient.
    let mut twice = m.zero_adjoint();
    m.loss_grad_acc(&x, &y, &mut twice, &mut dy);
    m.loss_grad_acc(&x, &y, &mut twice, &mut dy);
    for j in 0..3 {
        assert_eq!(twice.w[j], 2.0 * g.w[j]);
    }
}

/// The shape of a curve, inside [`Curve`].
#[derive(Clone, Debug, Tangent)]
struct Shape {
    slope: f64,
    knots: [f64; 2],
    flat: bool,
}

/// A nested struct, an integer and a `bool` field.
#[derive(Clone, Debug, Tangent)]
struct Curve {
    level: f64,
    shape: Shape,
    #[constant]
    label: Vec<String>,
    terms: usize,
}

/// Reads nested fields by value, by index and through a `bool`.
#[differentiable]
fn curve_at(c: &Curve, t: f64) -> f64 {
    let mut v = c.level + c.shape.slope * t;
    if !c.shape.flat {
        v += c.shape.knots[0] * (t - 1.0).max(0.0) + c.shape.knots[1] * (t - 2.0).max(0.0);
    }
    let mut s = 0.0;
    for k in 0..c.terms {
        s += (v * (k + 1) as f64).sin() / (k + 1) as f64;
    }
    s
}

fn curve(flat: bool) -> Curve {
    Curve {
        level: 0.2,
        shape: Shape {
            slope: 0.3,
            knots: [0.5, -0.25],
            flat,
        },
        label: vec!["a".into()],
        terms: 3,
    }
}

#[test]
fn nested_struct_against_central_differences() {
    for flat in [false, true] {
        let c = curve(flat);
        let t = 2.6;
        let (value, dc, dt) = curve_at_grad(&c, t);
        assert_eq!(value, curve_at(&c, t));
        let at = |set: &dyn Fn(&mut Curve, f64), x: f64| {
            central(
                |v| {
                    let mut q = c.clone();
                    set(&mut q, v);
                    curve_at(&q, t)
                },
                x,
            )
        };
        assert_close("level", dc.level, at(&|q, v| q.level = v, c.level));
        assert_close(
            "shape.slope",
            dc.shape.slope,
            at(&|q, v| q.shape.slope = v, c.shape.slope),
        );
        for k in 0..2 {
            let want = at(&|q, v| q.shape.knots[k] = v, c.shape.knots[k]);
            assert_close(&format!("shape.knots[{k}]"), dc.shape.knots[k], want);
        }
        if flat {
            assert_eq!(dc.shape.knots, [0.0, 0.0]);
        }
        assert_close("t", dt, central(|v| curve_at(&c, v), t));
        assert_eq!((dc.shape.flat, dc.terms, &dc.label), (flat, 3, &c.label));
        let check = curve_at_check(&c, t);
        assert!(check.max_abs_error() < 1e-6, "{check:?}");
        assert_eq!(check.components().len(), 1 + 1 + 2 + 1);
    }
}

/// Parameters of y' = -k0 y + k1 sin(t) - k2 y³, integrated by Euler.
#[derive(Clone, Debug, Tangent)]
struct Decay {
    rates: [f64; 3],
    y0: f64,
    #[constant]
    dt: f64,
    steps: u32,
}

/// A method taking `&self`, an associated function taking the struct.
#[differentiable]
impl Decay {
    #[differentiable]
    fn rhs(&self, t: f64, y: f64) -> f64 {
        -self.rates[0] * y + self.rates[1] * t.sin() - self.rates[2] * y * y * y
    }

    #[differentiable]
    fn endpoint(&self) -> f64 {
        let mut y = self.y0;
        let mut t = 0.0;
        for _ in 0..self.steps as usize {
            y += self.dt * self.rhs(t, y);
            t += self.dt;
        }
        y
    }

    #[differentiable]
    fn misfit(p: &Decay, target: f64) -> f64 {
        let e = Self::endpoint(p) - target;
        e * e
    }
}

fn decay() -> Decay {
    Decay {
        rates: [0.8, 0.5, 0.1],
        y0: 1.2,
        dt: 0.05,
        steps: 40,
    }
}

#[test]
fn ode_parameters_with_an_array_field() {
    let p = decay();
    let (value, dp) = p.endpoint_grad();
    assert_eq!(value, p.endpoint());
    for k in 0..3 {
        let want = central(
            |v| {
                let mut q = p.clone();
                q.rates[k] = v;
                q.endpoint()
            },
            p.rates[k],
        );
        assert_close(&format!("rates[{k}]"), dp.rates[k], want);
    }
    let want = central(|v| Decay { y0: v, ..p.clone() }.endpoint(), p.y0);
    assert_close("y0", dp.y0, want);
    assert_eq!((dp.dt, dp.steps), (0.05, 40));

    // Through an associated function: chain rule 2 (y(T) - target) ∂y(T).
    let (m, dm, dtarget) = Decay::misfit_grad(&p, 0.3);
    assert_eq!(m, Decay::misfit(&p, 0.3));
    let e = value - 0.3;
    for k in 0..3 {
        assert_close(
            &format!("misfit rates[{k}]"),
            dm.rates[k],
            2.0 * e * dp.rates[k],
        );
    }
    assert_close("target", dtarget, -2.0 * e);
    assert!(Decay::misfit_check(&p, 0.3).max_abs_error() < 1e-6);
}

/// A `DVector<f64>` field, read by index, iterator and length.
#[derive(Clone, Debug, Tangent)]
struct Gaussian {
    mean: DVector<f64>,
    log_scale: f64,
}

#[differentiable]
fn log_density(g: &Gaussian, x: &[f64]) -> f64 {
    let s = g.log_scale.exp();
    let mut q = 0.0;
    for (i, m) in g.mean.iter().enumerate() {
        let z = (x[i] - m) / s;
        q += z * z;
    }
    -0.5 * q - g.mean.len() as f64 * g.log_scale + 0.1 * g.mean[0]
}

#[test]
fn dvector_field_against_central_differences() {
    let g = Gaussian {
        mean: DVector::from_vec(vec![0.5, -1.0, 2.0]),
        log_scale: 0.2,
    };
    let x = [0.1, 0.4, 1.1];
    let (value, dg, dx) = log_density_grad(&g, &x);
    assert_eq!(value, log_density(&g, &x));
    for i in 0..3 {
        let want = central(
            |v| {
                let mut q = g.clone();
                q.mean[i] = v;
                log_density(&q, &x)
            },
            g.mean[i],
        );
        assert_close(&format!("mean[{i}]"), dg.mean[i], want);
        let want = central(
            |v| {
                let mut y = x;
                y[i] = v;
                log_density(&g, &y)
            },
            x[i],
        );
        assert_close(&format!("x[{i}]"), dx[i], want);
    }
    let want = central(
        |v| {
            log_density(
                &Gaussian {
                    log_scale: v,
                    ..g.clone()
                },
                &x,
            )
        },
        g.log_scale,
    );
    assert_close("log_scale", dg.log_scale, want);
    assert!(log_density_check(&g, &x).max_abs_error() < 1e-6);
}

/// By value: the pullback owns copies of the collection fields.
#[differentiable]
fn by_value(p: Linear, t: f64) -> f64 {
    let mut s = p.b * t;
    for (w, v) in p.w.iter().zip(&p.w) {
        s += w * v * t;
    }
    s
}

#[test]
fn struct_with_a_vec_field_by_value() {
    let (m, _, _) = linear();
    let (value, pullback) = by_value_vjp(m.clone(), 1.5);
    assert_eq!(value, by_value(m.clone(), 1.5));
    let (dm, dt) = pullback(2.0);
    // Closed forms: ∂/∂w_j = 2 w_j t, ∂/∂b = t, ∂/∂t = b + Σ w².
    for j in 0..3 {
        assert_close("w", dm.w[j], 2.0 * 2.0 * m.w[j] * 1.5);
    }
    assert_close("b", dm.b, 2.0 * 1.5);
    let sq: f64 = m.w.iter().map(|w| w * w).sum();
    assert_close("t", dt, 2.0 * (m.b + sq));
}

/// Several outputs: the predictions of a linear model at each row.
#[differentiable]
fn predictions(m: &Linear, #[constant] x: &[Vec<f64>], scale: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for row in x {
        let mut p = m.b;
        for j in 0..m.w.len() {
            p += m.w[j] * row[j];
        }
        out.push(scale * p);
    }
    out
}

/// A nested struct and an array field, two outputs.
#[differentiable]
fn two_points(c: &Curve, t: f64) -> [f64; 2] {
    [curve_at(c, t), c.shape.knots[1] * c.level * t]
}

#[test]
fn jacobian_columns_are_fields_in_declaration_order() {
    let (m, x, _) = linear();
    let (value, j) = predictions_jacobian(&m, &x, 1.5);
    assert_eq!(value, predictions(&m, &x, 1.5));
    // Columns: w[0], w[1], w[2], b (declaration order; `lambda` and
    // `name` are constant), then `scale`.
    assert_eq!((j.nrows(), j.ncols()), (4, 5));
    for i in 0..4 {
        for k in 0..3 {
            assert_close("∂p/∂w", j[(i, k)], 1.5 * x[i][k]);
        }
        assert_close("∂p/∂b", j[(i, 3)], 1.5);
        assert_close("∂p/∂scale", j[(i, 4)], value[i] / 1.5);
    }
    let (seed_value, pullback) = predictions_vjp(&m, &x, 1.5);
    assert_eq!(seed_value, value);
    let (dm, dscale) = pullback(vec![1.0, 0.0, 0.0, 2.0]);
    assert_close("vjp b", dm.b, 1.5 * 3.0);
    assert_close("vjp scale", dscale, (value[0] + 2.0 * value[3]) / 1.5);
}

#[test]
fn jacobian_through_a_call_of_a_struct_function() {
    let c = curve(false);
    let t = 2.6;
    let (value, j) = two_points_jacobian(&c, t);
    assert_eq!(value, two_points(&c, t));
    // Columns: level, shape.slope, shape.knots[0], shape.knots[1], t.
    assert_eq!((j.nrows(), j.ncols()), (2, 5));
    let (_, dc, dt) = curve_at_grad(&c, t);
    let row0 = [
        dc.level,
        dc.shape.slope,
        dc.shape.knots[0],
        dc.shape.knots[1],
        dt,
    ];
    for k in 0..5 {
        assert_close("row 0", j[(0, k)], row0[k]);
    }
    // Row 1: knots[1] · level · t.
    let row1 = [
        c.shape.knots[1] * t,
        0.0,
        0.0,
        c.level * t,
        c.shape.knots[1] * c.level,
    ];
    for k in 0..5 {
        assert_close("row 1", j[(1, k)], row1[k]);
    }
}

/// Calls a struct-taking function, and a method from outside its impl
/// block, passing the struct on whole.
#[differentiable]
fn fit(p: &Decay, c: &Curve, t: f64) -> f64 {
    let e = p.endpoint() - curve_at(c, t);
    e * e + Decay::misfit(p, 0.1) + 0.5 * p.rates[0]
}

#[test]
fn struct_passed_on_whole_to_other_functions() {
    let p = decay();
    let c = curve(false);
    let t = 1.7;
    let (value, dp, dc, dt) = fit_grad(&p, &c, t);
    assert_eq!(value, fit(&p, &c, t));
    for k in 0..3 {
        let want = central(
            |v| {
                let mut q = p.clone();
                q.rates[k] = v;
                fit(&q, &c, t)
            },
            p.rates[k],
        );
        assert_close(&format!("rates[{k}]"), dp.rates[k], want);
    }
    let want = central(
        |v| {
            let q = Decay { y0: v, ..p.clone() };
            fit(&q, &c, t)
        },
        p.y0,
    );
    assert_close("y0", dp.y0, want);
    let want = central(
        |v| {
            let mut d = c.clone();
            d.shape.knots[1] = v;
            fit(&p, &d, t)
        },
        c.shape.knots[1],
    );
    assert_close("shape.knots[1]", dc.shape.knots[1], want);
    let want = central(
        |v| {
            let mut d = c.clone();
            d.level = v;
            fit(&p, &d, t)
        },
        c.level,
    );
    assert_close("level", dc.level, want);
    assert_close("t", dt, central(|v| fit(&p, &c, v), t));
    assert_eq!((dp.dt, dp.steps, dc.terms), (0.05, 40, 3));
    assert!(fit_check(&p, &c, t).max_abs_error() < 1e-6);
}

/// A polynomial in Horner form; `windows` and `first` on a field.
#[derive(Clone, Debug, Tangent)]
struct Poly {
    coef: Vec<f64>,
}

#[differentiable]
impl Poly {
    #[differentiable]
    fn horner(&self, x: f64) -> f64 {
        let mut s = 0.0;
        for i in (0..self.coef.len()).rev() {
            s = s * x + self.coef[i];
        }
        s
    }

    /// Horner's value plus the squared differences of neighbours and the
    /// constant term.
    #[differentiable]
    fn smooth(&self, x: f64) -> f64 {
        let mut rough = 0.0;
        for w in self.coef.windows(2) {
            rough += (w[1] - w[0]) * (w[1] - w[0]);
        }
        self.horner(x) + rough + *self.coef.first().unwrap()
    }
}

#[test]
fn windows_and_first_of_a_field() {
    let p = Poly {
        coef: vec![0.5, -1.0, 2.0, 0.25],
    };
    let x = 0.7;
    let (v, dp, dx) = p.smooth_grad(x);
    assert_eq!(v, p.smooth(x));
    for i in 0..4 {
        let want = central(
            |c| {
                let mut q = p.clone();
                q.coef[i] = c;
                q.smooth(x)
            },
            p.coef[i],
        );
        assert_close(&format!("coef[{i}]"), dp.coef[i], want);
    }
    assert_close("x", dx, central(|y| p.smooth(y), x));
}

/// A spring chain's parameters, taken by value and passed on whole.
#[derive(Clone, Debug, Tangent)]
struct Springs {
    k: f64,
    rest: Vec<f64>,
    /// A label, cloned into the adjoint.
    #[constant]
    label: String,
}

#[differentiable]
impl Springs {
    #[differentiable]
    fn energy(&self, x: f64) -> f64 {
        let mut e = 0.0;
        for r in self.rest.iter() {
            e += 0.5 * self.k * (x - r) * (x - r);
        }
        e
    }

    /// `self` by value, passed on to its own method in a loop.
    #[differentiable]
    fn energies(self, x: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            s += self.energy(x + i as f64);
        }
        s * self.rest[0]
    }
}

#[differentiable]
fn stiffness(p: &Springs) -> f64 {
    p.k * p.k + p.rest[0] * p.rest[1]
}

#[differentiable]
fn owned_stiffness(p: Springs, x: f64) -> f64 {
    p.k * x + p.rest[1]
}

/// A struct taken by value passed on whole: by reference to a function
/// and a method (path and method form) and, last, by value.
#[differentiable]
fn springs_by_value(p: Springs, x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..p.rest.len() {
        s += stiffness(&p) * x * p.rest[i] + p.energy(x) + Springs::energy(&p, 2.0 * x);
    }
    s + owned_stiffness(p, x)
}

/// Central differences of `f` in `k`, each `rest[j]` and `x`.
fn springs_central(f: impl Fn(Springs, f64) -> f64, p: &Springs, x: f64) -> Vec<f64> {
    let mut want = vec![central(|v| f(Springs { k: v, ..p.clone() }, x), p.k)];
    for j in 0..p.rest.len() {
        want.push(central(
            |v| {
                let mut q = p.clone();
                q.rest[j] = v;
                f(q, x)
            },
            p.rest[j],
        ));
    }
    want.push(central(|v| f(p.clone(), v), x));
    want
}

#[test]
fn struct_taken_by_value_passed_on_whole() {
    let p = Springs {
        k: 1.5,
        rest: vec![2.0, -0.5, 3.0],
        label: "chain".into(),
    };
    for x in [0.7, -1.3] {
        let (value, dp, dx) = springs_by_value_grad(p.clone(), x);
        assert_eq!(value, springs_by_value(p.clone(), x));
        let want = springs_central(springs_by_value, &p, x);
        assert_close("k", dp.k, want[0]);
        for j in 0..3 {
            assert_close(&format!("rest[{j}]"), dp.rest[j], want[1 + j]);
        }
        assert_close("x", dx, want[4]);
        assert_eq!(dp.label, "chain");

        let (value, dp, dx) = p.clone().energies_grad(x);
        assert_eq!(value, p.clone().energies(x));
        let want = springs_central(Springs::energies, &p, x);
        assert_close("energies k", dp.k, want[0]);
        for j in 0..3 {
            assert_close(&format!("energies rest[{j}]"), dp.rest[j], want[1 + j]);
        }
        assert_close("energies x", dx, want[4]);
    }
}

/// A struct taken by value whose fields the body writes: a float field
/// rescaled and accumulated into, a collection field updated in place, a
/// nested field reassigned, and each read again afterwards.
#[differentiable]
fn relaxed(mut c: Curve, t: f64) -> f64 {
    c.level *= t;
    c.level += c.shape.slope;
    for k in 0..2 {
        c.shape.knots[k] = c.shape.knots[k] * t + c.level;
    }
    c.shape.slope = c.shape.knots[0] - c.shape.knots[1] * c.level;
    c.level * c.shape.slope + c.shape.knots[1]
}

/// A field written in a function with `jvp` and `hessian`.
#[differentiable(jvp, hessian)]
fn rescaled(mut d: Decay, s: f64) -> f64 {
    d.y0 = d.y0 * s + d.rates[0];
    d.y0 * d.y0 + d.rates[1] * d.y0
}

#[test]
fn fields_written_in_the_body_against_central_differences() {
    let c = curve(false);
    let t = 0.8;
    let (v, dc, dt) = relaxed_grad(c.clone(), t);
    assert_eq!(v, relaxed(c.clone(), t));
    let at = |f: &dyn Fn(&mut Curve, f64), x: f64| {
        let mut c = c.clone();
        f(&mut c, x);
        relaxed(c, t)
    };
    let level = central(|x| at(&|c, x| c.level = x, x), c.level);
    let slope = central(|x| at(&|c, x| c.shape.slope = x, x), c.shape.slope);
    assert_close("level", dc.level, level);
    assert_close("shape.slope", dc.shape.slope, slope);
    for k in 0..2 {
        let knot = central(|x| at(&|c, x| c.shape.knots[k] = x, x), c.shape.knots[k]);
        assert_close("shape.knots", dc.shape.knots[k], knot);
    }
    assert_close("t", dt, central(|t| relaxed(c.clone(), t), t));
}

#[test]
fn a_field_written_under_jvp_and_hessian_has_the_closed_form() {
    let d = decay();
    let s = 1.3;
    // y = y0 s + r0, f = y² + r1 y.
    let y = d.y0 * s + d.rates[0];
    let df_dy = 2.0 * y + d.rates[1];
    let (v, dd, ds) = rescaled_grad(d.clone(), s);
    assert_eq!(v, rescaled(d.clone(), s));
    let close = |got: f64, want: f64| (got - want).abs() <= 1e-12 * want.abs().max(1.0);
    assert!(
        close(dd.y0, df_dy * s) && close(dd.rates[0], df_dy),
        "{dd:?}"
    );
    assert!(close(dd.rates[1], y) && dd.rates[2] == 0.0 && close(ds, df_dy * d.y0));
    let mut tangent = decay();
    tangent.rates = [0.0; 3];
    tangent.y0 = 1.0;
    let (_, dir) = rescaled_jvp(d.clone(), s, &tangent, 0.0);
    assert!(close(dir, df_dy * s), "{dir}");
    // Over rates[0..3], y0, then s: ∂²f/∂y0² = 2 s², ∂²f/∂y0∂s = 2 s y0 + df/dy.
    let (_, _, h) = rescaled_hessian(d.clone(), s);
    assert!(close(h[(3, 3)], 2.0 * s * s), "{h}");
    assert!(close(h[(3, 4)], 2.0 * s * d.y0 + df_dy), "{h}");
    assert!(close(h[(0, 3)], 2.0 * s) && close(h[(1, 3)], s), "{h}");
}

/// A `#[constant]` function-pointer field (issue 35: the derive's
/// generated code failed with E0507, moving out of the borrowed field).
#[derive(Clone, Tangent)]
struct Shaped {
    a: f64,
    #[constant]
    shape: fn(f64) -> f64,
}

/// a·x², the field `shape` carried along unread.
#[differentiable(jvp)]
fn shaped(p: &Shaped, x: f64) -> f64 {
    p.a * x * x
}

fn cube(v: f64) -> f64 {
    v * v * v
}

#[test]
fn a_constant_function_pointer_field() {
    let p = Shaped {
        a: 1.5,
        shape: cube,
    };
    let x = 2.0;
    // a·x²: ∂a = x², ∂x = 2ax.
    let (value, dp, dx) = shaped_grad(&p, x);
    assert_eq!(value, shaped(&p, x));
    assert_eq!((value, dp.a, dx), (6.0, 4.0, 6.0));
    // The adjoint's constant field is the argument's, and still callable.
    assert_eq!((dp.shape)(2.0), 8.0);
    let zero = autograd::Tangent::zero_adjoint(&p);
    assert_eq!((zero.a, (zero.shape)(3.0)), (0.0, 27.0));
    // Along (da, dx) = (0.5, 1): x²·0.5 + 2ax·1.
    let dir = Shaped {
        a: 0.5,
        shape: cube,
    };
    assert_eq!(shaped_jvp(&p, x, &dir, 1.0), (6.0, 2.0 + 6.0));
}

#[derive(Clone, Debug, Tangent)]
pub struct Kinked {
    pub a: f64,
    pub b: f64,
}

/// A float field matched with arms binding its value: the value, and its
/// derivative, flow through the binding (a field matched without binding,
/// an enum, is read as a constant: issue 35).
#[differentiable]
fn kinked(p: &Kinked, x: f64) -> f64 {
    let y = match p.a {
        v if v > 0.0 => v * x,
        v => -v * x * x,
    };
    let z = match p.b {
        0.0 => 1.0,
        _ => p.b * p.b,
    };
    y + z
}

#[test]
fn a_float_field_matched_with_bindings_keeps_its_derivative() {
    for (a, b, x) in [(1.5, 0.5, 2.0), (-0.5, 2.0, 1.5)] {
        let p = Kinked { a, b };
        let (value, dp, dx) = kinked_grad(&p, x);
        assert_eq!(value.to_bits(), kinked(&p, x).to_bits());
        let da = central(|v| kinked(&Kinked { a: v, b }, x), a);
        let db = central(|v| kinked(&Kinked { a, b: v }, x), b);
        let dxx = central(|v| kinked(&p, v), x);
        for (got, want) in [(dp.a, da), (dp.b, db), (dx, dxx)] {
            approx::assert_relative_eq!(got, want, epsilon = 1e-6, max_relative = 1e-6);
        }
    }
}
