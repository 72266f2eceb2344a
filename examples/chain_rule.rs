//! The seed's running example, w = x·y + x at x = 3, y = 4, traced through
//! the dynamic graph: each node's forward value, then each backward step
//! (the op, the gradient arriving at it, what it hands each input).
//!
//! Run with `cargo run --release --example chain_rule`.

use autograd::Value;
use autograd::graph::{Graph, GraphError, NodeId};

fn main() -> Result<(), GraphError> {
    let mut g = Graph::new();
    let x = g.input(3.0);
    let y = g.input(4.0);
    let z = g.mul(x, y)?;
    let w = g.add(z, x)?;
    let name = |id: NodeId| match id {
        id if id == x => "x",
        id if id == y => "y",
        id if id == z => "z",
        _ => "w",
    };

    println!("forward (creation order is topological):");
    for id in g.ids() {
        let node = g.node(id)?;
        match node.op() {
            None => println!("  {} = {}  input", name(id), node.value()),
            Some(op) => {
                let args: Vec<&str> = node.inputs().iter().map(|&i| name(i)).collect();
                println!(
                    "  {} = {}  {op}({})",
                    name(id),
                    node.value(),
                    args.join(", ")
                );
            }
        }
    }

    println!("backward (reverse order, seed dw/dw = 1):");
    let grads = g.backward_with(w, Value::Scalar(1.0), |step| {
        let args: Vec<&str> = step.inputs.iter().map(|&i| name(i)).collect();
        println!(
            "  {op}({args}) -> {out}: incoming gradient {grad}",
            op = step.op,
            args = args.join(", "),
            out = name(step.node),
            grad = step.grad_output,
        );
        for (&input, contribution) in step.inputs.iter().zip(step.contributions) {
            println!("    {} += {contribution}", name(input));
        }
    })?;

    let dx = grads.scalar(x).unwrap_or(f64::NAN);
    let dy = grads.scalar(y).unwrap_or(f64::NAN);
    println!("x.grad = {dx}   (dw/dx = y + 1: 1 directly + 4 through the multiply)");
    println!("y.grad = {dy}   (dw/dy = x)");
    assert_eq!((dx, dy), (5.0, 3.0), "the seed's answer");
    Ok(())
}
