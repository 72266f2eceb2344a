//! Three-way agreement: the macro's compile-time adjoint, the runtime's
//! dynamic graph (`autograd::graph`) running the same function op by op,
//! and central finite differences of the primal.
//!
//! The graph and the macro share the rule functions but not the code around
//! them (graph: dispatch by name, `Value`s, accumulation in topological
//! order; macro: generated straight-line code), so they may add the
//! contributions along different paths in a different order: they agree to
//! `epsilon = 1e-14`, `max_relative = 1e-13`. Both are checked against
//! finite differences with `fd_support`'s `FD64_*` tolerances. The graph has
//! no literals: constants are input nodes whose adjoints are ignored.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::graph::{Graph, GraphError, NodeId};
use autograd::prelude::*;
use fd_support::{FD64_ABS, FD64_REL, fd64};

const AGREE_ABS: f64 = 1e-14;
const AGREE_REL: f64 = 1e-13;

/// Builds a graph over `args` (one input node each) with `build`, runs the
/// reverse pass and returns the value and one adjoint per argument.
fn graph_grad(
    args: &[f64],
    build: impl Fn(&mut Graph, &[NodeId]) -> Result<NodeId, GraphError>,
) -> (f64, Vec<f64>) {
    let mut g = Graph::new();
    let inputs: Vec<NodeId> = args.iter().map(|&a| g.input(a)).collect();
    let out = build(&mut g, &inputs).expect("graph builds");
    let value = g.value(out).expect("node").as_scalar().expect("scalar");
    let grads = g.backward(out).expect("reverse pass");
    let adjoints = inputs
        .iter()
        .map(|&i| grads.scalar(i).expect("scalar adjoint"))
        .collect();
    (value, adjoints)
}

/// Compares the macro's `(value, adjoints)` with the graph's, and both
/// with finite differences of `f` (a function of the argument vector).
fn three_way(
    name: &str,
    args: &[f64],
    macro_out: (f64, Vec<f64>),
    graph_out: (f64, Vec<f64>),
    f: impl Fn(&[f64]) -> f64,
) {
    let (mv, ma) = macro_out;
    let (gv, ga) = graph_out;
    assert_eq!(
        mv.to_bits(),
        f(args).to_bits(),
        "{name}: macro value vs primal"
    );
    assert!(
        approx::relative_eq!(mv, gv, epsilon = AGREE_ABS, max_relative = AGREE_REL),
        "{name} at {args:?}: macro value {mv}, graph value {gv}"
    );
    assert_eq!(ma.len(), args.len());
    assert_eq!(ga.len(), args.len());
    for i in 0..args.len() {
        let fd = fd64(
            |t| {
                let mut a = args.to_vec();
                a[i] = t;
                f(&a)
            },
            args[i],
        );
        assert!(
            approx::relative_eq!(ma[i], ga[i], epsilon = AGREE_ABS, max_relative = AGREE_REL),
            "{name} at {args:?}, argument {i}: macro {}, graph {}",
            ma[i],
            ga[i]
        );
        assert!(
            approx::relative_eq!(ma[i], fd, epsilon = FD64_ABS, max_relative = FD64_REL),
            "{name} at {args:?}, argument {i}: macro {}, finite difference {fd}",
            ma[i]
        );
        assert!(
            approx::relative_eq!(ga[i], fd, epsilon = FD64_ABS, max_relative = FD64_REL),
            "{name} at {args:?}, argument {i}: graph {}, finite difference {fd}",
            ga[i]
        );
    }
}

// ------------------------------------------------------------ functions

/// The seed's running example.
#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    let z = x * y;
    z + x
}

fn w_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let z = g.mul(a[0], a[1])?;
    g.add(z, a[0])
}

/// Arithmetic and the elementary functions (x, y > 0).
#[differentiable]
fn elementary(x: f64, y: f64) -> f64 {
    (x * y).sin() + x.exp() / y - y.ln() * x.sqrt() + (x - y).cos()
}

fn elementary_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let (x, y) = (a[0], a[1]);
    let xy = g.mul(x, y)?;
    let s = g.sin(xy)?;
    let ex = g.exp(x)?;
    let q = g.div(ex, y)?;
    let t1 = g.add(s, q)?;
    let ly = g.log(y)?;
    let rx = g.sqrt(x)?;
    let p = g.mul(ly, rx)?;
    let t2 = g.sub(t1, p)?;
    let d = g.sub(x, y)?;
    let c = g.cos(d)?;
    g.add(t2, c)
}

/// Activations and pow (x > 0).
#[differentiable]
fn activations(x: f64, y: f64) -> f64 {
    x.tanh() * y.sigmoid() + (x - y).relu() + x.cos() * x.powf(y)
}

fn activations_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let (x, y) = (a[0], a[1]);
    let tx = g.tanh(x)?;
    let sy = g.sigmoid(y)?;
    let t1 = g.mul(tx, sy)?;
    let d = g.sub(x, y)?;
    let r = g.relu(d)?;
    let t2 = g.add(t1, r)?;
    let cx = g.cos(x)?;
    let p = g.pow(x, y)?;
    let t3 = g.mul(cx, p)?;
    g.add(t2, t3)
}

/// A one-neuron squared loss: (tanh(w·x + b) - t)², with the data `x`
/// and target `t` as `#[constant]` arguments.
#[differentiable]
fn neuron(w: f64, b: f64, #[constant] x: f64, #[constant] t: f64) -> f64 {
    let z = w * x + b;
    let a = z.tanh();
    let e = a - t;
    e * e
}

/// `a[2]`, `a[3]` are the constants x and t (their adjoints are ignored).
fn neuron_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let wx = g.mul(a[0], a[2])?;
    let z = g.add(wx, a[1])?;
    let act = g.tanh(z)?;
    let e = g.sub(act, a[3])?;
    g.mul(e, e)
}

/// h(a, b) = a·b + sin a.
#[differentiable]
fn h(a: f64, b: f64) -> f64 {
    a * b + a.sin()
}

/// Calls: h(eˣ, y) + h(y, x)·x.
#[differentiable]
fn composite(x: f64, y: f64) -> f64 {
    h(x.exp(), y) + h(y, x) * x
}

fn h_graph(g: &mut Graph, a: NodeId, b: NodeId) -> Result<NodeId, GraphError> {
    let ab = g.mul(a, b)?;
    let sa = g.sin(a)?;
    g.add(ab, sa)
}

fn composite_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let (x, y) = (a[0], a[1]);
    let ex = g.exp(x)?;
    let h1 = h_graph(g, ex, y)?;
    let h2 = h_graph(g, y, x)?;
    let t = g.mul(h2, x)?;
    g.add(h1, t)
}

/// A longer chain: a small two-layer network of scalars.
#[differentiable]
fn two_layer(x: f64, w1: f64, w2: f64, v1: f64, v2: f64) -> f64 {
    let h1 = (w1 * x).tanh();
    let h2 = (w2 * x).sigmoid();
    let o = v1 * h1 + v2 * h2;
    (o * o).sqrt() + h1 * h2
}

fn two_layer_graph(g: &mut Graph, a: &[NodeId]) -> Result<NodeId, GraphError> {
    let (x, w1, w2, v1, v2) = (a[0], a[1], a[2], a[3], a[4]);
    let z1 = g.mul(w1, x)?;
    let h1 = g.tanh(z1)?;
    let z2 = g.mul(w2, x)?;
    let h2 = g.sigmoid(z2)?;
    let o1 = g.mul(v1, h1)?;
    let o2 = g.mul(v2, h2)?;
    let o = g.add(o1, o2)?;
    let oo = g.mul(o, o)?;
    let r = g.sqrt(oo)?;
    let hh = g.mul(h1, h2)?;
    g.add(r, hh)
}

// ----------------------------------------------------------------- tests

#[test]
fn running_example() {
    for (x, y) in [(3.0, 4.0), (5.0, 2.0), (-1.5, 0.25)] {
        let (v, dx, dy) = w_grad(x, y);
        let graph = graph_grad(&[x, y], w_graph);
        // Sums and products of small integers: exact on both sides.
        assert_eq!((graph.0, graph.1[0], graph.1[1]), (v, dx, dy));
        three_way("w", &[x, y], (v, vec![dx, dy]), graph, |a| w(a[0], a[1]));
    }
}

#[test]
fn elementary_functions() {
    for (x, y) in [(0.5, 1.5), (1.2, 0.7), (2.5, 3.0), (0.3, 0.4)] {
        let (v, dx, dy) = elementary_grad(x, y);
        three_way(
            "elementary",
            &[x, y],
            (v, vec![dx, dy]),
            graph_grad(&[x, y], elementary_graph),
            |a| elementary(a[0], a[1]),
        );
    }
}

#[test]
fn activations_and_pow() {
    // Both signs of x - y, away from relu's kink.
    for (x, y) in [(0.5, 1.5), (1.7, 0.7), (2.5, -1.0), (0.3, 0.9)] {
        let (v, dx, dy) = activations_grad(x, y);
        three_way(
            "activations",
            &[x, y],
            (v, vec![dx, dy]),
            graph_grad(&[x, y], activations_graph),
            |a| activations(a[0], a[1]),
        );
    }
}

#[test]
fn neuron_with_constant_data() {
    for (w, b, x, t) in [
        (0.5, -0.2, 1.5, 0.3),
        (-1.2, 0.4, 0.7, -0.6),
        (2.0, 0.1, -0.3, 0.9),
    ] {
        let (v, dw, db) = neuron_grad(w, b, x, t);
        let (gv, ga) = graph_grad(&[w, b, x, t], neuron_graph);
        // Only w and b are arguments of the macro's gradient.
        three_way(
            "neuron",
            &[w, b],
            (v, vec![dw, db]),
            (gv, ga[..2].to_vec()),
            |a| neuron(a[0], a[1], x, t),
        );
    }
}

#[test]
fn calls_against_the_inlined_graph() {
    for (x, y) in [(0.5, 1.5), (-0.7, 0.2), (1.1, -2.0)] {
        let (v, dx, dy) = composite_grad(x, y);
        three_way(
            "composite",
            &[x, y],
            (v, vec![dx, dy]),
            graph_grad(&[x, y], composite_graph),
            |a| composite(a[0], a[1]),
        );
    }
}

#[test]
fn two_layer_network() {
    for args in [
        [0.5, 1.2, -0.7, 0.9, 1.4],
        [-1.3, 0.3, 2.0, -1.1, 0.5],
        [2.0, -0.4, 0.6, 1.5, -2.5],
    ] {
        let [x, w1, w2, v1, v2] = args;
        let (v, d0, d1, d2, d3, d4) = two_layer_grad(x, w1, w2, v1, v2);
        three_way(
            "two_layer",
            &args,
            (v, vec![d0, d1, d2, d3, d4]),
            graph_grad(&args, two_layer_graph),
            |a| two_layer(a[0], a[1], a[2], a[3], a[4]),
        );
    }
}

/// A seed other than 1 through both: the macro's `_vjp` and the graph's
/// `backward_with` give the same pullback (the seed's sigmoid/tanh case,
/// seed 2 at 0: 0.5 and 2).
#[test]
fn pullback_with_seed_2() {
    #[differentiable]
    fn sig(x: f64) -> f64 {
        x.sigmoid()
    }
    #[differentiable]
    fn th(x: f64) -> f64 {
        x.tanh()
    }
    for x in [0.0, -1.25, 0.8] {
        for (name, pullback, op) in [
            ("sigmoid", sig_vjp(x).1(2.0).0, "sigmoid"),
            ("tanh", th_vjp(x).1(2.0).0, "tanh"),
        ] {
            let mut g = Graph::new();
            let xi = g.input(x);
            let out = g.apply(op, &[xi]).expect("op");
            let grads = g
                .backward_with(out, autograd::Value::Scalar(2.0), |_| {})
                .expect("reverse pass");
            let graph = grads.scalar(xi).expect("scalar");
            assert_relative_eq!(
                pullback,
                graph,
                epsilon = AGREE_ABS,
                max_relative = AGREE_REL
            );
            if x == 0.0 {
                let expected = if name == "sigmoid" { 0.5 } else { 2.0 };
                assert_eq!(pullback, expected, "{name}");
            }
        }
    }
    assert_eq!(sig(0.0), 0.5);
    assert_eq!(th(0.0), 0.0);
}
