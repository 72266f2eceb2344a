//! The rule table: one declarative entry per differentiable operation.
//!
//! An entry says which syntax the operation answers to, its operands (their
//! types, which get an adjoint, what each scalar pullback reads, how each
//! is passed), its result, which runtime forms exist (scalar, dispatched,
//! element-wise), its tangent for forward mode, and whether it is worth
//! keeping on a loop's stack. Lowering, analysis and code generation ask
//! the table for these properties and never compare a rule's name; the
//! names of the runtime functions are derived in one place,
//! [`Rule::runtime`]. The macro never knows the math: every formula lives
//! once, in `autograd_runtime::rules`, and [`check`] proves at compile time
//! that every function an entry names exists with the signature the
//! generated code calls it at.

pub mod check;

/// A primal value a scalar pullback reads, besides the output adjoint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// The operation's operand at this position.
    Arg(usize),
    /// The operation's result.
    Out,
}

/// The type of an operand or a result, as far as the table tells: what the
/// compile-time check instantiates the runtime functions at.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `f32` or `f64`.
    Float,
    /// `i32`: an integer operand, which gets no adjoint (`powi`'s exponent).
    Int,
    /// A nalgebra matrix or vector (checked at `DMatrix<f64>`).
    Matrix,
    /// A dimension of `reshape_generic` (`Dyn(n)`): primal code as written.
    Dim,
    /// A `usize` position (`m.column(j)`): primal code as written.
    Index,
}

/// How the primal sweep passes an operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// As the user wrote it (a receiver auto-referenced by method syntax).
    AsWritten,
    /// By reference (`a.component_mul(&b)`): a `&` written there is part of
    /// the syntax, not an operand of its own.
    Ref,
    /// Consumed (`m.reshape_generic(..)` takes `self`): an owned value,
    /// cloned where the value is still read.
    Owned,
}

/// One operand of a rule, the receiver of a method first.
#[derive(Debug)]
pub struct Param {
    /// Its name in the pullbacks' names when three or more operands get an
    /// adjoint (`clamp_grad_lo`); empty otherwise.
    pub name: &'static str,
    pub ty: Ty,
    /// Whether the operand gets an adjoint.
    pub diff: bool,
    /// What the scalar pullback of this operand reads after the output
    /// adjoint, in order (for a rule with a scalar form).
    pub reads: &'static [Read],
    pub pass: Pass,
}

/// What the dispatched pullbacks take after the output adjoint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: the adjoint passes through (`+`, `-`), so no operand is
    /// kept for the reverse sweep. The left operand's adjoint is the output
    /// adjoint itself, which the `_ref` form lends.
    Nothing,
    /// The operands, not the output (`*`).
    Operands,
    /// The operands and the output.
    OperandsAndOut,
}

/// The tangent of the operation for forward mode, operand by operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tangent {
    /// The scalar pullback applied to the operand's tangent (a scalar's
    /// derivative is its own transpose), summed over the operands: the
    /// runtime's `STEM_tangent` ([`Func::Tangent`]), element by element on
    /// matrices.
    Pullback,
    /// The operation is linear in its differentiable operands: the
    /// operation applied to their tangents.
    Linear,
    /// The product: `ȧ·b + a·ḃ`, matrices in nalgebra's product.
    Bilinear,
    /// The tangent of the element the primal picked (`m.max()`).
    Selected,
    /// Written out in the runtime, `rules::generic::STEM_tangent(ẋ..,
    /// reads..)`, one tangent per differentiable operand and then what the
    /// dispatched pullbacks read, all by reference (`norm`: `x·ẋ/|x|`).
    Written,
}

/// An operator the table answers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operator {
    Add,
    Sub,
    Mul,
    Div,
    /// `%` of floats.
    Rem,
    /// Unary `-`.
    Neg,
}

/// Operand types and result type at which a rule's dispatched forms exist
/// besides the entry's own (`*` of a matrix and a scalar, say).
#[derive(Debug)]
pub struct Instance {
    pub params: &'static [Ty],
    pub result: Ty,
}

/// One differentiable operation.
#[derive(Debug)]
pub struct Rule {
    /// Name in the text form of the IR.
    pub name: &'static str,
    /// Stem of its runtime functions (see [`Rule::runtime`]).
    pub stem: &'static str,
    /// The operator it answers to.
    pub operator: Option<Operator>,
    /// The method it answers to, taking the operands after the receiver:
    /// on `f32`/`f64` (and then also as `f64::NAME(..)`) if the receiver is a
    /// float, on nalgebra values if the receiver is a matrix or a dispatched
    /// form exists for a matrix receiver.
    pub method: Option<&'static str>,
    /// The free function of `autograd::special` it answers to, called by
    /// path (see [`special_function`]); the sweeps call the runtime's
    /// primal, which is that function.
    pub function: Option<&'static str>,
    pub params: &'static [Param],
    pub result: Ty,
    /// What the dispatched pullbacks read.
    pub takes: Takes,
    /// Further types the dispatched forms are implemented for.
    pub also: &'static [Instance],
    /// `m.map(f64::NAME)` has element-wise pullbacks (`map_STEM_grad..`)
    /// that read what the scalar pullback reads.
    pub elementwise: bool,
    /// Every element of the operand receives one scalar adjoint
    /// (`m.sum()`): `STEM_grad_element` computes it from the output's, and
    /// an element-wise map before it may take it as that scalar.
    pub broadcasts: bool,
    pub tangent: Tangent,
    /// Worth keeping on a loop's stack rather than computing twice.
    pub expensive: bool,
    /// A method of `autograd::prelude`'s traits rather than an inherent
    /// one: the sweeps call it with those traits in scope, so a method of
    /// the same name from a user's trait is ambiguous there (a compile
    /// error) instead of silently differentiated as ours.
    pub from_prelude: bool,
    /// The method returns a view borrowing its receiver (`m.column(j)`):
    /// the sweeps own its elements (`.into_owned()`), the same values.
    pub view: bool,
    /// nalgebra's method needs a complex field (`norm`, `determinant`) or
    /// SIMD comparisons (`max`), which a matrix of dual numbers lacks: the
    /// second-order twin computes the primal with [`Func::DualPrimal`].
    pub dual_primal: bool,
    /// An inherent method of `f32`/`f64` that `num_traits::Float` lacks
    /// (`rem_euclid`): a body generic over its scalar (the second-order
    /// twin, a `T: Float` function) calls [`Func::Primal`] instead.
    pub generic_by_function: bool,
    /// Piecewise constant (`floor ceil round trunc signum`): its result is
    /// a constant, so no path runs through it, in every mode. Activity
    /// analysis treats the result as it does `stop_gradient`'s: an
    /// infinite or NaN derivative before it reaches nothing after it (not
    /// `0·∞ = NaN`).
    pub constant_valued: bool,
    /// The value is one of its operands (`max`, `min`, `clamp`): an
    /// operand not picked on this run is not on the run's path, so its
    /// adjoint is reached only if picked ([`Func::Taken`]), and a zero
    /// adjoint through an operand not taken reaches nothing before it (not
    /// `0·∞ = NaN` through that operand's own partials).
    pub selects: bool,
}

/// A runtime function of a rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Func {
    /// `rules::STEM`: the scalar primal.
    Primal,
    /// `rules::generic::STEM(&m)`: the primal of a reduction at any
    /// `MatrixScalar` element, for matrices whose nalgebra method does not
    /// exist at a dual number (see [`Rule::dual_primal`]).
    DualPrimal,
    /// The scalar pullback of operand `i` (`rules::STEM_grad`, or
    /// `_grad_lhs` / `_grad_rhs` with two differentiable operands,
    /// `_grad_NAME` with more).
    Pullback(usize),
    /// Whether a selecting rule's value is operand `i` on this run
    /// (`rules::STEM_takes_lhs`, named like the pullback; see
    /// [`Rule::selects`]), taking what that pullback reads.
    Taken(usize),
    /// `rules::STEM_tangent(ẋ.., reads..)`: the scalar tangent, taking one
    /// tangent per differentiable operand, then what the pullbacks read
    /// (see [`Rule::tangent_reads`]).
    Tangent,
    /// The dispatched pullback of the `k`-th differentiable operand
    /// (`rules::generic`), in a form.
    Dispatched(usize, Form),
    /// The pullback of `m.map(f64::STEM)` (`rules::generic::map_..`), in a
    /// form.
    Mapped(Form),
    /// `rules::generic::STEM_grad_element`: the one adjoint every element
    /// receives (see [`Rule::broadcasts`]).
    Element,
}

/// The forms of a dispatched or element-wise pullback, so the reverse
/// sweep can treat matrix adjoints as buffers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// `F(&grad, ..) -> adjoint`: a new adjoint.
    New,
    /// `F_acc(&mut adjoint, &grad, ..)`: added in place.
    Acc,
    /// `F_owned(grad, ..) -> adjoint`: the output adjoint by value, its
    /// buffer reused.
    Owned,
    /// `F_ref(&grad) -> &adjoint`: the output adjoint itself, lent (the left
    /// operand of a pass-through rule).
    Ref,
    /// `F_broadcast(grad: f64, v) -> adjoint`: one scalar adjoint for every
    /// element, in the buffer of the value read (element-wise rules).
    Broadcast,
}

/// The module of `autograd_runtime::rules` a runtime function lives in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Module {
    /// `rules`: scalar primals and pullbacks.
    Rules,
    /// `rules::generic`: pullbacks dispatched on their operands' types.
    Generic,
}

/// A runtime function's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeFn {
    pub module: Module,
    pub name: String,
}

impl Rule {
    /// Whether scalar primal and pullbacks exist: every operand is a float
    /// or an integer.
    pub fn has_scalar_form(&self) -> bool {
        self.params
            .iter()
            .all(|p| matches!(p.ty, Ty::Float | Ty::Int))
    }

    /// Whether the method answers on `f32`/`f64` receivers (and in the
    /// path form `f64::NAME(..)`).
    pub fn on_scalars(&self) -> bool {
        self.method.is_some() && self.params.first().is_some_and(|p| p.ty == Ty::Float)
    }

    /// Whether the method answers on nalgebra receivers.
    pub fn on_matrices(&self) -> bool {
        self.method.is_some()
            && (self.params.first().is_some_and(|p| p.ty == Ty::Matrix)
                || self
                    .also
                    .iter()
                    .any(|i| i.params.first() == Some(&Ty::Matrix)))
    }

    /// Operands after the receiver, in method syntax.
    pub fn arity(&self) -> usize {
        self.params.len().saturating_sub(1)
    }

    /// A reduction: a matrix operand, a scalar result.
    pub fn reduces(&self) -> bool {
        self.result == Ty::Float && self.params.first().is_some_and(|p| p.ty == Ty::Matrix)
    }

    /// Which operands get an adjoint.
    pub fn diff(&self) -> impl Iterator<Item = bool> + '_ {
        self.params.iter().map(|p| p.diff)
    }

    fn differentiable_count(&self) -> usize {
        self.params.iter().filter(|p| p.diff).count()
    }

    /// The position of the `k`-th differentiable operand.
    pub fn differentiable_operand(&self, k: usize) -> Option<usize> {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.diff)
            .nth(k)
            .map(|(i, _)| i)
    }

    /// What the dispatched pullback of differentiable operand `k` takes
    /// after the output adjoint, in order; `map` for the `m.map(f)` form,
    /// which takes what the scalar pullback reads.
    pub fn generic_reads(&self, k: usize, map: bool) -> Vec<Read> {
        if map {
            return self
                .differentiable_operand(k)
                .map_or_else(Vec::new, |i| self.params[i].reads.to_vec());
        }
        let n = self.params.len();
        match self.takes {
            Takes::Nothing => Vec::new(),
            Takes::Operands => (0..n).map(Read::Arg).collect(),
            Takes::OperandsAndOut => (0..n).map(Read::Arg).chain([Read::Out]).collect(),
        }
    }

    /// What the scalar tangent reads after the operands' tangents: every
    /// value some pullback reads, operands in order, then the output.
    pub fn tangent_reads(&self) -> Vec<Read> {
        let read = |r: Read| self.params.iter().any(|p| p.diff && p.reads.contains(&r));
        let args = (0..self.params.len()).map(Read::Arg);
        args.chain([Read::Out]).filter(|r| read(*r)).collect()
    }

    /// The runtime function `func` of this rule, where it exists: every
    /// runtime name the generated code calls is derived here.
    pub fn runtime(&self, func: Func) -> Option<RuntimeFn> {
        let n = self.differentiable_count();
        let pullback = |k: usize| match (n, k) {
            (1, 0) => Some(format!("{}_grad", self.stem)),
            (2, 0) => Some(format!("{}_grad_lhs", self.stem)),
            (2, 1) => Some(format!("{}_grad_rhs", self.stem)),
            _ => {
                let name = self.params[self.differentiable_operand(k)?].name;
                (!name.is_empty()).then(|| format!("{}_grad_{name}", self.stem))
            }
        };
        let (module, name) = match func {
            Func::Primal if self.has_scalar_form() => (Module::Rules, self.stem.to_owned()),
            Func::DualPrimal if self.dual_primal => (Module::Generic, self.stem.to_owned()),
            Func::Pullback(i) if self.has_scalar_form() && self.params.get(i)?.diff => {
                let k = self.params[..i].iter().filter(|p| p.diff).count();
                (Module::Rules, pullback(k)?)
            }
            Func::Taken(i) if self.selects && self.params.get(i)?.diff => {
                let k = self.params[..i].iter().filter(|p| p.diff).count();
                (Module::Rules, pullback(k)?.replacen("_grad", "_takes", 1))
            }
            Func::Tangent if self.has_scalar_form() => {
                (Module::Rules, format!("{}_tangent", self.stem))
            }
            Func::Tangent if self.tangent == Tangent::Written => {
                (Module::Generic, format!("{}_tangent", self.stem))
            }
            Func::Dispatched(k, form @ (Form::New | Form::Acc | Form::Owned)) => {
                (Module::Generic, pullback(k)? + form.suffix())
            }
            Func::Dispatched(0, Form::Ref) if self.takes == Takes::Nothing => {
                (Module::Generic, pullback(0)? + Form::Ref.suffix())
            }
            Func::Mapped(Form::Broadcast) if self.generic_reads(0, true).len() != 1 => {
                return None;
            }
            Func::Mapped(form) if self.elementwise && form != Form::Ref => (
                Module::Generic,
                format!("map_{}", pullback(0)?) + form.suffix(),
            ),
            Func::Element if self.broadcasts => {
                (Module::Generic, format!("{}_grad_element", self.stem))
            }
            _ => return None,
        };
        Some(RuntimeFn { module, name })
    }
}

impl Form {
    fn suffix(self) -> &'static str {
        match self {
            Form::New => "",
            Form::Acc => "_acc",
            Form::Owned => "_owned",
            Form::Ref => "_ref",
            Form::Broadcast => "_broadcast",
        }
    }
}

/// The pullback of `m.map(closure)`: the closure's compiled scalar
/// pullback applied element by element (`rules::generic::map_grad`), in
/// the forms that exist (new, added in place, in the incoming buffer).
pub fn map_closure(form: Form) -> Option<RuntimeFn> {
    matches!(form, Form::New | Form::Acc | Form::Owned).then(|| RuntimeFn {
        module: Module::Generic,
        name: format!("map_grad{}", form.suffix()),
    })
}

use Read::{Arg, Out};

const fn float(reads: &'static [Read]) -> Param {
    named("", reads)
}

/// A float operand named in its pullback's name (`clamp_grad_lo`).
const fn named(name: &'static str, reads: &'static [Read]) -> Param {
    Param {
        name,
        ty: Ty::Float,
        diff: true,
        reads,
        pass: Pass::AsWritten,
    }
}

const fn matrix(pass: Pass) -> Param {
    Param {
        name: "",
        ty: Ty::Matrix,
        diff: true,
        reads: &[],
        pass,
    }
}

const fn constant(ty: Ty) -> Param {
    Param {
        name: "",
        ty,
        diff: false,
        reads: &[],
        pass: Pass::AsWritten,
    }
}

/// A float method of its float (or integer) operands: the template most
/// entries refine.
const fn scalar(name: &'static str, params: &'static [Param]) -> Rule {
    Rule {
        name,
        stem: name,
        operator: None,
        method: Some(name),
        function: None,
        params,
        result: Ty::Float,
        takes: Takes::OperandsAndOut,
        also: &[],
        elementwise: false,
        broadcasts: false,
        tangent: Tangent::Pullback,
        expensive: false,
        from_prelude: false,
        view: false,
        dual_primal: false,
        generic_by_function: false,
        constant_valued: false,
        selects: false,
    }
}

/// The operand of a unary float function whose pullback reads the input.
const READS_X: &[Param] = &[float(&[Arg(0)])];
/// The operand of a unary float function whose pullback reads the output.
const READS_OUT: &[Param] = &[float(&[Out])];
/// The operand of a unary float function whose pullback reads nothing
/// (piecewise constant, or of slope 1).
const READS_NOTHING: &[Param] = &[float(&[])];

/// A float method without arguments, with its element-wise form on
/// matrices (`m.map(f64::NAME)`).
const fn unary(name: &'static str, params: &'static [Param]) -> Rule {
    Rule {
        elementwise: true,
        ..scalar(name, params)
    }
}

/// A function of `autograd::special` (`erf(x)`, `special::beta(a, b)`):
/// no method, and worth keeping on a loop's stack.
const fn special(name: &'static str, params: &'static [Param]) -> Rule {
    Rule {
        method: None,
        function: Some(name),
        expensive: true,
        ..scalar(name, params)
    }
}

/// An operator.
const fn operator(name: &'static str, operator: Operator, params: &'static [Param]) -> Rule {
    Rule {
        operator: Some(operator),
        method: None,
        ..scalar(name, params)
    }
}

/// A method of nalgebra values only.
const fn matrix_method(
    name: &'static str,
    method: &'static str,
    params: &'static [Param],
    result: Ty,
) -> Rule {
    Rule {
        method: Some(method),
        result,
        tangent: Tangent::Linear,
        ..scalar(name, params)
    }
}

const M_M: &[Instance] = &[Instance {
    params: &[Ty::Matrix, Ty::Matrix],
    result: Ty::Matrix,
}];
const M: &[Instance] = &[Instance {
    params: &[Ty::Matrix],
    result: Ty::Matrix,
}];

macro_rules! table {
    ($($(#[$doc:meta])* $name:ident = $rule:expr;)*) => {
        $($(#[$doc])* pub static $name: Rule = $rule;)*
        /// Every entry, in the order error messages list them.
        pub static RULES: &[&Rule] = &[$(&$name),*];
    };
}

table! {
    ADD = Rule {
        takes: Takes::Nothing,
        also: M_M,
        tangent: Tangent::Linear,
        ..operator("add", Operator::Add, &[float(&[]), float(&[])])
    };
    SUB = Rule {
        takes: Takes::Nothing,
        also: M_M,
        tangent: Tangent::Linear,
        ..operator("sub", Operator::Sub, &[float(&[]), float(&[])])
    };
    MUL = Rule {
        takes: Takes::Operands,
        also: &[
            Instance { params: &[Ty::Matrix, Ty::Matrix], result: Ty::Matrix },
            Instance { params: &[Ty::Float, Ty::Matrix], result: Ty::Matrix },
            Instance { params: &[Ty::Matrix, Ty::Float], result: Ty::Matrix },
        ],
        tangent: Tangent::Bilinear,
        ..operator("mul", Operator::Mul, &[float(&[Arg(1)]), float(&[Arg(0)])])
    };
    DIV = Rule {
        also: &[Instance { params: &[Ty::Matrix, Ty::Float], result: Ty::Matrix }],
        expensive: true,
        ..operator("div", Operator::Div, &[float(&[Arg(1)]), float(&[Arg(1), Out])])
    };
    NEG = Rule {
        also: M,
        tangent: Tangent::Linear,
        ..operator("neg", Operator::Neg, &[float(&[])])
    };
    EXP = Rule { expensive: true, ..unary("exp", READS_OUT) };
    LN = Rule { expensive: true, ..unary("ln", READS_X) };
    SQRT = Rule { expensive: true, ..unary("sqrt", READS_OUT) };
    POWI = Rule {
        expensive: true,
        ..scalar("powi", &[float(&[Arg(0), Arg(1)]), constant(Ty::Int)])
    };
    POWF = Rule {
        stem: "pow",
        expensive: true,
        ..scalar("powf", &[float(&[Arg(0), Arg(1)]), float(&[Arg(0), Out])])
    };
    SIN = Rule { expensive: true, ..unary("sin", READS_X) };
    COS = Rule { expensive: true, ..unary("cos", READS_X) };
    TANH = Rule { expensive: true, ..unary("tanh", READS_OUT) };
    // At a kink or tie a rule takes the slopes of one adjacent piece, as its
    // doc comment says: abs the piece of `x`'s sign (so it reads `x`, a
    // zero's sign too), max/min the first operand's.
    ABS = unary("abs", READS_X);
    MAX = Rule {
        selects: true,
        ..scalar("max", &[float(&[Arg(0), Arg(1)]), float(&[Arg(0), Arg(1)])])
    };
    MIN = Rule {
        selects: true,
        ..scalar("min", &[float(&[Arg(0), Arg(1)]), float(&[Arg(0), Arg(1)])])
    };
    TRANSPOSE = matrix_method("transpose", "transpose", &[matrix(Pass::AsWritten)], Ty::Matrix);
    SUM = Rule {
        broadcasts: true,
        ..matrix_method("sum", "sum", &[matrix(Pass::AsWritten)], Ty::Float)
    };
    MAX_ELEMENT = Rule {
        tangent: Tangent::Selected,
        dual_primal: true,
        ..matrix_method("max_element", "max", &[matrix(Pass::AsWritten)], Ty::Float)
    };
    COMPONENT_MUL = Rule {
        tangent: Tangent::Pullback,
        ..matrix_method(
            "component_mul",
            "component_mul",
            &[matrix(Pass::AsWritten), matrix(Pass::Ref)],
            Ty::Matrix,
        )
    };
    COMPONENT_DIV = Rule {
        tangent: Tangent::Pullback,
        ..matrix_method(
            "component_div",
            "component_div",
            &[matrix(Pass::AsWritten), matrix(Pass::Ref)],
            Ty::Matrix,
        )
    };
    RESHAPE = matrix_method(
        "reshape",
        "reshape_generic",
        &[matrix(Pass::Owned), constant(Ty::Dim), constant(Ty::Dim)],
        Ty::Matrix,
    );
    // relu at ±0: its constant piece's slope, 0.
    RELU = Rule { also: M, from_prelude: true, ..unary("relu", READS_X) };
    SIGMOID = Rule {
        also: M,
        expensive: true,
        from_prelude: true,
        ..unary("sigmoid", READS_OUT)
    };
    // Exponentials, logarithms and roots.
    EXP2 = Rule { expensive: true, ..unary("exp2", READS_OUT) };
    EXP_M1 = Rule { expensive: true, ..unary("exp_m1", READS_OUT) };
    LN_1P = Rule { expensive: true, ..unary("ln_1p", READS_X) };
    LOG = Rule {
        expensive: true,
        ..scalar("log", &[float(&[Arg(0), Arg(1)]), float(&[Arg(1), Out])])
    };
    LOG2 = Rule { expensive: true, ..unary("log2", READS_X) };
    LOG10 = Rule { expensive: true, ..unary("log10", READS_X) };
    CBRT = Rule { expensive: true, ..unary("cbrt", READS_OUT) };
    RECIP = Rule { expensive: true, ..unary("recip", READS_OUT) };
    HYPOT = Rule {
        expensive: true,
        ..scalar("hypot", &[float(&[Arg(0), Out]), float(&[Arg(1), Out])])
    };
    // Trigonometric (and `sin_cos`, in `SPLITS`).
    TAN = Rule { expensive: true, ..unary("tan", READS_OUT) };
    ASIN = Rule { expensive: true, ..unary("asin", READS_X) };
    ACOS = Rule { expensive: true, ..unary("acos", READS_X) };
    ATAN = Rule { expensive: true, ..unary("atan", READS_X) };
    ATAN2 = Rule {
        expensive: true,
        ..scalar("atan2", &[float(&[Arg(0), Arg(1)]), float(&[Arg(0), Arg(1)])])
    };
    // Hyperbolic.
    SINH = Rule { expensive: true, ..unary("sinh", READS_X) };
    COSH = Rule { expensive: true, ..unary("cosh", READS_X) };
    ASINH = Rule { expensive: true, ..unary("asinh", READS_X) };
    ACOSH = Rule { expensive: true, ..unary("acosh", READS_X) };
    ATANH = Rule { expensive: true, ..unary("atanh", READS_X) };
    // Piecewise: constant between jumps (`fract`: slope 1), and `clamp`.
    SIGNUM = Rule { constant_valued: true, ..unary("signum", READS_NOTHING) };
    FLOOR = Rule { constant_valued: true, ..unary("floor", READS_NOTHING) };
    CEIL = Rule { constant_valued: true, ..unary("ceil", READS_NOTHING) };
    ROUND = Rule { constant_valued: true, ..unary("round", READS_NOTHING) };
    TRUNC = Rule { constant_valued: true, ..unary("trunc", READS_NOTHING) };
    FRACT = unary("fract", READS_NOTHING);
    // `%` of floats: `rem_euclid`'s slopes, truncated division's quotient.
    REM = operator("rem", Operator::Rem, &[float(&[]), float(&[Arg(0), Arg(1), Out])]);
    REM_EUCLID = Rule {
        generic_by_function: true,
        ..scalar("rem_euclid", &[float(&[]), float(&[Arg(0), Arg(1), Out])])
    };
    // Linear: a constant factor (`rules::angles`).
    TO_RADIANS = unary("to_radians", READS_NOTHING);
    TO_DEGREES = unary("to_degrees", READS_NOTHING);
    CLAMP = Rule {
        selects: true,
        ..scalar("clamp", &[
            named("x", &[Arg(0), Arg(1), Arg(2)]),
            named("lo", &[Arg(0), Arg(1)]),
            named("hi", &[Arg(0), Arg(2)]),
        ])
    };
    // Vector algebra (`rules::vectors`).
    DOT = Rule {
        takes: Takes::Operands,
        tangent: Tangent::Written,
        ..matrix_method("dot", "dot", &[matrix(Pass::AsWritten), matrix(Pass::Ref)], Ty::Float)
    };
    CROSS = Rule {
        takes: Takes::Operands,
        tangent: Tangent::Written,
        ..matrix_method("cross", "cross", &[matrix(Pass::AsWritten), matrix(Pass::Ref)], Ty::Matrix)
    };
    NORM = Rule {
        tangent: Tangent::Written,
        dual_primal: true,
        expensive: true,
        ..matrix_method("norm", "norm", &[matrix(Pass::AsWritten)], Ty::Float)
    };
    NORM_SQUARED = Rule {
        takes: Takes::Operands,
        tangent: Tangent::Written,
        dual_primal: true,
        ..matrix_method("norm_squared", "norm_squared", &[matrix(Pass::AsWritten)], Ty::Float)
    };
    COLUMN = Rule {
        takes: Takes::Operands,
        view: true,
        ..matrix_method("column", "column", &[matrix(Pass::AsWritten), constant(Ty::Index)], Ty::Matrix)
    };
    ROW = Rule {
        takes: Takes::Operands,
        view: true,
        ..matrix_method("row", "row", &[matrix(Pass::AsWritten), constant(Ty::Index)], Ty::Matrix)
    };
    // The determinant (`rules::determinant`): its pullback is the cofactor
    // matrix at every rank, which nalgebra's pivoted LU would lose at a
    // zero pivot if it were differentiated operation for operation.
    DETERMINANT = Rule {
        takes: Takes::Operands,
        tangent: Tangent::Written,
        dual_primal: true,
        expensive: true,
        ..matrix_method("determinant", "determinant", &[matrix(Pass::AsWritten)], Ty::Float)
    };
    // Fused multiply-add.
    MUL_ADD = scalar("mul_add", &[
        named("a", &[Arg(1)]),
        named("b", &[Arg(0)]),
        named("c", &[]),
    ]);
    // Special functions (`autograd::special`, `rules::special`): free
    // functions, called by path.
    ERF = special("erf", READS_X);
    ERFC = special("erfc", READS_X);
    NORM_CDF = special("norm_cdf", READS_X);
    NORM_PDF = special("norm_pdf", &[float(&[Arg(0), Out])]);
    NORM_INV_CDF = special("norm_inv_cdf", READS_OUT);
    LN_GAMMA = special("ln_gamma", READS_X);
    GAMMA = special("gamma", &[float(&[Arg(0), Out])]);
    DIGAMMA = special("digamma", READS_X);
    BETA = special("beta", &[float(&[Arg(0), Arg(1), Out]), float(&[Arg(0), Arg(1), Out])]);
}

/// The rule of a function of `autograd::special` by its name.
pub fn special_function(name: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.function == Some(name))
}

/// The functions of `autograd::special`, for error messages.
pub fn special_functions() -> String {
    listed(RULES.iter().filter_map(|r| r.function)).join(", ")
}

/// The `autograd::special` function another crate's function of a path
/// computes (`libm::erf`, `statrs::function::gamma::ln_gamma`), by the
/// path's segments, its first as the crate: `None` for any other path.
pub fn foreign_special(segments: &[String]) -> Option<&'static str> {
    let (first, last) = (segments.first()?, segments.last()?);
    if segments.len() < 2 {
        return None;
    }
    match first.as_str() {
        "libm" => match last.as_str() {
            "erf" | "erff" => Some("erf"),
            "erfc" | "erfcf" => Some("erfc"),
            "lgamma" | "lgammaf" | "lgamma_r" | "lgammaf_r" => Some("ln_gamma"),
            "tgamma" | "tgammaf" => Some("gamma"),
            _ => None,
        },
        "statrs" | "puruspe" => match last.as_str() {
            "erf" | "erfc" | "gamma" | "ln_gamma" | "digamma" | "beta" => {
                special_function(last).and_then(|r| r.function)
            }
            "lgamma" | "gammaln" => Some("ln_gamma"),
            _ => None,
        },
        _ => None,
    }
}

/// Methods of a probability distribution (`statrs`' `Normal::cdf`), which
/// a body computes with `autograd::special` instead, and what to write.
pub fn distribution_method(name: &str) -> Option<&'static str> {
    match name {
        "cdf" => Some("autograd::special::norm_cdf((x - mean) / sd)"),
        "sf" => Some("autograd::special::norm_cdf((mean - x) / sd)"),
        "pdf" => Some("autograd::special::norm_pdf((x - mean) / sd) / sd"),
        "ln_pdf" => Some("autograd::special::norm_pdf((x - mean) / sd).ln() - sd.ln()"),
        "inverse_cdf" => Some("mean + sd * autograd::special::norm_inv_cdf(p)"),
        _ => None,
    }
}

/// A method returning a tuple, lowered only where it is destructured
/// (`let (s, c) = x.sin_cos();`), as one rule per component: the standard
/// library computes each component with that rule's method, so the values
/// are bit for bit the user's.
#[derive(Debug)]
pub struct Split {
    pub method: &'static str,
    pub parts: &'static [&'static Rule],
}

pub static SPLITS: &[Split] = &[Split {
    method: "sin_cos",
    parts: &[&SIN, &COS],
}];

/// The tuple method of a name and number of arguments after the receiver.
pub fn split(name: &str, arity: usize) -> Option<&'static Split> {
    SPLITS
        .iter()
        .find(|s| s.method == name && s.parts.iter().all(|p| p.arity() == arity))
}

/// The rule of an operator.
pub fn operator_rule(op: Operator) -> &'static Rule {
    match op {
        Operator::Add => &ADD,
        Operator::Sub => &SUB,
        Operator::Mul => &MUL,
        Operator::Div => &DIV,
        Operator::Rem => &REM,
        Operator::Neg => &NEG,
    }
}

/// What a method's receiver is, as far as lowering can tell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Receiver {
    Scalar,
    Matrix,
}

/// The rule of a method by name and number of arguments after the
/// receiver.
pub fn method(name: &str, arity: usize, on: Receiver) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| {
        r.method == Some(name)
            && r.arity() == arity
            && match on {
                Receiver::Scalar => r.on_scalars(),
                Receiver::Matrix => r.on_matrices(),
            }
    })
}

/// The rule of `f64::NAME(args..)` or `f32::NAME(args..)`.
pub fn path_function(name: &str, args: usize) -> Option<&'static Rule> {
    (args > 0)
        .then(|| method(name, args - 1, Receiver::Scalar))
        .flatten()
}

/// The rule of a `map` closure that applies one scalar method to its
/// element (`m.map(f64::tanh)`), where element-wise pullbacks exist.
pub fn elementwise(name: &str) -> Option<&'static Rule> {
    method(name, 0, Receiver::Scalar).filter(|r| r.elementwise)
}

/// Whether some float method has this name, with any number of arguments.
pub fn is_float_method(name: &str) -> bool {
    let rule = RULES
        .iter()
        .any(|r| r.on_scalars() && r.method == Some(name));
    rule || SPLITS.iter().any(|s| s.method == name)
}

/// Whether `f64::NAME` (or `f32::NAME`) names a function of the float the
/// macro knows, as a value (`m.map(f64::tanh)`, `.fold(a, f64::max)`):
/// a rule's method, a tuple method or a predicate (`f64::is_nan`), not a
/// constant (`f64::EPSILON`).
pub fn is_float_function(name: &str) -> bool {
    is_float_method(name)
        || BUILTINS
            .iter()
            .any(|(n, _, b)| *n == name && *b == Builtin::Predicate)
}

/// Methods that are not rules: the macro lowers them itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `x.len()` of a slice argument, or of a nalgebra value (primal
    /// code).
    Len,
    /// `m.nrows()`, `m.ncols()`: an integer, primal code.
    Shape,
    /// `v.clone()`, and `into_owned()` / `clone_owned()` of a nalgebra
    /// value (the sweeps own every view already): the value itself.
    Clone,
    /// `m.map(f)`: the closure compiled as a scalar function, or one
    /// element-wise rule.
    Map,
    /// `x.is_nan()`, `is_finite`, ...: a `bool` of a float, primal code
    /// with no derivative.
    Predicate,
}

const BUILTINS: &[(&str, usize, Builtin)] = &[
    ("len", 0, Builtin::Len),
    ("nrows", 0, Builtin::Shape),
    ("ncols", 0, Builtin::Shape),
    ("clone", 0, Builtin::Clone),
    ("into_owned", 0, Builtin::Clone),
    ("clone_owned", 0, Builtin::Clone),
    ("map", 1, Builtin::Map),
    ("is_nan", 0, Builtin::Predicate),
    ("is_finite", 0, Builtin::Predicate),
    ("is_infinite", 0, Builtin::Predicate),
    ("is_normal", 0, Builtin::Predicate),
    ("is_subnormal", 0, Builtin::Predicate),
    ("is_sign_negative", 0, Builtin::Predicate),
    ("is_sign_positive", 0, Builtin::Predicate),
];

/// The built-in method of a name and number of arguments.
pub fn builtin(name: &str, arity: usize) -> Option<Builtin> {
    BUILTINS
        .iter()
        .find(|(n, a, _)| *n == name && *a == arity)
        .map(|b| b.2)
}

fn listed<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    names.into_iter().map(|n| format!("`{n}`")).collect()
}

/// Every float method the macro differentiates, for error messages.
pub fn supported_methods() -> String {
    let rules = RULES
        .iter()
        .filter(|r| r.on_scalars())
        .filter_map(|r| r.method);
    let methods = listed(rules.chain(SPLITS.iter().map(|s| s.method)));
    format!("{}, and `len` on slices", methods.join(", "))
}

/// Every method of nalgebra values the macro takes, for error messages:
/// those of matrices only, the built-in ones, then those shared with
/// floats.
pub fn supported_matrix_methods() -> String {
    let on = |scalars: bool| {
        RULES
            .iter()
            .filter(move |r| r.on_matrices() && r.on_scalars() == scalars)
            .filter_map(|r| r.method)
    };
    // And `mean`, `trace`, `min`: written with the sum, the length and
    // element reads (`lower::calls::written_matrix_method`), no rule of
    // their own.
    let builtins = [
        "map",
        "len",
        "nrows",
        "ncols",
        "into_owned",
        "mean",
        "trace",
        "min",
    ];
    listed(on(false).chain(builtins).chain(on(true))).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The syntax an entry answers to, as a test of the root package would
    /// write it.
    fn written(rule: &Rule) -> String {
        match (rule.operator, rule.method) {
            (Some(Operator::Add), _) => "+".into(),
            (Some(Operator::Sub | Operator::Neg), _) => "-".into(),
            (Some(Operator::Mul), _) => "*".into(),
            (Some(Operator::Div), _) => "/".into(),
            (Some(Operator::Rem), _) => "%".into(),
            (None, Some(m)) if rule.arity() == 0 => format!(".{m}()"),
            (None, Some(m)) => format!(".{m}("),
            (None, None) => rule.function.map_or_else(String::new, |f| format!("{f}(")),
        }
    }

    fn read_dir(dir: &std::path::Path) -> String {
        let mut text = String::new();
        for entry in std::fs::read_dir(dir).expect("directory exists").flatten() {
            let path = entry.path();
            if path.is_dir() {
                text.push_str(&read_dir(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                text.push_str(&std::fs::read_to_string(&path).expect("readable source"));
            }
        }
        text
    }

    #[test]
    fn every_entry_is_used_through_the_macro_by_a_test() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let tests = read_dir(&root.join("tests"));
        for rule in RULES {
            let syntax = written(rule);
            assert!(!syntax.is_empty(), "`{}` answers to no syntax", rule.name);
            // Or through `float_methods.rs`'s macro, which writes the
            // method and path forms of the method it is given.
            let tested = |m: &str| format!("unary_method!({m}: {m},");
            assert!(
                tests.contains(&syntax) || rule.method.is_some_and(|m| tests.contains(&tested(m))),
                "no test under tests/ uses `{syntax}` (rule `{}`) through the macro",
                rule.name
            );
        }
    }

    #[test]
    fn runtime_names_are_derived_from_the_stem() {
        let name = |r: &Rule, f| r.runtime(f).map(|f| f.name);
        assert_eq!(
            name(&POWF, Func::Pullback(1)).as_deref(),
            Some("pow_grad_rhs")
        );
        assert_eq!(name(&POWI, Func::Pullback(0)).as_deref(), Some("powi_grad"));
        assert_eq!(name(&POWI, Func::Pullback(1)), None);
        assert_eq!(name(&MAX, Func::Taken(1)).as_deref(), Some("max_takes_rhs"));
        assert_eq!(
            name(&CLAMP, Func::Taken(2)).as_deref(),
            Some("clamp_takes_hi")
        );
        assert_eq!(name(&ADD, Func::Taken(0)), None);
        assert_eq!(
            name(&ADD, Func::Dispatched(0, Form::Ref)).as_deref(),
            Some("add_grad_lhs_ref")
        );
        assert_eq!(name(&MUL, Func::Dispatched(0, Form::Ref)), None);
        assert_eq!(
            name(&TANH, Func::Mapped(Form::Broadcast)).as_deref(),
            Some("map_tanh_grad_broadcast")
        );
        assert_eq!(
            name(&SUM, Func::Element).as_deref(),
            Some("sum_grad_element")
        );
        assert_eq!(name(&SUM, Func::Primal), None);
    }

    #[test]
    fn error_messages_list_the_table() {
        assert_eq!(
            supported_methods(),
            "`exp`, `ln`, `sqrt`, `powi`, `powf`, `sin`, `cos`, `tanh`, `abs`, `max`, `min`, `relu`, `sigmoid`, `exp2`, `exp_m1`, `ln_1p`, `log`, `log2`, `log10`, `cbrt`, `recip`, `hypot`, `tan`, `asin`, `acos`, `atan`, `atan2`, `sinh`, `cosh`, `asinh`, `acosh`, `atanh`, `signum`, `floor`, `ceil`, `round`, `trunc`, `fract`, `rem_euclid`, `to_radians`, `to_degrees`, `clamp`, `mul_add`, `sin_cos`, and `len` on slices"
        );
        assert_eq!(
            supported_matrix_methods(),
            "`transpose`, `sum`, `max`, `component_mul`, `component_div`, `reshape_generic`, `dot`, `cross`, `norm`, `norm_squared`, `column`, `row`, `determinant`, `map`, `len`, `nrows`, `ncols`, `into_owned`, `mean`, `trace`, `min`, `relu`, `sigmoid`"
        );
    }
}
