//! Which syntax maps to which runtime rule, with its arity and what each
//! backward function reads. The macro knows only this catalog, never the
//! math: every formula lives once, in `autograd_runtime::rules`.

/// A primal value a backward function reads, besides the output adjoint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// The operation's operand at this position.
    Arg(usize),
    /// The operation's result.
    Out,
}

/// The backward function of one differentiable operand.
#[derive(Debug)]
pub struct Grad {
    /// Name of the runtime function in `rules`.
    pub func: &'static str,
    /// Arguments after the output adjoint, in order.
    pub reads: &'static [Read],
}

/// One rule: an operation with one backward function per operand.
#[derive(Debug)]
pub struct Rule {
    /// Name in the text form of the IR.
    pub name: &'static str,
    /// One entry per operand; `None` for an operand that gets no adjoint
    /// (the integer exponent of `powi`).
    pub grads: &'static [Option<Grad>],
}

use Read::{Arg, Out};

macro_rules! grad {
    ($func:literal $(, $read:expr)*) => {
        Some(Grad { func: $func, reads: &[$($read),*] })
    };
}

pub static ADD: Rule = Rule {
    name: "add",
    grads: &[grad!("add_grad_lhs"), grad!("add_grad_rhs")],
};
pub static SUB: Rule = Rule {
    name: "sub",
    grads: &[grad!("sub_grad_lhs"), grad!("sub_grad_rhs")],
};
pub static MUL: Rule = Rule {
    name: "mul",
    grads: &[grad!("mul_grad_lhs", Arg(1)), grad!("mul_grad_rhs", Arg(0))],
};
pub static DIV: Rule = Rule {
    name: "div",
    grads: &[
        grad!("div_grad_lhs", Arg(1)),
        grad!("div_grad_rhs", Arg(1), Out),
    ],
};
pub static NEG: Rule = Rule {
    name: "neg",
    grads: &[grad!("neg_grad")],
};
pub static POWF: Rule = Rule {
    name: "powf",
    grads: &[
        grad!("pow_grad_lhs", Arg(0), Arg(1)),
        grad!("pow_grad_rhs", Arg(0), Out),
    ],
};
pub static POWI: Rule = Rule {
    name: "powi",
    grads: &[grad!("powi_grad", Arg(0), Arg(1)), None],
};
pub static MAX: Rule = Rule {
    name: "max",
    grads: &[
        grad!("max_grad_lhs", Arg(0), Arg(1)),
        grad!("max_grad_rhs", Arg(0), Arg(1)),
    ],
};
pub static MIN: Rule = Rule {
    name: "min",
    grads: &[
        grad!("min_grad_lhs", Arg(0), Arg(1)),
        grad!("min_grad_rhs", Arg(0), Arg(1)),
    ],
};
pub static EXP: Rule = Rule {
    name: "exp",
    grads: &[grad!("exp_grad", Out)],
};
pub static LN: Rule = Rule {
    name: "ln",
    grads: &[grad!("ln_grad", Arg(0))],
};
pub static SQRT: Rule = Rule {
    name: "sqrt",
    grads: &[grad!("sqrt_grad", Out)],
};
pub static SIN: Rule = Rule {
    name: "sin",
    grads: &[grad!("sin_grad", Arg(0))],
};
pub static COS: Rule = Rule {
    name: "cos",
    grads: &[grad!("cos_grad", Arg(0))],
};
pub static TANH: Rule = Rule {
    name: "tanh",
    grads: &[grad!("tanh_grad", Out)],
};
pub static ABS: Rule = Rule {
    name: "abs",
    grads: &[grad!("abs_grad", Arg(0))],
};
pub static RELU: Rule = Rule {
    name: "relu",
    grads: &[grad!("relu_grad", Arg(0))],
};
pub static SIGMOID: Rule = Rule {
    name: "sigmoid",
    grads: &[grad!("sigmoid_grad", Out)],
};

/// Scalar methods by name and number of arguments after the receiver.
pub fn scalar_method(name: &str, arity: usize) -> Option<&'static Rule> {
    Some(match (name, arity) {
        ("exp", 0) => &EXP,
        ("ln", 0) => &LN,
        ("sqrt", 0) => &SQRT,
        ("sin", 0) => &SIN,
        ("cos", 0) => &COS,
        ("tanh", 0) => &TANH,
        ("abs", 0) => &ABS,
        ("relu", 0) => &RELU,
        ("sigmoid", 0) => &SIGMOID,
        ("powi", 1) => &POWI,
        ("powf", 1) => &POWF,
        ("max", 1) => &MAX,
        ("min", 1) => &MIN,
        _ => return None,
    })
}

/// Every method name the macro differentiates, for error messages.
pub const SUPPORTED_METHODS: &str = "`exp`, `ln`, `sqrt`, `powi`, `powf`, `sin`, `cos`, `tanh`, `abs`, `max`, `min`, `relu`, `sigmoid`, and `len` on slices";

/// Every rule the catalog holds, for the drift test.
pub fn all_rules() -> [&'static Rule; 18] {
    [
        &ADD, &SUB, &MUL, &DIV, &NEG, &POWF, &POWI, &MAX, &MIN, &EXP, &LN, &SQRT, &SIN, &COS,
        &TANH, &ABS, &RELU, &SIGMOID,
    ]
}
