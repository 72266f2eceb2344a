//! A small dynamic graph: record values and ops as they run, then walk
//! back from an output, one chain-rule step per node.
//!
//! Nodes are numbered in the order they are created, and an op can only
//! take nodes that already exist, so creation order is a topological
//! order: walking the ids downwards from the output visits every node after
//! all the nodes that consume it. The reverse pass does exactly that,
//! restricted to the ancestors of the output, and adds each adjoint a node
//! hands back into its input's gradient (the sum over paths of the chain
//! rule).
//!
//! Every adjoint is an owned [`Value`], so two inputs that receive "the
//! same" gradient (the seed's `AddOp` trap) hold separate buffers: adding
//! into one can never change the other.
//!
//! # Example
//!
//! The seed's running example, w = x·y + x at x = 3, y = 4:
//!
//! ```
//! use autograd_runtime::graph::Graph;
//!
//! let mut g = Graph::new();
//! let x = g.input(3.0);
//! let y = g.input(4.0);
//! let z = g.mul(x, y)?;
//! let w = g.add(z, x)?;
//! assert_eq!(g.value(w)?.as_scalar(), Some(15.0));
//!
//! let grads = g.backward(w)?;
//! assert_eq!(grads.scalar(x), Some(5.0)); // y + 1
//! assert_eq!(grads.scalar(y), Some(3.0)); // x
//! # Ok::<(), autograd_runtime::graph::GraphError>(())
//! ```

use core::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use nalgebra::DMatrix;

use crate::registry::{Differentiable, OpError, OpRegistry, ReshapeOp};
use crate::value::{Shape, Value, try_filled_like};

/// Identifies a node of one [`Graph`]; printed as `%3`.
///
/// An id remembers its graph, so using it with another graph is an error
/// ([`GraphError::UnknownNode`]), not a silent mix-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    graph: u64,
    index: usize,
}

impl NodeId {
    /// The node's position in its graph's creation order.
    pub fn index(self) -> usize {
        self.index
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.index)
    }
}

/// A recorded node: an input value, or an op applied to earlier nodes with
/// the value it produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    op: Option<String>,
    inputs: Vec<NodeId>,
    value: Value,
}

impl Node {
    /// The op's name, `None` for an input.
    pub fn op(&self) -> Option<&str> {
        self.op.as_deref()
    }

    /// The nodes the op was applied to, in argument order (empty for an input).
    pub fn inputs(&self) -> &[NodeId] {
        &self.inputs
    }

    /// The node's forward value.
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// What went wrong while building a graph or running its reverse pass.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum GraphError {
    /// The id does not name a node of this graph.
    UnknownNode {
        /// The offending id.
        id: NodeId,
        /// How many nodes the graph has.
        len: usize,
    },
    /// An op failed (unknown name, wrong arity, mismatched shapes); the
    /// error names the op and the shapes.
    Op(OpError),
    /// The seed of a reverse pass does not have the output's shape.
    SeedShape {
        /// The output's shape.
        expected: Shape,
        /// The seed's shape.
        got: Shape,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::UnknownNode { id, len } => {
                write!(f, "node {id} is not in this graph (it has {len} nodes)")
            }
            GraphError::Op(e) => fmt::Display::fmt(e, f),
            GraphError::SeedShape { expected, got } => write!(
                f,
                "the seed of the reverse pass is {got}, the output is {expected}"
            ),
        }
    }
}

impl std::error::Error for GraphError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GraphError::Op(e) => Some(e),
            _ => None,
        }
    }
}

impl From<OpError> for GraphError {
    fn from(e: OpError) -> Self {
        GraphError::Op(e)
    }
}

/// One step of a reverse pass, as handed to the observer of
/// [`Graph::backward_with`].
#[derive(Debug)]
#[non_exhaustive]
pub struct BackwardStep<'a> {
    /// The node whose op is being differentiated.
    pub node: NodeId,
    /// The op's name.
    pub op: &'a str,
    /// The op's input nodes, in argument order.
    pub inputs: &'a [NodeId],
    /// The adjoint that arrived at the node (fully accumulated).
    pub grad_output: &'a Value,
    /// The adjoint the op hands to each input, in argument order.
    pub contributions: &'a [Value],
}

/// The gradients of one reverse pass: one adjoint per node of the graph,
/// of that node's shape (zeros for nodes the output does not depend on).
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    graph: u64,
    grads: Vec<Value>,
}

impl Gradients {
    /// The adjoint of node `id`, `None` for an id of another graph or one
    /// created after the reverse pass ran.
    pub fn get(&self, id: NodeId) -> Option<&Value> {
        if id.graph != self.graph {
            return None;
        }
        self.grads.get(id.index)
    }

    /// The adjoint of node `id` if it is a scalar.
    pub fn scalar(&self, id: NodeId) -> Option<f64> {
        self.get(id)?.as_scalar()
    }

    /// The adjoint of node `id` if it is a matrix.
    pub fn matrix(&self, id: NodeId) -> Option<&DMatrix<f64>> {
        self.get(id)?.as_matrix()
    }
}

static NEXT_GRAPH: AtomicU64 = AtomicU64::new(0);

/// A dynamic computation graph over the ops of an [`OpRegistry`].
///
/// Build it with [`input`](Graph::input) and [`apply`](Graph::apply) (or the
/// typed helpers such as [`mul`](Graph::mul) and [`matmul`](Graph::matmul)),
/// which run each op's forward at once; then call
/// [`backward`](Graph::backward).
///
/// # Example
///
/// ```
/// use autograd_runtime::graph::Graph;
/// use nalgebra::DMatrix;
///
/// let mut g = Graph::new();
/// let x = g.input(DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
/// let m = g.input(DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
/// let y = g.matmul(x, m)?;
/// let loss = g.sum(y)?;
/// let grads = g.backward(loss)?;
/// // dL/dX = ones·Mᵀ: every row is M's row sums.
/// assert_eq!(grads.matrix(x).unwrap().row(0).iter().copied().collect::<Vec<_>>(), [3.0, 7.0, 11.0]);
/// # Ok::<(), autograd_runtime::graph::GraphError>(())
/// ```
#[derive(Debug)]
pub struct Graph {
    id: u64,
    registry: OpRegistry,
    nodes: Vec<Node>,
}

impl Default for Graph {
    fn default() -> Self {
        Graph::new()
    }
}

impl Graph {
    /// An empty graph over the eighteen built-in ops.
    pub fn new() -> Graph {
        Graph::with_registry(OpRegistry::new())
    }

    /// An empty graph over the ops of `registry`.
    pub fn with_registry(registry: OpRegistry) -> Graph {
        Graph {
            id: NEXT_GRAPH.fetch_add(1, Ordering::Relaxed),
            registry,
            nodes: Vec::new(),
        }
    }

    /// The graph's registry.
    pub fn registry(&self) -> &OpRegistry {
        &self.registry
    }

    /// Registers a caller's op (for example a
    /// [`CustomFunction`](crate::CustomFunction)) under `name`, returning the
    /// op it replaces, if any.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        op: Box<dyn Differentiable>,
    ) -> Option<Box<dyn Differentiable>> {
        self.registry.register(name, op)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The ids of every node, in creation (topological) order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.nodes.len()).map(|index| NodeId {
            graph: self.id,
            index,
        })
    }

    /// The node `id`.
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`] when `id` is not a node of this graph.
    pub fn node(&self, id: NodeId) -> Result<&Node, GraphError> {
        if id.graph != self.id {
            return Err(self.unknown(id));
        }
        self.nodes.get(id.index).ok_or_else(|| self.unknown(id))
    }

    /// The forward value of node `id`.
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`] when `id` is not a node of this graph.
    pub fn value(&self, id: NodeId) -> Result<&Value, GraphError> {
        Ok(&self.node(id)?.value)
    }

    fn unknown(&self, id: NodeId) -> GraphError {
        GraphError::UnknownNode {
            id,
            len: self.nodes.len(),
        }
    }

    fn push(&mut self, op: Option<String>, inputs: Vec<NodeId>, value: Value) -> NodeId {
        let id = NodeId {
            graph: self.id,
            index: self.nodes.len(),
        };
        self.nodes.push(Node { op, inputs, value });
        id
    }

    /// Records an input (a leaf): a scalar, a `DMatrix<f64>` or a
    /// `DVector<f64>` (as an `n × 1` matrix).
    pub fn input(&mut self, value: impl Into<Value>) -> NodeId {
        self.push(None, Vec::new(), value.into())
    }

    fn input_values(&self, inputs: &[NodeId]) -> Result<Vec<Value>, GraphError> {
        inputs.iter().map(|&id| self.value(id).cloned()).collect()
    }

    /// Applies the op registered under `name` to `inputs`, records the node
    /// and returns its id.
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`] for an id not of this graph, and
    /// [`GraphError::Op`] for an unknown op name, a wrong number of inputs,
    /// mismatched shapes, or a `matmul` whose result would have more than
    /// [`MAX_ELEMENTS`](crate::MAX_ELEMENTS) elements
    /// ([`OpError::TooLarge`]). Nothing is recorded on error.
    pub fn apply(&mut self, name: &str, inputs: &[NodeId]) -> Result<NodeId, GraphError> {
        let values = self.input_values(inputs)?;
        let value = self.registry.forward(name, &values)?;
        Ok(self.push(Some(name.to_owned()), inputs.to_vec(), value))
    }

    /// Reshapes matrix node `a` to `rows × cols` (column-major element
    /// order), recorded as `reshape`.
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`], or [`GraphError::Op`] when `a` is not a
    /// matrix or does not have `rows · cols` elements.
    pub fn reshape(&mut self, a: NodeId, rows: usize, cols: usize) -> Result<NodeId, GraphError> {
        let values = self.input_values(&[a])?;
        // The forward needs the target shape; the backward (looked up by
        // name in the registry) reads only the input's shape.
        let value = ReshapeOp::new(rows, cols).forward(&values)?;
        Ok(self.push(Some("reshape".to_owned()), vec![a], value))
    }

    /// Runs the reverse pass from `output` with a seed of ones of its shape
    /// (1 for a scalar output; for a matrix output, the gradient of the sum
    /// of its entries).
    ///
    /// # Errors
    ///
    /// [`GraphError::UnknownNode`] for an id not of this graph, and
    /// [`GraphError::Op`] if an op's backward fails (a caller's op
    /// registered after recording, or one returning adjoints of the wrong
    /// number or shape), or the memory of an adjoint cannot be reserved
    /// ([`OpError::OutOfMemory`]).
    pub fn backward(&self, output: NodeId) -> Result<Gradients, GraphError> {
        let seed = try_filled_like("ones", self.value(output)?, 1.0)?;
        self.backward_with(output, seed, |_| {})
    }

    /// Runs the reverse pass from `output` with the given seed (the adjoint
    /// of the output), calling `observe` once per op node visited, in the
    /// order visited.
    ///
    /// # Errors
    ///
    /// As [`backward`](Graph::backward), plus [`GraphError::SeedShape`] when
    /// the seed does not have the output's shape.
    ///
    /// # Example
    ///
    /// ```
    /// use autograd_runtime::{graph::Graph, Value};
    ///
    /// let mut g = Graph::new();
    /// let x = g.input(0.0);
    /// let s = g.sigmoid(x)?;
    /// let mut ops = Vec::new();
    /// let grads = g.backward_with(s, Value::Scalar(2.0), |step| ops.push(step.op.to_owned()))?;
    /// assert_eq!(grads.scalar(x), Some(0.5)); // 2 · σ(0)(1 - σ(0))
    /// assert_eq!(ops, ["sigmoid"]);
    /// # Ok::<(), autograd_runtime::graph::GraphError>(())
    /// ```
    pub fn backward_with(
        &self,
        output: NodeId,
        seed: Value,
        mut observe: impl FnMut(&BackwardStep<'_>),
    ) -> Result<Gradients, GraphError> {
        let out_shape = self.value(output)?.shape();
        if seed.shape() != out_shape {
            return Err(GraphError::SeedShape {
                expected: out_shape,
                got: seed.shape(),
            });
        }
        let last = output.index;

        // Only ancestors of the output take part.
        let mut needed = vec![false; last + 1];
        needed[last] = true;
        for i in (0..=last).rev() {
            if needed[i] {
                for input in &self.nodes[i].inputs {
                    needed[input.index] = true;
                }
            }
        }

        let mut grads: Vec<Option<Value>> = vec![None; self.nodes.len()];
        grads[last] = Some(seed);
        for i in (0..=last).rev() {
            let node = &self.nodes[i];
            let Some(op) = node.op.as_deref() else {
                continue;
            };
            if !needed[i] {
                continue;
            }
            // Inputs have smaller ids, so they live in `before`; node i's own
            // gradient is complete because every consumer has a larger id.
            let (before, rest) = grads.split_at_mut(i);
            let Some(grad_output) = rest[0].as_ref() else {
                continue;
            };
            let values = self.input_values(&node.inputs)?;
            let contributions =
                self.registry
                    .chain_rule_step(op, grad_output, &values, &node.value)?;
            observe(&BackwardStep {
                node: NodeId {
                    graph: self.id,
                    index: i,
                },
                op,
                inputs: &node.inputs,
                grad_output,
                contributions: &contributions,
            });
            for (input, contribution) in node.inputs.iter().zip(contributions) {
                accumulate(&mut before[input.index], contribution);
            }
        }

        let grads = grads
            .into_iter()
            .zip(&self.nodes)
            .map(|(g, node)| match g {
                Some(g) => Ok(g),
                None => try_filled_like("zeros", &node.value, 0.0),
            })
            .collect::<Result<_, _>>()?;
        Ok(Gradients {
            graph: self.id,
            grads,
        })
    }
}

/// Adds one path's contribution into a node's gradient.
///
/// The first contribution is moved in, so the slot owns its own buffer;
/// later ones are added in place into that buffer. No two slots ever share
/// storage, which is what keeps the seed's `AddOp` trap closed. Shapes were
/// checked by [`OpRegistry::chain_rule_step`].
fn accumulate(slot: &mut Option<Value>, contribution: Value) {
    match (slot.as_mut(), contribution) {
        (None, c) => *slot = Some(c),
        (Some(Value::Scalar(acc)), Value::Scalar(c)) => *acc += c,
        (Some(Value::Matrix(acc)), Value::Matrix(c)) => *acc += c,
        // Unreachable after the shape check; keep the first rather than panic.
        (Some(_), _) => {}
    }
}

macro_rules! binary_helpers {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// [`GraphError::UnknownNode`] for an id not of this graph, and
        /// [`GraphError::Op`] for mismatched shapes.
        pub fn $name(&mut self, a: NodeId, b: NodeId) -> Result<NodeId, GraphError> {
            self.apply(stringify!($name), &[a, b])
        }
    )*};
}

macro_rules! unary_helpers {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// [`GraphError::UnknownNode`] for an id not of this graph, and
        /// [`GraphError::Op`] when the op does not accept the node's shape.
        pub fn $name(&mut self, a: NodeId) -> Result<NodeId, GraphError> {
            self.apply(stringify!($name), &[a])
        }
    )*};
}

/// Typed helpers: `g.mul(a, b)` is `g.apply("mul", &[a, b])`.
impl Graph {
    binary_helpers! {
        /// Records `a + b` (element-wise on matrices).
        add;
        /// Records `a - b` (element-wise on matrices).
        sub;
        /// Records `a · b` (element-wise on matrices; see [`matmul`](Graph::matmul)).
        mul;
        /// Records `a / b` (element-wise on matrices).
        div;
        /// Records `a^b` (element-wise on matrices).
        pow;
        /// Records the matrix product `a·b`; a result of more than
        /// [`MAX_ELEMENTS`](crate::MAX_ELEMENTS) elements is an
        /// [`OpError::TooLarge`], whatever the operands (a `2³³ × 0` times
        /// `0 × 2³³` product included).
        matmul;
    }
    unary_helpers! {
        /// Records `e^a` (element-wise on matrices).
        exp;
        /// Records `ln a` (element-wise on matrices), the op `log`.
        log;
        /// Records `√a` (element-wise on matrices).
        sqrt;
        /// Records `max(0, a)` (element-wise on matrices).
        relu;
        /// Records the logistic sigmoid of `a` (element-wise on matrices).
        sigmoid;
        /// Records `tanh a` (element-wise on matrices).
        tanh;
        /// Records `sin a` (element-wise on matrices).
        sin;
        /// Records `cos a` (element-wise on matrices).
        cos;
        /// Records the sum of matrix `a`'s elements.
        sum;
        /// Records the largest element of matrix `a` (the first one on a tie).
        max;
        /// Records `aᵀ`.
        transpose;
    }
}
