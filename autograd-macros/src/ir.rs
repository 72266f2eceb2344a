//! The intermediate representation: a typed, SSA-like list of operations
//! with structured control flow.
//!
//! Every value is written once per execution of the block that defines it.
//! A user variable that is re-assigned becomes a new value at each
//! assignment; where control flow joins, `If` carries φ-nodes and `Loop`
//! carries its loop-carried variables explicitly (value at iteration entry,
//! value at iteration exit, value after the loop).

use proc_macro2::{Span, TokenStream};
use std::fmt;
use std::ops::{Index, IndexMut};

use crate::table::Rule;

/// A value, unique in the whole function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ValueId(u32);

impl ValueId {
    /// Its number, for generated names.
    pub fn index(self) -> u32 {
        self.0
    }
}

/// A block, unique in the whole function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockId(pub u32);

/// A loop, unique in the whole function: names its stack and counters.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LoopId(pub u32);

/// Its number, for generated names.
impl fmt::Display for LoopId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A table with one entry per value of a function, indexed by
/// [`ValueId`] (cranelift's `SecondaryMap`); the function's own table of
/// values allocates the ids.
#[derive(Clone, Debug)]
pub struct ValueMap<T>(Vec<T>);

impl<T> Default for ValueMap<T> {
    fn default() -> Self {
        ValueMap(Vec::new())
    }
}

impl<T> ValueMap<T> {
    /// Adds an entry for a new value.
    pub fn push(&mut self, entry: T) -> ValueId {
        let id = ValueId(self.0.len() as u32);
        self.0.push(entry);
        id
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Every value and its entry, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (ValueId, &T)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, t)| (ValueId(i as u32), t))
    }
}

impl<T: Clone> ValueMap<T> {
    /// A table of `n` values, each entry `entry`.
    pub fn filled(n: usize, entry: T) -> Self {
        ValueMap(vec![entry; n])
    }
}

impl<T> Index<ValueId> for ValueMap<T> {
    type Output = T;
    fn index(&self, v: ValueId) -> &T {
        &self.0[v.0 as usize]
    }
}

impl<T> IndexMut<ValueId> for ValueMap<T> {
    fn index_mut(&mut self, v: ValueId) -> &mut T {
        &mut self.0[v.0 as usize]
    }
}

/// What the macro knows of a value's type. rustc knows the rest.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `f32` or `f64`.
    Float,
    /// Any integer type: never differentiable.
    Int,
    /// `bool`: never differentiable.
    Bool,
    /// `&[f32|f64]` or `&Vec<f32|f64>` argument.
    Slice,
    /// A nalgebra `DMatrix<f64>` or `DVector<f64>`.
    Matrix,
    /// An array `[f64; N]`, a `Vec<f64>` or a tuple of floats, whose
    /// elements the body reads and writes (argument, local or result):
    /// its adjoint has its type.
    Array,
    /// A value whose type the macro cannot see (the result of a call).
    Unknown,
}

impl Kind {
    /// Whether a value of this kind can carry a derivative.
    pub fn is_differentiable(self) -> bool {
        matches!(
            self,
            Kind::Float | Kind::Slice | Kind::Matrix | Kind::Array | Kind::Unknown
        )
    }

    /// Whether the generated code may copy the value freely; other values
    /// are passed by reference and cloned where a copy is needed.
    pub fn is_copy(self) -> bool {
        matches!(self, Kind::Float | Kind::Int | Kind::Bool)
    }
}

/// Side information of a value.
#[derive(Clone)]
pub struct ValueInfo {
    pub kind: Kind,
    /// The user variable it was bound to, for readable generated names.
    pub name: Option<String>,
    /// The block whose execution defines it.
    pub block: BlockId,
    /// A function argument: referred to by the user's own identifier.
    pub param: Option<syn::Ident>,
    /// An argument passed by reference (a slice, `&DMatrix<f64>`): its
    /// local is already a reference.
    pub by_ref: bool,
    /// The float type (`f32`, `f64`) of the value or of its elements,
    /// where the macro can tell: a literal later assigned to the variable
    /// is given it.
    pub float: Option<syn::Ident>,
    /// Where a `#[cfg]` branch binds it in some configurations only (a
    /// `let` under `#[cfg(P)]` that shadows nothing): the predicate under
    /// which it exists, within the block defining it. Generated code that
    /// reads it from outside that predicate carries it too.
    pub exists: Option<TokenStream>,
}

/// An operand: a value, or a constant expression emitted as written.
#[derive(Clone)]
pub enum Operand {
    Value(ValueId),
    Const(TokenStream),
}

impl Operand {
    pub fn value(&self) -> Option<ValueId> {
        match self {
            Operand::Value(v) => Some(*v),
            Operand::Const(_) => None,
        }
    }

    fn value_ref(&self) -> Option<&ValueId> {
        match self {
            Operand::Value(v) => Some(v),
            Operand::Const(_) => None,
        }
    }

    fn value_mut(&mut self) -> Option<&mut ValueId> {
        match self {
            Operand::Value(v) => Some(v),
            Operand::Const(_) => None,
        }
    }
}

/// How an operation was written, so the primal sweep repeats it exactly.
#[derive(Clone)]
pub enum Syntax {
    /// `a + b`, `-a`.
    Operator(TokenStream),
    /// `a.exp()`, `a.max(b)`.
    Method(syn::Ident),
    /// `f64::exp(a)`.
    Path(syn::Path),
    /// `a.map(f)`, `f` as written: an element-wise rule.
    Map(TokenStream),
}

/// How a collection of floats is written.
#[derive(Clone, Debug)]
pub enum Collection {
    /// `[a, b]`, `[e; N]`.
    Array,
    /// `vec![a, b]`, `vec![e; n]`.
    Vec,
    /// `(a, b)`: its elements are `.0`, `.1`, ...
    Tuple,
    /// A nalgebra vector or matrix built from its elements:
    /// `Vector3::new(a, b, c)`, `Matrix2::new(a, b, c, d)` (row by row),
    /// `DVector::from_vec(vec![a, b])`.
    Matrix(Box<MatrixCtor>),
}

/// How a nalgebra value is built from its elements.
#[derive(Clone)]
pub struct MatrixCtor {
    /// The constructor as written (`Vector3::new`, `na::DVector::from_vec`).
    pub func: syn::Path,
    /// The elements as its arguments, or in one `vec![..]` / `&[..]`.
    pub form: CtorForm,
    /// Integer literals before the elements: `DMatrix::from_row_slice(2,
    /// 3, &[..])`'s shape.
    pub shape: Vec<syn::LitInt>,
    /// Which entry element `k` is.
    pub layout: Layout,
}

#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Entry `k` of a vector.
    Linear,
    /// Row by row (`Matrix2::new`, `from_row_slice`): `(k / cols, k % cols)`.
    Rows { cols: usize },
    /// Column by column (`from_column_slice`): `(k % rows, k / rows)`.
    Columns { rows: usize },
}

impl std::fmt::Debug for MatrixCtor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let func = &self.func;
        write!(
            f,
            "{} ({:?}, {:?})",
            quote::quote!(#func),
            self.form,
            self.layout
        )
    }
}

#[derive(Clone, Copy, Debug)]
pub enum CtorForm {
    Args,
    Vec,
    Slice,
}

/// The longest fixed-size array the sweeps keep on the stack: an argument's
/// adjoint (see `sig::Param::adjoint_off_stack`), or an array the body
/// declares (see `analysis::boxes_large_arrays`); 4 KiB of `f64`.
pub const STACK_ARRAY_LEN: usize = 512;

/// One operation producing one value.
#[derive(Clone)]
pub enum Op {
    /// The operand itself (a binding of a constant, or a typed `let`).
    Copy(Operand),
    /// A rule of the table applied to its operands.
    Rule {
        rule: &'static Rule,
        args: Vec<Operand>,
        syntax: Syntax,
    },
    /// `slice[index]`.
    Index { slice: ValueId, index: Operand },
    /// `slice.len()`.
    Len { slice: ValueId },
    /// `[a, b]`, `vec![a, b]`, `(a, b)`.
    Pack {
        elems: Vec<Operand>,
        collection: Collection,
    },
    /// `[elem; len]`, `vec![elem; len]`.
    Fill {
        elem: Operand,
        len: Operand,
        collection: Collection,
    },
    /// `array[index] = elem`: the array with one element replaced, a new
    /// value (the old one's element is overwritten).
    Store {
        array: ValueId,
        index: Operand,
        elem: Operand,
    },
    /// `vec.push(elem)`: the `Vec` one element longer.
    Push { array: ValueId, elem: Operand },
    /// A call of another `#[differentiable]` function through its
    /// all-arguments VJP.
    Call {
        /// Path of the callee's primal function, as written.
        func: syn::Path,
        args: Vec<CallArg>,
    },
    /// `autograd::stop_gradient(x)`: the value flows, the adjoint does not.
    /// `func` is the path as written, which the sweeps call (checking that
    /// it is autograd's).
    StopGradient { arg: Operand, func: syn::Path },
    /// `x as T`.
    Cast {
        arg: Operand,
        ty: syn::Type,
        /// The cast as written, for an error that underlines all of it.
        written: TokenStream,
    },
    /// `m.map(f)`: `forward` is `f` as written, which the primal sweep
    /// calls; `closure` is its body lowered as a function of one element
    /// (`|v| body` as `fn(v) -> body`; `f64::exp` as `fn(v) -> f64::exp(v)`),
    /// whose VJP the reverse and tangent sweeps apply element by element.
    Map {
        recv: ValueId,
        forward: TokenStream,
        closure: Box<Function>,
        /// Variables of the function the closure reads (constants of the
        /// element-wise function), each as the closure names it.
        captures: Vec<(syn::Ident, ValueId)>,
        /// Floats of the function the closure reads that may carry a
        /// derivative (`|v| (v - m).exp()` of a computed `m`): the
        /// closure's parameters after the element, in order, so its VJP
        /// gives their adjoints too, summed over the elements.
        inputs: Vec<(syn::Ident, ValueId)>,
    },
    /// Primal-only code (comparisons, `&&`, `||`, `!`, integer operators)
    /// emitted as written, each variable name in `bindings` renamed to the
    /// value it denotes.
    Primal {
        expr: syn::Expr,
        bindings: Vec<(String, ValueId)>,
    },
    /// A literal assigned to a variable whose type the macro cannot see:
    /// emitted as `like(previous, lit)`, so it takes the type of the
    /// variable's previous value, as the assignment does in the primal.
    Literal { lit: TokenStream, like: ValueId },
    /// The other source of a φ for a name that a `#[cfg]` statement
    /// introduces: in the configuration without it, the name does not
    /// exist, and nothing is emitted.
    Absent,
    /// Placeholder left where lowering reported an error.
    Missing,
}

/// A call argument, passed by value or by reference as written.
#[derive(Clone)]
pub struct CallArg {
    pub operand: Operand,
    pub by_ref: bool,
    /// The argument as written, where a type error about its adjoint points.
    pub span: Span,
    /// `&x[start..end]`: the part of the slice, array or `Vec` `operand`
    /// that is passed (`by_ref`); its adjoint goes to those elements.
    pub range: Option<SubRange>,
}

/// The elements `start..end` of a sequence, integer operands whose range
/// the primal checks where the sub-slice is made.
#[derive(Clone)]
pub struct SubRange {
    pub start: Operand,
    pub end: Operand,
}

// ---- the shared traversal ----

/// The operand and statement visits, written once for shared and for
/// mutable access.
macro_rules! traversal {
    ($op:ident, $own:ident, $deep:ident, $value:ident, $iter:ident, $($ref:tt)*) => {
        impl Op {
            /// Calls `f` on every value the operation reads in the primal
            /// sweep, in order (`v + v` reads `v` twice).
            pub fn $op(self: $($ref)* Self, f: &mut impl FnMut($($ref)* ValueId)) {
                match self {
                    Op::Copy(a) | Op::StopGradient { arg: a, .. } | Op::Cast { arg: a, .. } => {
                        a.$value().into_iter().for_each(f)
                    }
                    Op::Rule { args, .. } => args.$iter().filter_map(Operand::$value).for_each(f),
                    Op::Index { slice, index } => {
                        f(slice);
                        index.$value().into_iter().for_each(f);
                    }
                    Op::Len { slice } => f(slice),
                    Op::Pack { elems, .. } => elems.$iter().filter_map(Operand::$value).for_each(f),
                    Op::Fill { elem, len, .. } => {
                        elem.$value().into_iter().for_each(&mut *f);
                        len.$value().into_iter().for_each(f);
                    }
                    Op::Store { array, index, elem } => {
                        f(array);
                        index.$value().into_iter().for_each(&mut *f);
                        elem.$value().into_iter().for_each(f);
                    }
                    Op::Push { array, elem } => {
                        f(array);
                        elem.$value().into_iter().for_each(f);
                    }
                    Op::Map {
                        recv,
                        captures,
                        inputs,
                        ..
                    } => {
                        f(recv);
                        captures.$iter().for_each(|c| f($($ref)* c.1));
                        inputs.$iter().for_each(|c| f($($ref)* c.1));
                    }
                    Op::Call { args, .. } => {
                        for a in args.$iter() {
                            a.operand.$value().into_iter().for_each(&mut *f);
                            if let Some(r) = $($ref)* a.range {
                                r.start.$value().into_iter().for_each(&mut *f);
                                r.end.$value().into_iter().for_each(&mut *f);
                            }
                        }
                    }
                    Op::Primal { bindings, .. } => bindings.$iter().for_each(|b| f($($ref)* b.1)),
                    Op::Literal { like, .. } => f(like),
                    Op::Absent | Op::Missing => {}
                }
            }
        }

        impl Stmt {
            /// Calls `f` on every value the statement itself reads, not in
            /// its nested blocks: a `let`'s operands; a branch's condition
            /// and φ sources; a loop's bounds or condition and its carried
            /// variables' initial and exit values.
            pub fn $own(self: $($ref)* Self, f: &mut impl FnMut($($ref)* ValueId)) {
                match self {
                    Stmt::Let { op, .. } => op.$op(f),
                    Stmt::If(i) => {
                        i.cond.$value().into_iter().for_each(&mut *f);
                        for p in $($ref)* i.phis {
                            f($($ref)* p.then_src);
                            f($($ref)* p.else_src);
                        }
                    }
                    Stmt::Loop(l) => {
                        match $($ref)* l.header {
                            LoopHeader::Range { start, end, .. } => {
                                start.$value().into_iter().for_each(&mut *f);
                                end.$value().into_iter().for_each(&mut *f);
                            }
                            LoopHeader::While { cond, .. } => {
                                cond.$value().into_iter().for_each(&mut *f)
                            }
                        }
                        for c in $($ref)* l.carried {
                            f($($ref)* c.init);
                            f($($ref)* c.exit);
                        }
                    }
                }
            }
        }

        impl Block {
            /// Calls `f` on every value read anywhere in the block: its
            /// statements' own reads and those of the blocks nested in them.
            pub fn $deep(self: $($ref)* Self, f: &mut impl FnMut($($ref)* ValueId)) {
                for stmt in $($ref)* self.stmts {
                    stmt.$own(f);
                    match stmt {
                        Stmt::Let { .. } => {}
                        Stmt::If(i) => {
                            i.then_blk.$deep(f);
                            i.else_blk.$deep(f);
                        }
                        Stmt::Loop(l) => {
                            if let LoopHeader::While { cond_blk, .. } = $($ref)* l.header {
                                cond_blk.$deep(f);
                            }
                            l.body.$deep(f);
                        }
                    }
                }
            }
        }
    };
}
traversal!(for_each_operand, for_each_own_read, for_each_read, value_ref, iter, &);
traversal!(for_each_operand_mut, for_each_own_read_mut, for_each_read_mut, value_mut, iter_mut, &mut);

impl Op {
    /// An assertion (`assert!(..)`): primal code whose value is `()`,
    /// which the forward sweep runs as a statement and nothing else runs.
    pub fn is_effect(&self) -> bool {
        matches!(
            self,
            Op::Primal {
                expr: syn::Expr::Macro(_),
                ..
            }
        )
    }

    /// Every value the operation reads in the primal sweep.
    pub fn reads(&self) -> Vec<ValueId> {
        let mut out = Vec::new();
        self.for_each_operand(&mut |v| out.push(*v));
        out
    }
}

impl Block {
    /// Whether the block or a block nested in it holds an assertion.
    pub fn has_effects(&self) -> bool {
        self.stmts.iter().any(|s| match s {
            Stmt::Let { op, .. } => op.is_effect(),
            s => s.blocks().iter().any(|b| b.has_effects()),
        })
    }
}

/// Calls `f` on each argument of a macro whose arguments are expressions
/// (an assertion, `vec![a, b]`; on the value of a named one, `x = value`),
/// or on both halves of `vec![elem; len]`, and writes the arguments back.
pub fn visit_macro_args(mac: &mut syn::Macro, f: &mut dyn FnMut(&mut syn::Expr)) {
    use syn::punctuated::Punctuated;
    if let Ok(mut args) =
        mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
    {
        for a in args.iter_mut() {
            match a {
                syn::Expr::Assign(a) => f(&mut a.right),
                a => f(a),
            }
        }
        mac.tokens = quote::quote!(#args);
        return;
    }
    let fill =
        |input: syn::parse::ParseStream| -> syn::Result<(syn::Expr, syn::Token![;], syn::Expr)> {
            Ok((input.parse()?, input.parse()?, input.parse()?))
        };
    if let Ok((mut elem, semi, mut len)) = mac.parse_body_with(fill) {
        f(&mut elem);
        f(&mut len);
        mac.tokens = quote::quote!(#elem #semi #len);
    }
}

impl Stmt {
    /// The blocks nested in the statement: a branch's arms, a loop's
    /// condition block and body.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Stmt::Let { .. } => Vec::new(),
            Stmt::If(i) => vec![&i.then_blk, &i.else_blk],
            Stmt::Loop(l) => match &l.header {
                LoopHeader::While { cond_blk, .. } => vec![cond_blk, &l.body],
                LoopHeader::Range { .. } => vec![&l.body],
            },
        }
    }

    /// Every value the statement reads anywhere inside it.
    pub fn for_each_deep_read(&self, f: &mut impl FnMut(&ValueId)) {
        self.for_each_own_read(f);
        for b in self.blocks() {
            b.for_each_read(f);
        }
    }
}

/// A walk over a block, its statements and the blocks nested in them, in
/// order; each visit does its own work and goes on with the default walk
/// (`walk_block`, `walk_stmt`) where it wants to descend.
pub trait Visitor<'a> {
    fn visit_block(&mut self, b: &'a Block) {
        walk_block(self, b);
    }

    /// A statement of block `b`.
    fn visit_stmt(&mut self, b: &'a Block, stmt: &'a Stmt) {
        let _ = b;
        walk_stmt(self, stmt);
    }
}

/// Visits each statement of `b`.
pub fn walk_block<'a, V: Visitor<'a> + ?Sized>(v: &mut V, b: &'a Block) {
    for stmt in &b.stmts {
        v.visit_stmt(b, stmt);
    }
}

/// Visits each block nested in `stmt`.
pub fn walk_stmt<'a, V: Visitor<'a> + ?Sized>(v: &mut V, stmt: &'a Stmt) {
    for b in stmt.blocks() {
        v.visit_block(b);
    }
}

/// A statement of a block.
#[derive(Clone)]
pub enum Stmt {
    Let {
        dst: ValueId,
        op: Op,
        /// The user's tokens this operation came from.
        span: Span,
        /// A type annotation the user wrote on the `let`.
        ty: Option<Box<syn::Type>>,
    },
    If(If),
    Loop(Loop),
}

/// `if cond { .. } else { .. }` with its φ-nodes.
#[derive(Clone)]
pub struct If {
    pub cond: Operand,
    pub then_blk: Block,
    pub else_blk: Block,
    pub phis: Vec<Phi>,
    /// A branch decided at compile time: `#[cfg(predicate)] stmt`, whose
    /// arms are emitted under `#[cfg(predicate)]` and
    /// `#[cfg(not(predicate))]` rather than as an `if`.
    pub cfg: Option<TokenStream>,
}

/// `dst = then_src` if the branch was taken, else `else_src`.
#[derive(Clone)]
pub struct Phi {
    pub dst: ValueId,
    pub then_src: ValueId,
    pub else_src: ValueId,
}

/// A loop with its loop-carried variables.
#[derive(Clone)]
pub struct Loop {
    pub id: LoopId,
    pub header: LoopHeader,
    pub body: Block,
    pub carried: Vec<Carried>,
    /// `#[checkpoint]`: the reverse sweep re-runs the loop from snapshots.
    pub checkpoint: Option<Checkpoint>,
}

/// A checkpointed loop's attribute (read by `crate::checkpoint`).
#[derive(Clone)]
pub struct Checkpoint {
    /// The most snapshots the forward sweep keeps, as an expression of type
    /// `usize` checked at compile time to be at least 1; `None`: the
    /// default schedule.
    pub snapshots: Option<TokenStream>,
}

/// What drives a loop.
#[derive(Clone)]
pub enum LoopHeader {
    /// `for index in start..end` (`..=` if inclusive; `.rev()` if reversed).
    Range {
        index: Option<ValueId>,
        start: Operand,
        end: Operand,
        inclusive: bool,
        reversed: bool,
    },
    /// `while cond { .. }`; `cond_blk` computes `cond` from the iteration's
    /// entry values.
    While { cond_blk: Block, cond: Operand },
}

/// A variable assigned in a loop body.
#[derive(Clone)]
pub struct Carried {
    /// The user's variable name, for readable generated names.
    pub name: String,
    /// Its value before the loop.
    pub init: ValueId,
    /// Its value at the start of an iteration (defined by the loop).
    pub entry: ValueId,
    /// Its value at the end of an iteration.
    pub exit: ValueId,
    /// Its value after the loop (defined by the loop in the outer block).
    pub after: ValueId,
}

/// A sequence of statements.
#[derive(Clone)]
pub struct Block {
    pub id: BlockId,
    pub stmts: Vec<Stmt>,
}

/// The hidden function by which a differentiable body calls a function of
/// one in-out argument (`step(&mut y, dt);` is lowered as
/// `y = step::__inout_call(y, dt);`): the argument's value in, its final
/// value out. Its hidden items sit next to it, as a struct call's do.
pub const INOUT_CALL: &str = "__inout_call";

/// The hidden function by which a differentiable body reads the result of
/// such a call (`let r = f(&mut y, x);` is lowered as
/// `let r = f::__inout_result(y, x); y = f::__inout_call(y, x);`): the
/// argument's value in, the result out.
pub const INOUT_RESULT: &str = "__inout_result";

/// The hidden function returning the final value of the in-out argument
/// `j` (counted among the in-out arguments) of a call passing `count` of
/// them: [`INOUT_CALL`] for the first, `__inout_call_1`, `__inout_call_2`,
/// .. for the others (`step(&mut q, &mut p, dt);` is lowered as
/// `q = step::__inout_call(q, p, dt); p = step::__inout_call_1(q₀, p₀, dt);`,
/// both on the values before the call).
pub fn inout_call(j: usize) -> String {
    match j {
        0 => INOUT_CALL.to_owned(),
        _ => format!("{INOUT_CALL}_{j}"),
    }
}

/// The hidden function by which a differentiable body calls a function
/// taking a `Tangent` struct (`g::__struct_call`), next to which its
/// [`INOUT_CALL`] items sit.
pub const STRUCT_CALL: &str = "__struct_call";

/// Whether `ident` names a struct call: a free function's
/// (`g::__struct_call`) or, an associated item of its type, a function of
/// an `impl` block's (`Model::__autograd_g__struct_call`, see
/// [`method_struct_call`]).
pub fn is_struct_call(ident: &syn::Ident) -> bool {
    ident == STRUCT_CALL || method_of_struct_call(ident).is_some()
}

/// The struct call of the function `func` of an `impl` block, an
/// associated item of its type: `__autograd_{func}__struct_call`.
pub fn method_struct_call(func: &str) -> String {
    format!("__autograd_{func}{STRUCT_CALL}")
}

/// The function whose struct call `ident` is, if an `impl` block's.
pub fn method_of_struct_call(ident: &syn::Ident) -> Option<String> {
    let s = ident.to_string();
    let func = s.strip_prefix("__autograd_")?.strip_suffix(STRUCT_CALL)?;
    (!func.is_empty()).then(|| func.to_string())
}

/// The `ID` of `MethodForwardMode<ID>` by which a caller's forward sweep
/// finds the JVP of the struct call of the function `func` of an `impl`
/// block: FNV-1a of its name, the same in the callee's expansion and in
/// every caller's.
pub fn method_id(func: &str) -> u64 {
    func.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `func::item`, the hidden item `item` ([`INOUT_CALL`], ..) of the
/// function `func` a body calls; of a struct call `g::__struct_call`, the
/// item next to it, `g::__struct_call__inout_call`.
pub fn inout_item(func: &syn::Path, item: &str) -> syn::Path {
    let mut func = func.clone();
    let Some(last) = func.segments.last_mut() else {
        return func;
    };
    last.arguments = syn::PathArguments::None;
    if is_struct_call(&last.ident) {
        last.ident = syn::Ident::new(&format!("{}{item}", last.ident), last.ident.span());
        return func;
    }
    func.segments.push(syn::PathSegment {
        ident: syn::Ident::new(item, proc_macro2::Span::call_site()),
        arguments: syn::PathArguments::None,
    });
    func
}

/// Whether `ident` names a hidden function by which a differentiable body
/// calls a function of in-out arguments ([`INOUT_CALL`], [`inout_call`],
/// [`INOUT_RESULT`]).
pub fn is_inout_item(ident: &proc_macro2::Ident) -> bool {
    let s = ident.to_string();
    // A function taking a `Tangent` struct has them next to its struct
    // call (`__struct_call__inout_call`, a function of an `impl` block's
    // `__autograd_g__struct_call__inout_call`), see [`inout_item`].
    let s = match s.strip_prefix(STRUCT_CALL) {
        Some(rest) => rest,
        None if s.starts_with("__autograd_") => match s.rfind(STRUCT_CALL) {
            Some(at) => &s[at + STRUCT_CALL.len()..],
            None => &s,
        },
        None => &s,
    };
    s == INOUT_RESULT
        || s.strip_prefix(INOUT_CALL).is_some_and(|rest| {
            rest.is_empty()
                || rest
                    .strip_prefix('_')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// A lowered function.
#[derive(Clone)]
pub struct Function {
    pub values: ValueMap<ValueInfo>,
    pub params: Vec<ValueId>,
    pub body: Block,
    pub ret: Operand,
    /// The final values of the in-out (`&mut`) arguments, in argument
    /// order: outputs beside `ret`, each seeded by its own adjoint.
    pub outs: Vec<ValueId>,
    /// Variables of the enclosing function that the body of a `map`
    /// closure reads (see `Op::Map`), as the closure names them.
    pub captures: Vec<syn::Ident>,
    /// `const`, `static` and `use` items declared in the body, which the
    /// generated code declares too.
    pub items: Vec<syn::Item>,
    /// Calls of functions that the source shows without
    /// `#[differentiable]` (see `crate::unannotated`): an error where the
    /// call has a derivative to take, a plain call where it has none.
    /// Each with the `#[cfg]` predicates of the branches decided at compile
    /// time around it (empty: none), under which the error is emitted.
    pub unannotated_calls: Vec<UnannotatedCall>,
    /// The pullback runs once per output (`NAME_jacobian`), so it must be
    /// `Clone`: it holds a callee's pullback only where that is `Clone`
    /// (see `analysis::kept_call`); other calls are made in the reverse
    /// sweep (see `analysis::deferred_call`).
    pub reusable_pullback: bool,
}

/// A call of a function the source shows without `#[differentiable]`:
/// where the call has a derivative to take, the analysis reports it in
/// the words the lowering found for it.
#[derive(Clone)]
pub struct UnannotatedCall {
    /// The call's value.
    pub value: ValueId,
    /// The callee's path, the error's span.
    pub path: syn::Path,
    /// The callee as written (`m::f`): one error per callee.
    pub written: String,
    pub message: String,
    /// The `#[cfg]` predicates of the branches decided at compile time
    /// around the call (empty: none), under which the error is emitted.
    pub cfgs: Vec<TokenStream>,
}

impl Function {
    pub fn info(&self, v: ValueId) -> &ValueInfo {
        &self.values[v]
    }

    /// Every output: the returned value, then the in-out arguments'
    /// final values.
    pub fn outputs(&self) -> impl Iterator<Item = ValueId> + '_ {
        self.ret
            .value()
            .into_iter()
            .chain(self.outs.iter().copied())
    }
}

// ---- the text form, for tests and debugging ----

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Value(v) => write!(f, "{v}"),
            Operand::Const(t) => write!(f, "{{{t}}}"),
        }
    }
}

fn join<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Copy(a) => write!(f, "copy {a}"),
            Op::Rule { rule, args, .. } => write!(f, "{} {}", rule.name, join(args)),
            Op::Index { slice, index } => write!(f, "index {slice}, {index}"),
            Op::Len { slice } => write!(f, "len {slice}"),
            Op::Pack { elems, collection } => write!(f, "pack {collection:?} {}", join(elems)),
            Op::Fill {
                elem,
                len,
                collection,
            } => write!(f, "fill {collection:?} {elem}; {len}"),
            Op::Store { array, index, elem } => write!(f, "store {array}[{index}] = {elem}"),
            Op::Push { array, elem } => write!(f, "push {array}, {elem}"),
            // The closure follows, written by `Block::write`.
            Op::Map {
                recv,
                forward,
                captures,
                inputs,
                ..
            } => {
                write!(f, "map {recv} {{{forward}}}")?;
                captures
                    .iter()
                    .try_for_each(|(name, v)| write!(f, ", {name} = {v}"))?;
                inputs
                    .iter()
                    .try_for_each(|(name, v)| write!(f, ", in {name} = {v}"))
            }
            Op::Call { func, args } => {
                let func = quote::quote!(#func).to_string().replace(' ', "");
                let args = args.iter().map(|a| {
                    let range = match &a.range {
                        Some(r) => format!("[{}..{}]", r.start, r.end),
                        None => String::new(),
                    };
                    format!("{}{}{range}", if a.by_ref { "&" } else { "" }, a.operand)
                });
                write!(f, "call {func}({})", join(args))
            }
            Op::StopGradient { arg, .. } => write!(f, "stop_gradient {arg}"),
            Op::Cast { arg, ty, .. } => write!(f, "cast {arg} as {}", quote::quote!(#ty)),
            Op::Primal { expr, bindings } => {
                write!(f, "primal {{{}}}", quote::quote!(#expr))?;
                bindings
                    .iter()
                    .try_for_each(|(name, v)| write!(f, ", {name} = {v}"))
            }
            Op::Literal { lit, like } => write!(f, "literal {{{lit}}} like {like}"),
            Op::Absent => write!(f, "absent"),
            Op::Missing => write!(f, "missing"),
        }
    }
}

/// A value as its definition names it: `v3 s: Float`, the user's name
/// where it has one.
fn value_decl(values: &ValueMap<ValueInfo>, v: ValueId) -> String {
    let info = &values[v];
    let name = info
        .name
        .as_deref()
        .map_or(String::new(), |n| format!(" {n}"));
    format!("{v}{name}: {:?}", info.kind)
}

impl Block {
    fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        values: &ValueMap<ValueInfo>,
        depth: usize,
    ) -> fmt::Result {
        let pad = "    ".repeat(depth);
        for stmt in &self.stmts {
            match stmt {
                Stmt::Let { dst, op, ty, .. } => {
                    let ty = ty
                        .as_ref()
                        .map_or(String::new(), |t| format!(" (as `{}`)", quote::quote!(#t)));
                    write!(f, "{pad}{}{ty} = {op}", value_decl(values, *dst))?;
                    if let Op::Map { closure, .. } = op {
                        write!(f, " ")?;
                        closure.write(f, depth)?;
                    }
                    writeln!(f)?;
                }
                Stmt::If(i) => {
                    match &i.cfg {
                        Some(p) => writeln!(f, "{pad}if cfg({p}) {{")?,
                        None => writeln!(f, "{pad}if {} {{", i.cond)?,
                    }
                    i.then_blk.write(f, values, depth + 1)?;
                    writeln!(f, "{pad}}} else {{")?;
                    i.else_blk.write(f, values, depth + 1)?;
                    writeln!(f, "{pad}}}")?;
                    for p in &i.phis {
                        let dst = value_decl(values, p.dst);
                        writeln!(f, "{pad}{dst} = phi {}, {}", p.then_src, p.else_src)?;
                    }
                }
                Stmt::Loop(l) => {
                    if let Some(c) = &l.checkpoint {
                        match &c.snapshots {
                            Some(n) => writeln!(f, "{pad}#[checkpoint(snapshots = {n})]")?,
                            None => writeln!(f, "{pad}#[checkpoint]")?,
                        }
                    }
                    match &l.header {
                        LoopHeader::Range {
                            index,
                            start,
                            end,
                            inclusive,
                            reversed,
                        } => {
                            let index = index.map_or("_".to_string(), |v| value_decl(values, v));
                            let dots = if *inclusive { "..=" } else { ".." };
                            let rev = if *reversed { " rev" } else { "" };
                            writeln!(
                                f,
                                "{pad}loop {} for {index} in {start}{dots}{end}{rev} {{",
                                l.id
                            )?;
                        }
                        LoopHeader::While { cond_blk, cond } => {
                            writeln!(f, "{pad}loop {} while {{", l.id)?;
                            cond_blk.write(f, values, depth + 1)?;
                            writeln!(f, "{pad}    => {cond}")?;
                            writeln!(f, "{pad}}} {{")?;
                        }
                    }
                    for c in &l.carried {
                        let entry = value_decl(values, c.entry);
                        writeln!(f, "{pad}    {entry} = entry {}, {}", c.init, c.exit)?;
                    }
                    l.body.write(f, values, depth + 1)?;
                    writeln!(f, "{pad}}}")?;
                    for c in &l.carried {
                        let after = value_decl(values, c.after);
                        writeln!(f, "{pad}{after} = after {}", c.entry)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl Function {
    /// The text form, its first line where the writer is and the rest
    /// indented `depth` steps: a `map` closure's function is written in
    /// the statement of its `map`.
    fn write(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        let pad = "    ".repeat(depth);
        let params = self.params.iter().map(|p| value_decl(&self.values, *p));
        let pullback = if self.reusable_pullback {
            " (reusable pullback)"
        } else {
            ""
        };
        writeln!(f, "fn({}){pullback} {{", join(params))?;
        for c in &self.captures {
            writeln!(f, "{pad}    capture {c}")?;
        }
        for item in &self.items {
            writeln!(f, "{pad}    item {{{}}}", quote::quote!(#item))?;
        }
        for call in &self.unannotated_calls {
            write!(f, "{pad}    unannotated {} {}", call.value, call.written)?;
            call.cfgs.iter().try_for_each(|c| write!(f, " cfg({c})"))?;
            writeln!(f)?;
        }
        self.body.write(f, &self.values, depth + 1)?;
        writeln!(f, "{pad}    return {}", self.ret)?;
        write!(f, "{pad}}}")
    }
}

/// The text form: one line per statement, blocks indented, each value
/// defined with the user's name and its kind; what is not a statement
/// (items of the body, unannotated calls, captures) before the body; a
/// `map` closure's function in its statement.
impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

/// Each function lowered on this thread while a test listens, in its text
/// form (see `ir_snapshot_tests`): the user's, and those the macro derives
/// by lowering again (a struct function's flat copy, the second-order
/// twin).
#[cfg(test)]
pub fn listen(run: impl FnOnce()) -> Vec<String> {
    LOWERED.with(|l| *l.borrow_mut() = Some(Vec::new()));
    run();
    LOWERED.with(|l| l.borrow_mut().take().unwrap_or_default())
}

#[cfg(test)]
thread_local! {
    static LOWERED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Called by lowering with each function it made.
#[cfg(test)]
pub fn lowered(f: &Function) {
    LOWERED.with(|l| {
        if let Some(l) = l.borrow_mut().as_mut() {
            l.push(f.to_string());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(src: &str) -> Function {
        let item: syn::ItemFn = syn::parse_str(src).expect("test input parses");
        let cx = crate::ctxt::Ctxt::default();
        let sig = crate::sig::parse(&cx, &item.sig, false).expect("signature reads");
        let f = crate::lower::lower(&cx, &sig, &item.sig, &item.block);
        assert!(cx.check().is_ok());
        f
    }

    #[test]
    fn the_walk_visits_every_read_once_per_occurrence() {
        let f = lowered(
            "fn f(x: f64, n: usize) -> f64 {
                let mut s = x;
                for _ in 0..n { if s > 1.0 { s = s * s; } }
                s
            }",
        );
        let text = f.to_string();
        let mut reads = Vec::new();
        f.body.for_each_read(&mut |v| reads.push(v.to_string()));
        reads.sort();
        // `n` in the bound; `s` at entry in the comparison, twice in the
        // product and as the φ's else source; the comparison as the
        // branch's condition; the product as the φ's then source; `x` as
        // the carried initial value, the φ as its exit.
        let mut expected = vec!["v1", "v2", "v2", "v2", "v2", "v3", "v4", "v0", "v5"];
        expected.sort();
        assert_eq!(reads, expected, "{text}");

        let mut renamed = f.clone();
        renamed.body.for_each_read_mut(&mut |v| *v = f.params[0]);
        let mut after = Vec::new();
        renamed.body.for_each_read(&mut |v| after.push(*v));
        assert!(after.len() == reads.len() && after.iter().all(|v| *v == f.params[0]));
    }
}
