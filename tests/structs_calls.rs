//! Calls between functions taking `Tangent` structs: a struct passed on
//! whole to a function in another module, by a path whatever its
//! spelling.
//!
//! Expected derivatives are five-point central differences of the primal
//! at every differentiable field (`fd_support::fd64`, tolerance
//! `FD64_ABS` absolute or `FD64_REL` relative).

#![allow(clippy::needless_range_loop)]

mod fd_support;

use autograd::{Tangent, differentiable};
use fd_support::{FD64_ABS, FD64_REL, assert_fd64_close, fd64};

#[derive(Clone, Debug, Tangent)]
struct Line {
    slope: f64,
    offset: f64,
    #[constant]
    label: String,
}

mod shapes {
    use super::Line;
    use autograd::differentiable;

    #[differentiable]
    pub fn value(l: &Line, x: f64) -> f64 {
        l.slope * x + l.offset
    }
}

/// A module whose name starts with a capital: a call `Geometry::f(..)` is
/// a function in a module, not an associated function, since no struct of
/// type `Geometry` is passed to it.
#[allow(non_snake_case)]
mod Geometry {
    use super::Line;
    use autograd::differentiable;

    #[differentiable]
    pub fn squared(l: &Line, x: f64) -> f64 {
        let v = l.slope * x + l.offset;
        v * v
    }
}

#[differentiable]
fn through_paths(l: &Line, x: f64) -> f64 {
    shapes::value(l, x).sin() + Geometry::squared(l, x) * crate::shapes::value(l, 0.5)
}

fn line() -> Line {
    Line {
        slope: 0.7,
        offset: -0.3,
        label: "l".into(),
    }
}

#[test]
fn struct_passed_on_whole_by_module_paths() {
    let l = line();
    let x = 1.3;
    let (value, dl, dx) = through_paths_grad(&l, x);
    assert_eq!(value, through_paths(&l, x));
    let slope = fd64(
        |v| {
            let q = Line {
                slope: v,
                ..l.clone()
            };
            through_paths(&q, x)
        },
        l.slope,
    );
    assert_fd64_close("slope", dl.slope, slope);
    let offset = fd64(
        |v| {
            let q = Line {
                offset: v,
                ..l.clone()
            };
            through_paths(&q, x)
        },
        l.offset,
    );
    assert_fd64_close("offset", dl.offset, offset);
    assert_fd64_close("x", dx, fd64(|v| through_paths(&l, v), x));
    assert_eq!(dl.label, "l");
}

/// A struct of `f32` parameters, used by `f32` functions.
#[derive(Clone, Debug, Tangent)]
struct Damped {
    gain: f32,
    decay: f32,
    #[constant]
    steps: u32,
}

#[differentiable]
fn damped(d: &Damped, t: f32) -> f32 {
    let mut y = d.gain;
    for _ in 0..d.steps {
        y *= (-d.decay * t).exp();
    }
    y + t * t
}

#[test]
fn f32_fields_against_central_differences() {
    use fd_support::{FD32_ABS, FD32_REL, fd32};
    let close = |what: &str, got: f32, want: f64| {
        let err = (f64::from(got) - want).abs();
        assert!(
            err <= FD32_ABS || err <= FD32_REL * want.abs(),
            "{what}: {got} against central differences {want}"
        );
    };
    let d = Damped {
        gain: 1.25,
        decay: 0.375,
        steps: 3,
    };
    for t in [0.25, 0.875, 1.75] {
        let (value, dd, dt) = damped_grad(&d, t);
        assert_eq!(value, damped(&d, t));
        let gain = fd32(
            |v| {
                damped(
                    &Damped {
                        gain: v,
                        ..d.clone()
                    },
                    t,
                )
            },
            d.gain,
        );
        close("gain", dd.gain, gain);
        let decay = fd32(
            |v| {
                damped(
                    &Damped {
                        decay: v,
                        ..d.clone()
                    },
                    t,
                )
            },
            d.decay,
        );
        close("decay", dd.decay, decay);
        close("t", dt, fd32(|v| damped(&d, v), t));
        assert_eq!(dd.steps, 3);
    }
    assert!(damped_check(&d, 0.875).max_abs_error() < 1e-2);
}

/// Fixed-size and matrix fields, read by index and iterator.
#[derive(Clone, Debug, Tangent)]
struct Frame {
    origin: nalgebra::Vector3<f64>,
    scale: nalgebra::SVector<f64, 2>,
    mix: nalgebra::DMatrix<f64>,
}

#[differentiable]
fn frame_energy(f: &Frame, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let d = x[i] - f.origin[i];
        s += f.scale[0] * d * d;
    }
    for v in f.mix.iter() {
        s += f.scale[1] * v * v;
    }
    s + f.mix[1] * f.origin.len() as f64
}

#[test]
fn fixed_size_and_matrix_fields_against_central_differences() {
    let f = Frame {
        origin: nalgebra::Vector3::new(0.3, -1.1, 0.6),
        scale: nalgebra::SVector::<f64, 2>::new(1.4, 0.7),
        mix: nalgebra::DMatrix::from_row_slice(2, 2, &[0.2, -0.5, 1.3, 0.9]),
    };
    let x = [0.9, 0.2, -0.4];
    let (value, df, dx) = frame_energy_grad(&f, &x);
    assert_eq!(value, frame_energy(&f, &x));
    for i in 0..3 {
        let want = fd64(
            |v| {
                let mut g = f.clone();
                g.origin[i] = v;
                frame_energy(&g, &x)
            },
            f.origin[i],
        );
        assert_fd64_close(&format!("origin[{i}]"), df.origin[i], want);
    }
    for i in 0..2 {
        let want = fd64(
            |v| {
                let mut g = f.clone();
                g.scale[i] = v;
                frame_energy(&g, &x)
            },
            f.scale[i],
        );
        assert_fd64_close(&format!("scale[{i}]"), df.scale[i], want);
    }
    for k in 0..4 {
        let want = fd64(
            |v| {
                let mut g = f.clone();
                g.mix[k] = v;
                frame_energy(&g, &x)
            },
            f.mix[k],
        );
        assert_fd64_close(&format!("mix[{k}]"), df.mix[k], want);
    }
    assert_eq!(df.mix.shape(), (2, 2));
    let want: Vec<f64> = (0..3)
        .map(|i| {
            fd64(
                |v| {
                    let mut y = x;
                    y[i] = v;
                    frame_energy(&f, &y)
                },
                x[i],
            )
        })
        .collect();
    fd_support::assert_all_fd64_close("x", &dx, &want);
}

/// nalgebra methods and products on vector and matrix fields.
#[derive(Clone, Debug, Tangent)]
struct Quadratic {
    w: nalgebra::DVector<f64>,
    m: nalgebra::DMatrix<f64>,
    c: nalgebra::Vector2<f64>,
}

#[differentiable]
fn quadratic(q: &Quadratic, x: &nalgebra::DVector<f64>) -> f64 {
    let mx = &q.m * x;
    q.w.dot(x) + 0.5 * mx.norm_squared() + q.w.norm_squared() * q.c.sum() + q.m[(1, 0)] * q.c[1]
}

fn quadratic_point() -> (Quadratic, nalgebra::DVector<f64>) {
    let q = Quadratic {
        w: nalgebra::DVector::from_vec(vec![0.4, -0.7, 1.1]),
        m: nalgebra::DMatrix::from_row_slice(2, 3, &[0.3, -0.2, 0.5, 1.2, 0.1, -0.6]),
        c: nalgebra::Vector2::new(0.8, -0.3),
    };
    (q, nalgebra::DVector::from_vec(vec![1.3, 0.2, -0.9]))
}

/// `dq` against central differences of `f` in every element of every
/// field of `q` (storage order for the matrix).
fn assert_quadratic_fields(q: &Quadratic, dq: &Quadratic, f: impl Fn(&Quadratic) -> f64) {
    assert_eq!(dq.m.shape(), q.m.shape());
    let moved = |set: &dyn Fn(&mut Quadratic, f64), v: f64| {
        let mut r = q.clone();
        set(&mut r, v);
        f(&r)
    };
    for k in 0..q.w.len() {
        let want = fd64(|v| moved(&|r, v| r.w[k] = v, v), q.w[k]);
        assert_fd64_close(&format!("w[{k}]"), dq.w[k], want);
    }
    for k in 0..q.m.len() {
        let want = fd64(|v| moved(&|r, v| r.m[k] = v, v), q.m[k]);
        assert_fd64_close(&format!("m[{k}]"), dq.m[k], want);
    }
    for k in 0..q.c.len() {
        let want = fd64(|v| moved(&|r, v| r.c[k] = v, v), q.c[k]);
        assert_fd64_close(&format!("c[{k}]"), dq.c[k], want);
    }
}

#[test]
fn nalgebra_methods_on_fields_against_central_differences() {
    let (q, x) = quadratic_point();
    let (value, dq, dx) = quadratic_grad(&q, &x);
    assert_eq!(value, quadratic(&q, &x));
    assert_quadratic_fields(&q, &dq, |r| quadratic(r, &x));
    for k in 0..3 {
        let want = fd64(
            |v| {
                let mut y = x.clone();
                y[k] = v;
                quadratic(&q, &y)
            },
            x[k],
        );
        assert_fd64_close(&format!("x[{k}]"), dx[k], want);
    }
}

/// The same reads with the argument by value, and through a method call
/// inside a `#[differentiable] impl` block.
#[differentiable]
impl Quadratic {
    #[differentiable]
    fn linear(&self, x: nalgebra::DVector<f64>) -> f64 {
        self.w.dot(&x) + (&self.m * &x).sum()
    }

    #[differentiable]
    fn twice(&self, x: nalgebra::DVector<f64>) -> f64 {
        self.linear(x.clone()) * self.w.norm_squared()
    }
}

#[test]
fn nalgebra_methods_on_fields_through_methods() {
    let (q, x) = quadratic_point();
    let (value, dq, _) = Quadratic::twice_grad(&q, x.clone());
    assert_eq!(value, q.twice(x.clone()));
    // `twice` does not read `c`: its adjoint is exactly zero.
    assert_eq!(dq.c, nalgebra::Vector2::zeros());
    assert_quadratic_fields(&q, &dq, |r| r.twice(x.clone()));
}

/// `transpose`, `nrows` and `map` of matrix fields; `&q.c` of a `Copy`
/// fixed-size field is how a body reads it as a nalgebra operand.
#[differentiable]
#[allow(clippy::op_ref)]
fn shaped(q: &Quadratic, x: &nalgebra::DVector<f64>) -> f64 {
    let t = q.m.transpose();
    let y = &t * &q.c;
    let n = q.m.nrows() as f64;
    y.dot(x) * n + q.w.map(|v| v * v.sin()).sum()
}

#[test]
fn transpose_nrows_and_map_of_fields_against_central_differences() {
    let (q, x) = quadratic_point();
    let (value, dq, _) = shaped_grad(&q, &x);
    assert_eq!(value, shaped(&q, &x));
    assert_quadratic_fields(&q, &dq, |r| shaped(r, &x));
}

/// A constant float field read in a nested struct: its adjoint is added
/// into the field by its path and the argument's value put back.
#[derive(Clone, Debug, Tangent)]
struct Inner {
    a: f64,
    #[constant]
    k: f64,
}

#[derive(Clone, Debug, Tangent)]
struct Outer {
    inner: Inner,
    #[constant]
    scale: Vec<f64>,
    b: f64,
}

#[differentiable]
fn outer(p: &Outer, x: f64) -> f64 {
    p.inner.a * p.inner.k * x + p.scale[0] * p.b * p.b
}

#[test]
fn constant_fields_keep_the_arguments_values() {
    let p = Outer {
        inner: Inner { a: 0.6, k: 2.5 },
        scale: vec![1.5, -2.0],
        b: -0.4,
    };
    let x = 0.9;
    let (value, dp, dx) = outer_grad(&p, x);
    assert_eq!(value, outer(&p, x));
    // Closed forms: ∂/∂a = k·x, ∂/∂b = 2·scale[0]·b, ∂/∂x = a·k.
    let close = |what: &str, got: f64, want: f64| {
        assert!(
            (got - want).abs() <= 1e-15 * want.abs().max(1.0),
            "{what}: {got} vs {want}"
        );
    };
    close("a", dp.inner.a, 2.5 * 0.9);
    close("b", dp.b, 2.0 * 1.5 * -0.4);
    close("x", dx, 0.6 * 2.5);
    assert_eq!(dp.inner.k, 2.5);
    assert_eq!(dp.scale, vec![1.5, -2.0]);
    let mut buffer = p.clone();
    outer_grad_acc(&p, x, &mut buffer, &mut 0.0);
    assert_eq!(
        (buffer.inner.k, buffer.scale.clone()),
        (2.5, vec![1.5, -2.0])
    );
    close("a into the buffer", buffer.inner.a, 0.6 + 2.5 * 0.9);
}

/// A spring whose potential is a free function taking the struct; its
/// methods pass `self` on whole to it (issue 35: `energy(self, x)` failed
/// with errors naming generated items).
#[derive(Clone, Debug, Tangent)]
pub struct Spring {
    pub stiffness: f64,
    pub rest: f64,
    #[constant]
    pub name: String,
}

#[differentiable]
pub fn energy(s: &Spring, x: f64) -> f64 {
    0.5 * s.stiffness * (x - s.rest).powi(2)
}

#[differentiable]
impl Spring {
    /// The potential under a constant load: `self` passed on whole.
    pub fn loaded(&self, x: f64, #[constant] load: f64) -> f64 {
        energy(self, x) - load * x + 0.1 * self.stiffness * x
    }

    /// Taken by value, passed by reference.
    pub fn doubled(self, x: f64) -> f64 {
        2.0 * energy(&self, x) * self.rest
    }
}

fn spring() -> Spring {
    Spring {
        stiffness: 3.5,
        rest: 0.4,
        name: "s".into(),
    }
}

/// The gradient of `f` at `s` and `x` (a field, then `x`) against
/// five-point central differences of `f`.
fn assert_spring_fd(f: impl Fn(&Spring, f64) -> f64, ds: &Spring, dx: f64, x: f64) {
    let s = spring();
    let stiffness = fd64(
        |v| {
            f(
                &Spring {
                    stiffness: v,
                    ..s.clone()
                },
                x,
            )
        },
        s.stiffness,
    );
    let rest = fd64(
        |v| {
            f(
                &Spring {
                    rest: v,
                    ..s.clone()
                },
                x,
            )
        },
        s.rest,
    );
    let wrt_x = fd64(|v| f(&s, v), x);
    for (got, want) in [(ds.stiffness, stiffness), (ds.rest, rest), (dx, wrt_x)] {
        approx::assert_relative_eq!(got, want, epsilon = FD64_ABS, max_relative = FD64_REL);
    }
    assert_eq!(ds.name, "s");
}

#[test]
fn method_passes_self_on_whole_to_a_free_function() {
    let (s, x) = (spring(), 1.3);
    let (value, ds, dx) = s.loaded_grad(x, 0.7);
    assert_eq!(value.to_bits(), s.loaded(x, 0.7).to_bits());
    assert_spring_fd(|s, x| s.loaded(x, 0.7), &ds, dx, x);
    let (value, ds, dx) = s.clone().doubled_grad(x);
    assert_eq!(value.to_bits(), s.clone().doubled(x).to_bits());
    assert_spring_fd(|s, x| s.clone().doubled(x), &ds, dx, x);
}

/// A pricing module calling helpers of the module above it by `super::`
/// and of its own by `self::`, from methods and from a function taking
/// the struct (issue 35: the hidden copy of the function sits one module
/// deeper, and `super::g` was not found there).
#[differentiable(jvp)]
pub fn discount(rate: f64, t: f64) -> f64 {
    (-rate * t).exp()
}

pub mod pricing {
    use autograd::{Tangent, differentiable};

    #[derive(Clone, Debug, Tangent)]
    pub struct Bond {
        pub coupon: f64,
        pub rate: f64,
        #[constant]
        pub years: u32,
    }

    #[differentiable(jvp)]
    pub fn annuity(rate: f64, n: usize) -> f64 {
        let mut a = 0.0;
        for k in 1..=n {
            a += super::discount(rate, k as f64);
        }
        a
    }

    #[differentiable]
    impl Bond {
        pub fn price(&self) -> f64 {
            self.coupon * self::annuity(self.rate, self.years as usize)
                + super::discount(self.rate, self.years as f64)
        }

        /// `self` passed on whole by a path through the module above.
        pub fn carried(&self, x: f64) -> f64 {
            super::pricing::clean(self, x) * x
        }
    }

    /// A function taking the struct, with `jvp` (its hidden copy then sits
    /// in a module next to it).
    #[differentiable(jvp)]
    pub fn clean(b: &Bond, x: f64) -> f64 {
        b.coupon * super::discount(b.rate, x) + self::annuity(b.rate, 2)
    }
}

#[test]
fn paths_relative_to_the_users_module_in_methods_and_struct_functions() {
    use pricing::Bond;
    let b = Bond {
        coupon: 0.05,
        rate: 0.03,
        years: 4,
    };
    let close = |got: f64, want: f64| {
        approx::assert_relative_eq!(got, want, epsilon = FD64_ABS, max_relative = FD64_REL)
    };
    let with = |coupon: f64, rate: f64| Bond {
        coupon,
        rate,
        years: 4,
    };
    let (value, db) = b.price_grad();
    assert_eq!(value.to_bits(), b.price().to_bits());
    close(db.coupon, fd64(|v| with(v, b.rate).price(), b.coupon));
    close(db.rate, fd64(|v| with(b.coupon, v).price(), b.rate));
    assert_eq!(db.years, 4);

    let x = 1.5;
    let (value, db, dx) = b.carried_grad(x);
    assert_eq!(value.to_bits(), b.carried(x).to_bits());
    close(db.coupon, fd64(|v| with(v, b.rate).carried(x), b.coupon));
    close(db.rate, fd64(|v| with(b.coupon, v).carried(x), b.rate));
    close(dx, fd64(|v| b.carried(v), x));

    // The forward mode agrees with the reverse one along (1, 1, 1).
    let (value, tangent) = pricing::clean_jvp(&b, x, &with(1.0, 1.0), 1.0);
    assert_eq!(value.to_bits(), pricing::clean(&b, x).to_bits());
    let (_, db, dx) = pricing::clean_grad(&b, x);
    close(tangent, db.coupon + db.rate + dx);
    close(
        db.rate,
        fd64(|v| pricing::clean(&with(b.coupon, v), x), b.rate),
    );
}

/// Finding 033 through a struct-taking callee: `v` is read only when the
/// line's slope is positive: its struct call's pullback says it did not
/// reach `v` (it gave NaN, 0·∞ through √x at 0).
#[differentiable]
fn along_if_rising(l: &Line, v: f64) -> f64 {
    if l.slope > 0.0 { l.slope * v } else { l.offset }
}

#[differentiable]
fn root_along_if_rising(l: &Line, x: f64) -> f64 {
    let r = x.sqrt();
    along_if_rising(l, r) + x
}

#[test]
fn a_root_passed_to_a_struct_callee_that_skips_it_adds_nothing() {
    let falling = Line {
        slope: -1.0,
        offset: 2.0,
        label: String::new(),
    };
    // The result is offset + x: slope 1 at x = 0, ∂/∂offset = 1.
    let (value, dl, dx) = root_along_if_rising_grad(&falling, 0.0);
    assert_eq!(value, 2.0);
    assert_eq!((dl.slope, dl.offset, dx), (0.0, 1.0, 1.0));
}

/// A curve whose methods carry the attribute each on itself alone, not
/// on the impl block: a free function calls them as methods and by path.
#[derive(Clone, Debug, Tangent)]
struct Curve {
    rate: f64,
    slope: f64,
}

impl Curve {
    #[differentiable]
    fn discount(&self, t: f64) -> f64 {
        (-(self.rate + self.slope * t) * t).exp()
    }

    #[differentiable]
    fn level_annuity(c: &Curve, n: usize) -> f64 {
        (1..=n).map(|i| c.discount(i as f64)).sum()
    }
}

#[differentiable]
fn bond(c: &Curve, coupon: f64) -> f64 {
    let mut pv = 0.0;
    for i in 1..=4 {
        pv += coupon * c.discount(i as f64);
    }
    pv + c.discount(4.0) + 0.5 * Curve::level_annuity(c, 2)
}

#[test]
fn methods_with_the_attribute_alone_are_called_by_a_free_function() {
    for (rate, slope, coupon) in [(0.03, 0.002, 0.05), (0.01, -0.001, 0.08)] {
        let c = Curve { rate, slope };
        let (value, dc, dcoupon) = bond_grad(&c, coupon);
        assert_eq!(value.to_bits(), bond(&c, coupon).to_bits());
        let at = |r: f64, s: f64, k: f64| bond(&Curve { rate: r, slope: s }, k);
        assert_fd64_close("∂/∂rate", dc.rate, fd64(|r| at(r, slope, coupon), rate));
        assert_fd64_close("∂/∂slope", dc.slope, fd64(|s| at(rate, s, coupon), slope));
        assert_fd64_close("∂/∂coupon", dcoupon, fd64(|k| at(rate, slope, k), coupon));
    }
}

#[derive(Clone, Debug, Tangent)]
struct Oscillator {
    k: f64,
}

#[differentiable(jvp)]
impl Oscillator {
    fn value(&self, x: f64) -> f64 {
        (self.k * x).sin()
    }
}

#[differentiable(jvp)]
fn sampled(o: &Oscillator, x: f64) -> f64 {
    o.value(x) * x + Oscillator::value(o, 2.0 * x)
}

#[test]
fn methods_of_an_annotated_block_are_called_with_their_forward_mode() {
    let (k, x) = (0.7, 0.4);
    let o = Oscillator { k };
    let (value, dk, dx) = sampled_grad(&o, x);
    assert_eq!(value.to_bits(), sampled(&o, x).to_bits());
    let at = |k: f64, x: f64| sampled(&Oscillator { k }, x);
    assert_fd64_close("∂/∂k", dk.k, fd64(|k| at(k, x), k));
    assert_fd64_close("∂/∂x", dx, fd64(|x| at(k, x), x));
    let (v, tangent) = sampled_jvp(&o, x, &Oscillator { k: 1.0 }, 0.5);
    assert_eq!(v.to_bits(), value.to_bits());
    assert!((tangent - (dk.k + 0.5 * dx)).abs() <= 1e-12 * (1.0 + tangent.abs()));
}

/// A caller in another module, the type imported by `use`: the method's
/// struct call is an associated function, found wherever the type is.
mod desk {
    use super::{Curve, Oscillator};
    use autograd::differentiable;

    #[differentiable]
    pub fn forward_price(c: &Curve, o: &Oscillator, t: f64) -> f64 {
        c.discount(t) * o.value(t) + Curve::level_annuity(c, 3)
    }
}

#[test]
fn a_caller_in_another_module_calls_methods_of_an_imported_type() {
    let (rate, slope, k, t) = (0.02, 0.003, 0.9, 1.5);
    let (c, o) = (Curve { rate, slope }, Oscillator { k });
    let (value, dc, dosc, dt) = desk::forward_price_grad(&c, &o, t);
    assert_eq!(value.to_bits(), desk::forward_price(&c, &o, t).to_bits());
    let at = |r: f64, s: f64, k: f64, t: f64| {
        desk::forward_price(&Curve { rate: r, slope: s }, &Oscillator { k }, t)
    };
    assert_fd64_close("∂/∂rate", dc.rate, fd64(|r| at(r, slope, k, t), rate));
    assert_fd64_close("∂/∂slope", dc.slope, fd64(|s| at(rate, s, k, t), slope));
    assert_fd64_close("∂/∂k", dosc.k, fd64(|k| at(rate, slope, k, t), k));
    assert_fd64_close("∂/∂t", dt, fd64(|t| at(rate, slope, k, t), t));
}

/// A trait impl's method with the attribute on itself alone, called from
/// a free function.
trait Response {
    fn response(&self, x: f64) -> f64;
}

#[derive(Clone, Debug, Tangent)]
struct Sensor {
    gain: f64,
}

impl Response for Sensor {
    #[differentiable]
    fn response(&self, x: f64) -> f64 {
        (self.gain * x).sin()
    }
}

#[differentiable]
fn doubled_response(s: &Sensor, x: f64) -> f64 {
    s.response(x) * 2.0
}

#[test]
fn a_trait_method_with_the_attribute_alone_is_called_by_a_free_function() {
    let (gain, x) = (0.3, 0.7);
    let (value, ds, dx) = doubled_response_grad(&Sensor { gain }, x);
    assert_eq!(
        value.to_bits(),
        doubled_response(&Sensor { gain }, x).to_bits()
    );
    // Closed form: 2 sin(g x); ∂g = 2x cos(g x), ∂x = 2g cos(g x).
    let c = (gain * x).cos();
    assert!((ds.gain - 2.0 * x * c).abs() <= 1e-12);
    assert!((dx - 2.0 * gain * c).abs() <= 1e-12);
}
