//! The generator's small AST of `#[differentiable]` bodies, and its two
//! printers: the Rust source the macro compiles, and the mirror (the same
//! computation in SSA form over `fuzz_programs::Mirror`).

use std::fmt::Write as _;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fl {
    F64,
    F32,
}

impl Fl {
    pub fn ty(self) -> &'static str {
        match self {
            Fl::F64 => "f64",
            Fl::F32 => "f32",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Un {
    Neg,
    Exp,
    Ln,
    Sqrt,
    Sin,
    Cos,
    Tanh,
    Abs,
    Relu,
    Sigmoid,
    Exp2,
    ExpM1,
    Ln1p,
    Log2,
    Log10,
    Cbrt,
    Recip,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Signum,
    Floor,
    Ceil,
    Round,
    Trunc,
    Fract,
}

impl Un {
    pub fn name(self) -> &'static str {
        match self {
            Un::Neg => "neg",
            Un::Exp => "exp",
            Un::Ln => "ln",
            Un::Sqrt => "sqrt",
            Un::Sin => "sin",
            Un::Cos => "cos",
            Un::Tanh => "tanh",
            Un::Abs => "abs",
            Un::Relu => "relu",
            Un::Sigmoid => "sigmoid",
            Un::Exp2 => "exp2",
            Un::ExpM1 => "exp_m1",
            Un::Ln1p => "ln_1p",
            Un::Log2 => "log2",
            Un::Log10 => "log10",
            Un::Cbrt => "cbrt",
            Un::Recip => "recip",
            Un::Tan => "tan",
            Un::Asin => "asin",
            Un::Acos => "acos",
            Un::Atan => "atan",
            Un::Sinh => "sinh",
            Un::Cosh => "cosh",
            Un::Asinh => "asinh",
            Un::Acosh => "acosh",
            Un::Atanh => "atanh",
            Un::Signum => "signum",
            Un::Floor => "floor",
            Un::Ceil => "ceil",
            Un::Round => "round",
            Un::Trunc => "trunc",
            Un::Fract => "fract",
        }
    }
    /// Whether `f64::NAME(x)` exists (relu and sigmoid are trait methods
    /// taking `&self`).
    pub fn has_path(self) -> bool {
        !matches!(self, Un::Neg | Un::Relu | Un::Sigmoid)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
}

impl Bin {
    fn token(self) -> &'static str {
        match self {
            Bin::Add => "+",
            Bin::Sub => "-",
            Bin::Mul => "*",
            Bin::Div => "/",
        }
    }
    fn prec(self) -> u8 {
        match self {
            Bin::Add | Bin::Sub => 4,
            Bin::Mul | Bin::Div => 5,
        }
    }
    fn mirror(self) -> &'static str {
        match self {
            Bin::Add => "add",
            Bin::Sub => "sub",
            Bin::Mul => "mul",
            Bin::Div => "div",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Cmp {
    fn token(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
    fn mirror(self) -> &'static str {
        match self {
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
            Cmp::Eq | Cmp::Ne => unreachable!("no float equality"),
        }
    }
}

/// A function of the float types taking more than one float: `a.NAME(b)`
/// or `f64::NAME(a, b)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Nary {
    /// `x.log(base)`.
    Log,
    /// `y.atan2(x)`.
    Atan2,
    Hypot,
    /// `x.clamp(lo, hi)`.
    Clamp,
    /// `a.mul_add(b, c)`.
    MulAdd,
}

impl Nary {
    pub fn name(self) -> &'static str {
        match self {
            Nary::Log => "log",
            Nary::Atan2 => "atan2",
            Nary::Hypot => "hypot",
            Nary::Clamp => "clamp",
            Nary::MulAdd => "mul_add",
        }
    }
}

/// How a program names `autograd::stop_gradient`: the import shapes users
/// write (the test module has `use autograd::stop_gradient;` and
/// `use autograd as ag;`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopPath {
    Imported,
    Qualified,
    Absolute,
    Renamed,
}

impl StopPath {
    pub fn path(self) -> &'static str {
        match self {
            StopPath::Imported => "stop_gradient",
            StopPath::Qualified => "autograd::stop_gradient",
            StopPath::Absolute => "::autograd::stop_gradient",
            StopPath::Renamed => "ag::stop_gradient",
        }
    }
}

/// Method call `x.sin()` or path call `f64::sin(x)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Method,
    Path,
}

/// An integer expression (loop bounds, indices, counters).
#[derive(Clone, Debug)]
pub enum I {
    Lit(i64),
    Var(String),
    Len(String),
    Add(Box<I>, Box<I>),
    Sub(Box<I>, Box<I>),
    Rem(Box<I>, Box<I>),
}

/// A float expression.
#[derive(Clone, Debug)]
pub enum E {
    Var(String),
    Lit(f64),
    Idx(String, I),
    /// `xs.first()` (`false`) or `xs.last()` (`true`) unwrapped, in one of
    /// [`END_SPELLINGS`] (index modulo their number).
    End(String, bool, usize),
    Cast(I),
    Un(Un, Style, Box<E>),
    Bin(Bin, Box<E>, Box<E>),
    Powi(Style, Box<E>, i32),
    Powf(Style, Box<E>, Box<E>),
    /// `true` for max.
    MaxMin(bool, Style, Box<E>, Box<E>),
    Stop(StopPath, Box<E>),
    /// The first operand is the receiver.
    Nary(Nary, Style, Vec<E>),
    If(Box<C>, Box<Blk>, Box<Blk>),
    /// `match` on an integer: each arm's pattern as written (the last one
    /// `_`) and its block.
    Match(I, Vec<(String, Blk)>),
    Call(String, Vec<Arg>),
    Sum(Box<M>),
    MaxEl(Box<M>),
    /// A `const` or `static` item (or a `std::f64::consts` path) as
    /// written, indexed when it is an array: no adjoint.
    Konst(String, Option<I>),
    /// `m.determinant()` of a square matrix.
    Det(Box<M>),
}

/// A block with a value: statements then a tail.
#[derive(Clone, Debug)]
pub struct Blk {
    pub stmts: Vec<S>,
    pub tail: E,
}

#[derive(Clone, Debug)]
pub enum Arg {
    F(E),
    /// The caller's slice.
    Slice(String),
    /// A matrix variable: name, whether the variable is a reference
    /// parameter, whether the callee takes the matrix by value.
    Mat(String, bool, bool),
    Const(f64),
    Int(i64),
}

/// A condition.
#[derive(Clone, Debug)]
pub enum C {
    F(Cmp, E, E),
    I(Cmp, I, I),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
    Not(Box<C>),
}

/// A matrix expression.
#[derive(Clone, Debug)]
pub enum M {
    /// Name and whether it is an owned value (a local or a by-value
    /// parameter) rather than a reference parameter.
    Var(String, bool),
    MatMul(Box<M>, Box<M>),
    Add(Box<M>, Box<M>),
    Sub(Box<M>, Box<M>),
    CMul(Box<M>, Box<M>),
    CDiv(Box<M>, Box<M>),
    T(Box<M>),
    ScaleL(E, Box<M>),
    ScaleR(Box<M>, E),
    DivS(Box<M>, E),
    /// Receiver, mirror helper name, closure body over `t`.
    MapClos(Box<M>, String, E),
    MapPath(Box<M>, Un),
    Relu(Box<M>),
    Sigmoid(Box<M>),
    Neg(Box<M>),
    /// A call to a generated function returning a matrix.
    Call(String, Vec<Arg>),
    /// Built from its elements (rows, columns, how, the elements row by
    /// row).
    FromElems(usize, usize, Build, Vec<E>),
}

/// How a matrix is built from its elements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Build {
    /// `DVector::from_vec(vec![..])`.
    Vector,
    /// `DMatrix::from_row_slice(r, c, &[..])`.
    Rows,
    /// `DMatrix::from_column_slice(r, c, &[..])`, the elements reordered.
    Columns,
}

#[derive(Clone, Debug)]
pub enum S {
    Let {
        name: String,
        mutable: bool,
        typed: bool,
        init: E,
    },
    LetM {
        name: String,
        mutable: bool,
        init: M,
    },
    LetI(String),
    /// `let (s, c) = x.sin_cos();` (a `None` name is `_`).
    SinCos {
        sin: Option<String>,
        cos: Option<String>,
        style: Style,
        arg: E,
    },
    Assign(String, E),
    Compound(String, Bin, E),
    AssignM(String, M),
    IncI(String),
    If(C, Vec<S>, Option<Vec<S>>),
    For {
        var: Option<String>,
        lo: I,
        hi: I,
        incl: bool,
        rev: bool,
        body: Vec<S>,
    },
    While(C, Vec<S>),
    /// `loop { .. }` (its exit a `break` in the body).
    Loop(Vec<S>),
    /// A statement under `#[cfg(not(any()))]` (compiled in, `true`) or
    /// `#[cfg(any())]` (compiled out, `false`).
    Cfg(bool, Box<S>),
    /// A statement under the attribute written (`#[cfg(..)]` or
    /// `#[cfg_attr(..)]`), compiled in or not (the generator's classes:
    /// every predicate spelling, every statement kind).
    Attr(String, bool, Box<S>),
    /// A block statement `{ .. }`.
    Block(Vec<S>),
    /// A `match` statement on an integer, each arm a pattern and a block.
    Match(I, Vec<(String, Vec<S>)>),
    /// `if let Some(_) = Some(1usize) { .. }`: a pattern test that holds.
    IfLet(Vec<S>),
    Break,
    Continue,
    /// An early `return` of a float.
    Return(E),
    /// `let name = if cond { value } else { exit };` (with `exit_first`,
    /// `if cond { exit } else { value }`): a `let` whose `if` leaves the
    /// loop or the function in one arm; `exit` is `Break`, `Continue` or
    /// `Return`.
    LetExit {
        name: String,
        typed: bool,
        cond: C,
        exit_first: bool,
        value: E,
        exit: Box<S>,
    },
}

/// The spellings of `xs.first()` and `xs.last()` the macro takes (`{}` is
/// `first` or `last`).
pub const END_SPELLINGS: [&str; 4] = [
    "(*{s}.{}().unwrap())",
    "{s}.{}().copied().unwrap()",
    "(*{s}.{}().expect(\"not empty\"))",
    "{s}.{}().copied().expect(\"not empty\")",
];

/// Whether a float expression has an ambiguous numeric type (literals
/// only): it may not receive a method call, and a `let` of it is typed.
pub fn ambiguous(e: &E) -> bool {
    match e {
        E::Lit(_) => true,
        E::Un(_, Style::Method, x) | E::Stop(_, x) => ambiguous(x),
        E::Bin(_, a, b) => ambiguous(a) && ambiguous(b),
        E::Powi(Style::Method, a, _)
        | E::Powf(Style::Method, a, _)
        | E::MaxMin(_, Style::Method, a, _) => ambiguous(a),
        E::Nary(_, Style::Method, xs) => ambiguous(&xs[0]),
        E::If(_, t, f) => ambiguous(&t.tail) && ambiguous(&f.tail),
        E::Match(_, arms) => arms.iter().all(|(_, b)| ambiguous(&b.tail)),
        _ => false,
    }
}

/// Whether `e` reads the variable `name`.
pub fn mentions(e: &E, name: &str) -> bool {
    match e {
        E::Var(n) => n == name,
        E::Lit(_) | E::Idx(..) | E::End(..) | E::Cast(_) | E::Konst(..) => false,
        E::Un(_, _, x) | E::Stop(_, x) | E::Powi(_, x, _) => mentions(x, name),
        E::Bin(_, a, b) | E::Powf(_, a, b) | E::MaxMin(_, _, a, b) => {
            mentions(a, name) || mentions(b, name)
        }
        E::Nary(_, _, xs) => xs.iter().any(|x| mentions(x, name)),
        // Only used for closure bodies, which hold none of these.
        E::If(..) | E::Match(..) | E::Call(..) | E::Sum(_) | E::MaxEl(_) | E::Det(_) => true,
    }
}

pub fn lit(v: f64) -> String {
    format!("{v:?}")
}

// ---------------------------------------------------------------------------
// The source printer.

/// `#[checkpoint]` on a third of the loops and `#[checkpoint(snapshots =
/// 2)]` on another, picked by the printed body (the generator's random
/// sequence, and so every program, stays as it was): the gradient must not
/// change.
fn checkpoint(body: &str, pad: &str) -> String {
    match body.len() % 3 {
        0 => String::new(),
        1 => format!("{pad}#[checkpoint]\n"),
        _ => format!("{pad}#[checkpoint(snapshots = 2)]\n"),
    }
}

pub struct Src {
    pub fl: Fl,
}

fn paren((s, p): (String, u8), min: u8) -> String {
    if p >= min { s } else { format!("({s})") }
}

fn pad(ind: usize) -> String {
    "    ".repeat(ind)
}

impl Src {
    pub fn i(&self, i: &I) -> (String, u8) {
        match i {
            I::Lit(v) => (v.to_string(), 9),
            I::Var(n) => (n.clone(), 9),
            I::Len(s) => (format!("{s}.len()"), 8),
            I::Add(a, b) | I::Sub(a, b) => {
                let op = if matches!(i, I::Add(..)) { "+" } else { "-" };
                (
                    format!("{} {op} {}", paren(self.i(a), 4), paren(self.i(b), 5)),
                    4,
                )
            }
            I::Rem(a, b) => (
                format!("{} % {}", paren(self.i(a), 5), paren(self.i(b), 6)),
                5,
            ),
        }
    }

    pub fn e(&self, e: &E, ind: usize) -> (String, u8) {
        let ty = self.fl.ty();
        match e {
            E::Var(n) => (n.clone(), 9),
            E::Lit(v) if *v < 0.0 => (format!("-{}", lit(-v)), 7),
            E::Lit(v) => (lit(*v), 9),
            E::Idx(s, i) => (format!("{s}[{}]", self.i(i).0), 8),
            E::End(s, last, k) => {
                let which = if *last { "last" } else { "first" };
                let text = END_SPELLINGS[k % END_SPELLINGS.len()]
                    .replace("{s}", s)
                    .replace("{}", which);
                (text, 8)
            }
            E::Cast(i) => (format!("({} as {ty})", paren(self.i(i), 7)), 9),
            E::Un(Un::Neg, _, x) => {
                let inner = paren(self.e(x, ind), 7);
                if inner.starts_with('-') {
                    (format!("-({inner})"), 7)
                } else {
                    (format!("-{inner}"), 7)
                }
            }
            E::Un(op, Style::Method, x) => {
                (format!("{}.{}()", paren(self.e(x, ind), 8), op.name()), 8)
            }
            E::Un(op, Style::Path, x) => (format!("{ty}::{}({})", op.name(), self.e(x, ind).0), 8),
            E::Bin(op, a, b) => {
                let p = op.prec();
                (
                    format!(
                        "{} {} {}",
                        paren(self.e(a, ind), p),
                        op.token(),
                        paren(self.e(b, ind), p + 1)
                    ),
                    p,
                )
            }
            E::Powi(Style::Method, x, n) => (format!("{}.powi({n})", paren(self.e(x, ind), 8)), 8),
            E::Powi(Style::Path, x, n) => (format!("{ty}::powi({}, {n})", self.e(x, ind).0), 8),
            E::Powf(Style::Method, a, b) => (
                format!("{}.powf({})", paren(self.e(a, ind), 8), self.e(b, ind).0),
                8,
            ),
            E::Powf(Style::Path, a, b) => (
                format!("{ty}::powf({}, {})", self.e(a, ind).0, self.e(b, ind).0),
                8,
            ),
            E::MaxMin(max, style, a, b) => {
                let m = if *max { "max" } else { "min" };
                match style {
                    Style::Method => (
                        format!("{}.{m}({})", paren(self.e(a, ind), 8), self.e(b, ind).0),
                        8,
                    ),
                    Style::Path => (
                        format!("{ty}::{m}({}, {})", self.e(a, ind).0, self.e(b, ind).0),
                        8,
                    ),
                }
            }
            E::Stop(path, x) => (format!("{}({})", path.path(), self.e(x, ind).0), 8),
            E::Nary(f, Style::Method, xs) => {
                let rest: Vec<String> = xs[1..].iter().map(|x| self.e(x, ind).0).collect();
                (
                    format!(
                        "{}.{}({})",
                        paren(self.e(&xs[0], ind), 8),
                        f.name(),
                        rest.join(", ")
                    ),
                    8,
                )
            }
            E::Nary(f, Style::Path, xs) => {
                let all: Vec<String> = xs.iter().map(|x| self.e(x, ind).0).collect();
                (format!("{ty}::{}({})", f.name(), all.join(", ")), 8)
            }
            E::If(c, t, f) => (self.if_expr(c, t, f, ind), 0),
            E::Match(scrutinee, arms) => {
                let mut s = format!("match {} {{\n", self.i(scrutinee).0);
                for (pat, b) in arms {
                    let _ = writeln!(s, "{}{pat} => {},", pad(ind + 1), self.blk(b, ind + 1));
                }
                let _ = write!(s, "{}}}", pad(ind));
                (s, 0)
            }
            E::Call(name, args) => (self.call(name, args, ind), 8),
            E::Sum(m) => (format!("{}.sum()", paren(self.m(m, false, ind), 8)), 8),
            E::MaxEl(m) => (format!("{}.max()", paren(self.m(m, false, ind), 8)), 8),
            E::Konst(name, None) => (name.clone(), 9),
            E::Konst(name, Some(i)) => (format!("{name}[{}]", self.i(i).0), 8),
            E::Det(m) => (
                format!("{}.determinant()", paren(self.m(m, false, ind), 8)),
                8,
            ),
        }
    }

    fn if_expr(&self, c: &C, t: &Blk, f: &Blk, ind: usize) -> String {
        let mut s = format!("if {} ", self.c(c, ind).0);
        s.push_str(&self.blk(t, ind));
        s.push_str(" else ");
        match (&f.stmts[..], &f.tail) {
            ([], E::If(c2, t2, f2)) => s.push_str(&self.if_expr(c2, t2, f2, ind)),
            _ => s.push_str(&self.blk(f, ind)),
        }
        s
    }

    fn blk(&self, b: &Blk, ind: usize) -> String {
        if b.stmts.is_empty() {
            let tail = self.e(&b.tail, ind + 1).0;
            if !tail.contains('\n') {
                return format!("{{ {tail} }}");
            }
        }
        let mut s = String::from("{\n");
        for st in &b.stmts {
            self.s(st, ind + 1, &mut s);
        }
        let _ = writeln!(s, "{}{}", pad(ind + 1), self.e(&b.tail, ind + 1).0);
        let _ = write!(s, "{}}}", pad(ind));
        s
    }

    fn call(&self, name: &str, args: &[Arg], ind: usize) -> String {
        let args: Vec<String> = args.iter().map(|a| self.arg(a, ind)).collect();
        format!("{name}({})", args.join(", "))
    }

    fn arg(&self, a: &Arg, ind: usize) -> String {
        match a {
            Arg::F(e) => self.e(e, ind).0,
            Arg::Slice(s) => s.clone(),
            Arg::Mat(n, is_ref, by_value) => match (is_ref, by_value) {
                (_, true) => format!("{n}.clone()"),
                (true, false) => n.clone(),
                (false, false) => format!("&{n}"),
            },
            Arg::Const(v) => paren(self.e(&E::Lit(*v), ind), 0),
            Arg::Int(v) => v.to_string(),
        }
    }

    pub fn c(&self, c: &C, ind: usize) -> (String, u8) {
        match c {
            C::F(op, a, b) => (
                format!(
                    "{} {} {}",
                    paren(self.e(a, ind), 4),
                    op.token(),
                    paren(self.e(b, ind), 4)
                ),
                3,
            ),
            C::I(op, a, b) => (
                format!(
                    "{} {} {}",
                    paren(self.i(a), 4),
                    op.token(),
                    paren(self.i(b), 4)
                ),
                3,
            ),
            C::And(a, b) => (
                format!(
                    "{} && {}",
                    paren(self.c(a, ind), 2),
                    paren(self.c(b, ind), 3)
                ),
                2,
            ),
            C::Or(a, b) => (
                format!(
                    "{} || {}",
                    paren(self.c(a, ind), 1),
                    paren(self.c(b, ind), 2)
                ),
                1,
            ),
            C::Not(a) => (format!("!{}", paren(self.c(a, ind), 7)), 7),
        }
    }

    /// A matrix expression; `consumed` when the position takes it by value
    /// (an operand of `+ - *`), where an owned variable is cloned.
    pub fn m(&self, m: &M, consumed: bool, ind: usize) -> (String, u8) {
        match m {
            M::Var(n, owned) => {
                if consumed && *owned {
                    (format!("{n}.clone()"), 8)
                } else {
                    (n.clone(), 9)
                }
            }
            M::MatMul(a, b) => (
                format!(
                    "{} * {}",
                    paren(self.m(a, true, ind), 5),
                    paren(self.m(b, true, ind), 6)
                ),
                5,
            ),
            M::Add(a, b) | M::Sub(a, b) => {
                let op = if matches!(m, M::Add(..)) { "+" } else { "-" };
                (
                    format!(
                        "{} {op} {}",
                        paren(self.m(a, true, ind), 4),
                        paren(self.m(b, true, ind), 5)
                    ),
                    4,
                )
            }
            M::CMul(a, b) | M::CDiv(a, b) => {
                let name = if matches!(m, M::CMul(..)) {
                    "component_mul"
                } else {
                    "component_div"
                };
                let rhs = match &**b {
                    M::Var(n, false) => n.clone(),
                    M::Var(n, true) => format!("&{n}"),
                    other => format!("&{}", paren(self.m(other, true, ind), 7)),
                };
                (
                    format!("{}.{name}({rhs})", paren(self.m(a, false, ind), 8)),
                    8,
                )
            }
            M::T(a) => (
                format!("{}.transpose()", paren(self.m(a, false, ind), 8)),
                8,
            ),
            M::ScaleL(s, a) => (
                format!(
                    "{} * {}",
                    paren(self.e(s, ind), 5),
                    paren(self.m(a, true, ind), 6)
                ),
                5,
            ),
            M::ScaleR(a, s) | M::DivS(a, s) => {
                let op = if matches!(m, M::ScaleR(..)) { "*" } else { "/" };
                (
                    format!(
                        "{} {op} {}",
                        paren(self.m(a, true, ind), 5),
                        paren(self.e(s, ind), 6)
                    ),
                    5,
                )
            }
            M::MapClos(a, _, body) => (
                format!(
                    "{}.map(|t| {})",
                    paren(self.m(a, false, ind), 8),
                    self.e(body, ind).0
                ),
                8,
            ),
            M::MapPath(a, op) => (
                format!(
                    "{}.map(f64::{})",
                    paren(self.m(a, false, ind), 8),
                    op.name()
                ),
                8,
            ),
            M::Relu(a) => (format!("{}.relu()", paren(self.m(a, false, ind), 8)), 8),
            M::Sigmoid(a) => (format!("{}.sigmoid()", paren(self.m(a, false, ind), 8)), 8),
            M::Neg(a) => (format!("-{}", paren(self.m(a, true, ind), 7)), 7),
            M::Call(name, args) => (self.call(name, args, ind), 8),
            M::FromElems(r, c, build, elems) => {
                let elems: Vec<String> = elems.iter().map(|e| self.e(e, ind).0).collect();
                let text = match build {
                    Build::Vector => format!("DVector::from_vec(vec![{}])", elems.join(", ")),
                    Build::Columns => {
                        let columns: Vec<String> = (0..r * c)
                            .map(|k| elems[(k % r) * c + k / r].clone())
                            .collect();
                        format!(
                            "DMatrix::from_column_slice({r}, {c}, &[{}])",
                            columns.join(", ")
                        )
                    }
                    Build::Rows => {
                        format!("DMatrix::from_row_slice({r}, {c}, &[{}])", elems.join(", "))
                    }
                };
                (text, 8)
            }
        }
    }

    /// A matrix expression as an owned value (a reference parameter is
    /// cloned).
    pub fn owned_m(&self, m: &M, ind: usize) -> String {
        match m {
            M::Var(n, _) => format!("{n}.clone()"),
            m => self.m(m, true, ind).0,
        }
    }

    /// The statements of a block that has no tail (a loop body, a branch).
    pub fn stmts(&self, ss: &[S], ind: usize, out: &mut String) {
        for st in ss {
            self.s(st, ind, out);
        }
    }

    pub fn s(&self, s: &S, ind: usize, out: &mut String) {
        let p = pad(ind);
        let ty = self.fl.ty();
        match s {
            S::Let {
                name,
                mutable,
                typed,
                init,
            } => {
                let m = if *mutable { "mut " } else { "" };
                let t = if *typed {
                    format!(": {ty}")
                } else {
                    String::new()
                };
                let _ = writeln!(out, "{p}let {m}{name}{t} = {};", self.e(init, ind).0);
            }
            S::LetM {
                name,
                mutable,
                init,
            } => {
                let m = if *mutable { "mut " } else { "" };
                let _ = writeln!(out, "{p}let {m}{name} = {};", self.owned_m(init, ind));
            }
            S::LetI(name) => {
                let _ = writeln!(out, "{p}let mut {name} = 0;");
            }
            S::SinCos {
                sin,
                cos,
                style,
                arg,
            } => {
                let s = sin.as_deref().unwrap_or("_");
                let c = cos.as_deref().unwrap_or("_");
                let call = match style {
                    Style::Method => format!("{}.sin_cos()", paren(self.e(arg, ind), 8)),
                    Style::Path => format!("{ty}::sin_cos({})", self.e(arg, ind).0),
                };
                let _ = writeln!(out, "{p}let ({s}, {c}) = {call};");
            }
            S::Assign(name, e) => {
                let _ = writeln!(out, "{p}{name} = {};", self.e(e, ind).0);
            }
            S::Compound(name, op, e) => {
                let _ = writeln!(out, "{p}{name} {}= {};", op.token(), self.e(e, ind).0);
            }
            S::AssignM(name, m) => {
                let _ = writeln!(out, "{p}{name} = {};", self.owned_m(m, ind));
            }
            S::IncI(name) => {
                let _ = writeln!(out, "{p}{name} += 1;");
            }
            S::If(c, t, f) => {
                let _ = writeln!(out, "{p}if {} {{", self.c(c, ind).0);
                self.if_rest(t, f, ind, out);
            }
            S::For {
                var,
                lo,
                hi,
                incl,
                rev,
                body,
            } => {
                let v = var.as_deref().unwrap_or("_");
                let dots = if *incl { "..=" } else { ".." };
                let range = format!("{}{dots}{}", paren(self.i(lo), 5), paren(self.i(hi), 5));
                let range = if *rev {
                    format!("({range}).rev()")
                } else {
                    range
                };
                let mut inner = String::new();
                self.stmts(body, ind + 1, &mut inner);
                let _ = write!(out, "{}", checkpoint(&inner, &p));
                let _ = writeln!(out, "{p}for {v} in {range} {{");
                out.push_str(&inner);
                let _ = writeln!(out, "{p}}}");
            }
            S::While(c, body) => {
                let mut inner = String::new();
                self.stmts(body, ind + 1, &mut inner);
                let _ = write!(out, "{}", checkpoint(&inner, &p));
                let _ = writeln!(out, "{p}while {} {{", self.c(c, ind).0);
                out.push_str(&inner);
                let _ = writeln!(out, "{p}}}");
            }
            S::Loop(body) => {
                let mut inner = String::new();
                self.stmts(body, ind + 1, &mut inner);
                let _ = write!(out, "{}", checkpoint(&inner, &p));
                let _ = writeln!(out, "{p}loop {{");
                out.push_str(&inner);
                let _ = writeln!(out, "{p}}}");
            }
            S::Match(scrutinee, arms) => {
                let _ = writeln!(out, "{p}match {} {{", self.i(scrutinee).0);
                for (pat, body) in arms {
                    let _ = writeln!(out, "{p}    {pat} => {{");
                    self.stmts(body, ind + 2, out);
                    let _ = writeln!(out, "{p}    }}");
                }
                let _ = writeln!(out, "{p}}}");
            }
            S::IfLet(body) => {
                let _ = writeln!(out, "{p}if let Some(_) = Some(1usize) {{");
                self.stmts(body, ind + 1, out);
                let _ = writeln!(out, "{p}}}");
            }
            S::Cfg(on, s) => {
                let predicate = if *on { "not(any())" } else { "any()" };
                let _ = writeln!(out, "{p}#[cfg({predicate})]");
                // An attribute on an assignment statement is unstable Rust:
                // the assignment goes in a block.
                if matches!(
                    **s,
                    S::Assign(..)
                        | S::Compound(..)
                        | S::AssignM(..)
                        | S::IncI(_)
                        | S::Break
                        | S::Continue
                        | S::Return(_)
                ) {
                    let _ = writeln!(out, "{p}{{");
                    self.s(s, ind + 1, out);
                    let _ = writeln!(out, "{p}}}");
                } else {
                    self.s(s, ind, out);
                }
            }
            S::Attr(attr, _, s) => {
                let _ = writeln!(out, "{p}{attr}");
                let mut inner = String::new();
                self.s(s, ind, &mut inner);
                // One `#[checkpoint]` per loop: a `cfg_attr` adding one
                // takes the place of the loop's own (the macro reads it
                // wherever its predicate may hold, and two different
                // schedules are an error; finding 028).
                if attr.contains("checkpoint") && inner.starts_with(&format!("{p}#[checkpoint")) {
                    let own = inner.find('\n').map_or(inner.len(), |n| n + 1);
                    inner.drain(..own);
                }
                out.push_str(&inner);
            }
            S::Block(ss) => {
                let _ = writeln!(out, "{p}{{");
                self.stmts(ss, ind + 1, out);
                let _ = writeln!(out, "{p}}}");
            }
            S::Break => {
                let _ = writeln!(out, "{p}break;");
            }
            S::Continue => {
                let _ = writeln!(out, "{p}continue;");
            }
            S::Return(e) => {
                let _ = writeln!(out, "{p}return {};", self.e(e, ind).0);
            }
            S::LetExit {
                name,
                typed,
                cond,
                exit_first,
                value,
                exit,
            } => {
                let t = if *typed {
                    format!(": {ty}")
                } else {
                    String::new()
                };
                let exit = match &**exit {
                    S::Break => "break".to_owned(),
                    S::Continue => "continue".to_owned(),
                    S::Return(e) => format!("return {}", self.e(e, ind).0),
                    _ => unreachable!("an exit"),
                };
                let value = self.e(value, ind).0;
                let (a, b) = if *exit_first {
                    (exit, value)
                } else {
                    (value, exit)
                };
                let _ = writeln!(
                    out,
                    "{p}let {name}{t} = if {} {{ {a} }} else {{ {b} }};",
                    self.c(cond, ind).0
                );
            }
        }
    }

    fn if_rest(&self, t: &[S], f: &Option<Vec<S>>, ind: usize, out: &mut String) {
        let p = pad(ind);
        self.stmts(t, ind + 1, out);
        match f {
            None => {
                let _ = writeln!(out, "{p}}}");
            }
            Some(f) => match &f[..] {
                [S::If(c2, t2, f2)] => {
                    let _ = writeln!(out, "{p}}} else if {} {{", self.c(c2, ind).0);
                    self.if_rest(t2, f2, ind, out);
                }
                _ => {
                    let _ = writeln!(out, "{p}}} else {{");
                    self.stmts(f, ind + 1, out);
                    let _ = writeln!(out, "{p}}}");
                }
            },
        }
    }
}

// ---------------------------------------------------------------------------
// The mirror printer: one `let` per op, over `cx: &mut Mirror`.

pub struct Mir {
    pub out: String,
    pub ind: usize,
    tmp: usize,
}

impl Mir {
    pub fn new(ind: usize) -> Mir {
        Mir {
            out: String::new(),
            ind,
            tmp: 0,
        }
    }

    fn line(&mut self, s: &str) {
        let _ = writeln!(self.out, "{}{s}", pad(self.ind));
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.tmp += 1;
        format!("_{prefix}{}", self.tmp)
    }

    fn bind(&mut self, rhs: &str) -> String {
        let t = self.fresh("t");
        self.line(&format!("let {t} = {rhs};"));
        t
    }

    fn i(&self, i: &I) -> String {
        Src { fl: Fl::F64 }.i(i).0
    }

    /// Emits `e`'s ops; returns the name holding its value.
    pub fn e(&mut self, e: &E) -> String {
        match e {
            E::Var(n) => n.clone(),
            E::Lit(v) => self.bind(&format!("cx.k({})", lit(*v))),
            E::Idx(s, i) => {
                let i = self.i(i);
                self.bind(&format!("{s}[{i}]"))
            }
            E::End(s, false, _) => self.bind(&format!("{s}[0]")),
            E::End(s, true, _) => self.bind(&format!("{s}[{s}.len() - 1]")),
            E::Cast(i) => {
                let i = paren(Src { fl: Fl::F64 }.i(i), 7);
                self.bind(&format!("cx.k({i} as f64)"))
            }
            E::Un(op, _, x) => {
                let x = self.e(x);
                self.bind(&format!("cx.{}({x})", op.name()))
            }
            E::Bin(op, a, b) => {
                let a = self.e(a);
                let b = self.e(b);
                self.bind(&format!("cx.{}({a}, {b})", op.mirror()))
            }
            E::Powi(_, x, n) => {
                let x = self.e(x);
                self.bind(&format!("cx.powi({x}, {n})"))
            }
            E::Powf(_, a, b) => {
                let a = self.e(a);
                let b = self.e(b);
                self.bind(&format!("cx.powf({a}, {b})"))
            }
            E::MaxMin(max, _, a, b) => {
                let a = self.e(a);
                let b = self.e(b);
                let m = if *max { "max" } else { "min" };
                self.bind(&format!("cx.{m}({a}, {b})"))
            }
            E::Stop(_, x) => {
                let x = self.e(x);
                self.bind(&format!("cx.stop({x})"))
            }
            E::Nary(f, _, xs) => {
                let xs: Vec<String> = xs.iter().map(|x| self.e(x)).collect();
                self.bind(&format!("cx.{}({})", f.name(), xs.join(", ")))
            }
            E::If(c, t, f) => {
                let b = self.cond(c);
                let r = self.fresh("t");
                self.line(&format!("let {r} = if {b} {{"));
                self.blk(t);
                self.line("} else {");
                self.blk(f);
                self.line("};");
                r
            }
            E::Match(scrutinee, arms) => {
                let src = Src { fl: Fl::F64 };
                let r = self.fresh("t");
                self.line(&format!("let {r} = match {} {{", src.i(scrutinee).0));
                for (pat, b) in arms {
                    self.line(&format!("{pat} => {{"));
                    self.blk(b);
                    self.line("}");
                }
                self.line("};");
                r
            }
            E::Call(name, args) => self.call(name, args),
            E::Sum(m) => {
                let m = self.m(m);
                self.bind(&format!("mat::sum(cx, &{m})"))
            }
            E::MaxEl(m) => {
                let m = self.m(m);
                self.bind(&format!("mat::max_el(cx, &{m})"))
            }
            E::Konst(name, None) => self.bind(&format!("cx.k(f64::from({name}))")),
            E::Konst(name, Some(i)) => {
                let i = self.i(i);
                self.bind(&format!("cx.k(f64::from({name}[{i}]))"))
            }
            E::Det(m) => {
                let m = self.m(m);
                self.bind(&format!("mat::det(cx, &{m})"))
            }
        }
    }

    /// Emits a call's arguments and the call; returns the name of its
    /// result (a `V`, or a `Mat` for a function returning a matrix).
    fn call(&mut self, name: &str, args: &[Arg]) -> String {
        let mut vals = Vec::new();
        for a in args {
            vals.push(match a {
                Arg::F(e) => self.e(e),
                Arg::Slice(s) => s.clone(),
                Arg::Mat(n, _, _) => format!("&{n}"),
                Arg::Const(v) => self.bind(&format!("cx.k({})", lit(*v))),
                Arg::Int(v) => v.to_string(),
            });
        }
        self.bind(&format!("mirror_{name}(cx, {})", vals.join(", ")))
    }

    fn blk(&mut self, b: &Blk) {
        self.ind += 1;
        for s in &b.stmts {
            self.s(s);
        }
        let t = self.e(&b.tail);
        self.line(&t);
        self.ind -= 1;
    }

    /// Emits a condition's comparisons (all of them: recording a decision
    /// the primal short-circuits past only makes the kink test stricter);
    /// returns the name of a `bool`.
    pub fn c(&mut self, c: &C) -> String {
        match c {
            C::F(op, a, b) => {
                let a = self.e(a);
                let b = self.e(b);
                let t = self.fresh("b");
                self.line(&format!("let {t} = cx.{}({a}, {b});", op.mirror()));
                t
            }
            C::I(op, a, b) => {
                let src = Src { fl: Fl::F64 };
                let t = self.fresh("b");
                self.line(&format!(
                    "let {t} = {} {} {};",
                    paren(src.i(a), 4),
                    op.token(),
                    paren(src.i(b), 4)
                ));
                t
            }
            C::And(a, b) => {
                let a = self.c(a);
                let b = self.c(b);
                self.bind(&format!("{a} && {b}"))
            }
            C::Or(a, b) => {
                let a = self.c(a);
                let b = self.c(b);
                self.bind(&format!("{a} || {b}"))
            }
            C::Not(a) => {
                let a = self.c(a);
                self.bind(&format!("!{a}"))
            }
        }
    }

    /// A condition bound to one name.
    fn cond(&mut self, c: &C) -> String {
        self.c(c)
    }

    /// Emits a matrix expression; returns the name of a `Mat` (a variable
    /// or a temporary), to be borrowed.
    pub fn m(&mut self, m: &M) -> String {
        match m {
            M::Var(n, _) => n.clone(),
            M::MatMul(a, b) | M::Add(a, b) | M::Sub(a, b) | M::CMul(a, b) | M::CDiv(a, b) => {
                let f = match m {
                    M::MatMul(..) => "matmul",
                    M::Add(..) => "add",
                    M::Sub(..) => "sub",
                    M::CMul(..) => "cmul",
                    _ => "cdiv",
                };
                let a = self.m(a);
                let b = self.m(b);
                self.bind(&format!("mat::{f}(cx, &{a}, &{b})"))
            }
            M::T(a) => {
                let a = self.m(a);
                self.bind(&format!("mat::transpose(&{a})"))
            }
            M::ScaleL(s, a) => {
                let s = self.e(s);
                let a = self.m(a);
                self.bind(&format!("mat::scale(cx, {s}, &{a})"))
            }
            M::ScaleR(a, s) | M::DivS(a, s) => {
                let f = if matches!(m, M::ScaleR(..)) {
                    "scale_r"
                } else {
                    "div_s"
                };
                let a = self.m(a);
                let s = self.e(s);
                self.bind(&format!("mat::{f}(cx, &{a}, {s})"))
            }
            M::MapClos(a, helper, _) => {
                let a = self.m(a);
                self.bind(&format!("mat::map(cx, &{a}, {helper})"))
            }
            M::MapPath(a, op) => {
                let a = self.m(a);
                self.bind(&format!("mat::map(cx, &{a}, Mirror::{})", op.name()))
            }
            M::Relu(a) | M::Sigmoid(a) | M::Neg(a) => {
                let f = match m {
                    M::Relu(_) => "relu",
                    M::Sigmoid(_) => "sigmoid",
                    _ => "neg",
                };
                let a = self.m(a);
                self.bind(&format!("mat::{f}(cx, &{a})"))
            }
            M::Call(name, args) => self.call(name, args),
            M::FromElems(r, c, _, elems) => {
                let names: Vec<String> = elems.iter().map(|e| self.e(e)).collect();
                // The mirror's matrices are column-major.
                let columns: Vec<String> = (0..r * c)
                    .map(|k| names[(k % r) * c + k / r].clone())
                    .collect();
                self.bind(&format!("Mat::new({r}, {c}, &[{}])", columns.join(", ")))
            }
        }
    }

    pub fn owned(&mut self, m: &M) -> String {
        let name = self.m(m);
        if name.starts_with("_t") {
            name
        } else {
            format!("{name}.clone()")
        }
    }

    pub fn s(&mut self, s: &S) {
        match s {
            S::Let {
                name,
                mutable,
                init,
                ..
            } => {
                let v = self.e(init);
                let m = if *mutable { "mut " } else { "" };
                self.line(&format!("let {m}{name} = {v};"));
            }
            S::LetM {
                name,
                mutable,
                init,
            } => {
                let v = self.owned(init);
                let m = if *mutable { "mut " } else { "" };
                self.line(&format!("let {m}{name} = {v};"));
            }
            S::LetI(name) => self.line(&format!("let mut {name} = 0;")),
            S::SinCos { sin, cos, arg, .. } => {
                let v = self.e(arg);
                if let Some(s) = sin {
                    self.line(&format!("let {s} = cx.sin({v});"));
                }
                if let Some(c) = cos {
                    self.line(&format!("let {c} = cx.cos({v});"));
                }
            }
            S::Assign(name, e) => {
                let v = self.e(e);
                self.line(&format!("{name} = {v};"));
            }
            S::Compound(name, op, e) => {
                let v = self.e(e);
                self.line(&format!("{name} = cx.{}({name}, {v});", op.mirror()));
            }
            S::AssignM(name, m) => {
                let v = self.owned(m);
                self.line(&format!("{name} = {v};"));
            }
            S::IncI(name) => self.line(&format!("{name} += 1;")),
            S::If(c, t, f) => {
                let b = self.cond(c);
                self.line(&format!("if {b} {{"));
                self.ind += 1;
                for st in t {
                    self.s(st);
                }
                self.ind -= 1;
                if let Some(f) = f {
                    self.line("} else {");
                    self.ind += 1;
                    for st in f {
                        self.s(st);
                    }
                    self.ind -= 1;
                }
                self.line("}");
            }
            S::For {
                var,
                lo,
                hi,
                incl,
                rev,
                body,
            } => {
                let src = Src { fl: Fl::F64 };
                let v = var.as_deref().unwrap_or("_");
                let dots = if *incl { "..=" } else { ".." };
                let range = format!("{}{dots}{}", paren(src.i(lo), 5), paren(src.i(hi), 5));
                let range = if *rev {
                    format!("({range}).rev()")
                } else {
                    range
                };
                self.line(&format!("for {v} in {range} {{"));
                self.ind += 1;
                for st in body {
                    self.s(st);
                }
                self.ind -= 1;
                self.line("}");
            }
            S::While(c, body) => {
                self.line("loop {");
                self.ind += 1;
                let b = self.cond(c);
                self.line(&format!("if !{b} {{"));
                self.line("    break;");
                self.line("}");
                for st in body {
                    self.s(st);
                }
                self.ind -= 1;
                self.line("}");
            }
            S::Loop(body) => {
                self.line("loop {");
                self.ind += 1;
                for st in body {
                    self.s(st);
                }
                self.ind -= 1;
                self.line("}");
            }
            S::Match(scrutinee, arms) => {
                let src = Src { fl: Fl::F64 };
                self.line(&format!("match {} {{", src.i(scrutinee).0));
                self.ind += 1;
                for (pat, body) in arms {
                    self.line(&format!("{pat} => {{"));
                    self.ind += 1;
                    for st in body {
                        self.s(st);
                    }
                    self.ind -= 1;
                    self.line("}");
                }
                self.ind -= 1;
                self.line("}");
            }
            S::IfLet(body) => {
                self.line("if let Some(_) = Some(1usize) {");
                self.ind += 1;
                for st in body {
                    self.s(st);
                }
                self.ind -= 1;
                self.line("}");
            }
            S::Cfg(true, s) | S::Attr(_, true, s) => self.s(s),
            S::Cfg(false, _) | S::Attr(_, false, _) => {}
            S::Block(ss) => {
                self.line("{");
                self.ind += 1;
                for st in ss {
                    self.s(st);
                }
                self.ind -= 1;
                self.line("}");
            }
            S::Break => self.line("break;"),
            S::Continue => self.line("continue;"),
            S::Return(e) => {
                let v = self.e(e);
                self.line(&format!("return {v};"));
            }
            // The condition, the exit in its arm, then the value: the
            // order the `let` evaluates them in.
            S::LetExit {
                name,
                cond,
                exit_first,
                value,
                exit,
                ..
            } => {
                let b = self.cond(cond);
                let not = if *exit_first { "" } else { "!" };
                self.line(&format!("if {not}{b} {{"));
                self.ind += 1;
                self.s(exit);
                self.ind -= 1;
                self.line("}");
                let v = self.e(value);
                self.line(&format!("let {name} = {v};"));
            }
        }
    }
}
