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

/// What a dispatched backward function takes after the output adjoint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: the adjoint passes through (`+`, `-`), so no operand is
    /// kept for the reverse sweep. The left operand's adjoint is the output
    /// adjoint itself, which the `BASE_grad_lhs_ref` form lends.
    Nothing,
    /// The operands, not the output (`*`).
    Operands,
    /// The operands and the output.
    OperandsAndOut,
}

/// One rule: an operation with one backward function per operand.
///
/// Two forms of each backward exist in the runtime. The scalar form
/// (`grads`, in `rules`) takes values and reads only what its formula needs;
/// the macro uses it when every operand is an `f32`/`f64`. The dispatched
/// form (`generic`, in `rules::generic`) takes references to the output
/// adjoint and then what [`Rule::takes`] says, and lets trait resolution
/// pick the scalar or the matrix rule: for nalgebra values and results of
/// calls. Each dispatched function `F` also has `F_acc(&mut adjoint, ..)`,
/// adding in place, and `F_owned(grad, ..)`, taking the output adjoint by
/// value.
#[derive(Debug)]
pub struct Rule {
    /// Name in the text form of the IR.
    pub name: &'static str,
    /// Scalar backward functions, one entry per operand; `None` for an
    /// operand that gets no adjoint (the integer exponent of `powi`). Empty
    /// for a rule without a scalar form.
    pub grads: &'static [Option<Grad>],
    /// Which operands get an adjoint.
    pub diff: &'static [bool],
    /// Base name of the dispatched backward functions: `BASE_grad` for a
    /// rule with one differentiable operand, `BASE_grad_lhs` / `_rhs` for two.
    pub generic: &'static str,
    /// The arguments of the dispatched backward functions after the output
    /// adjoint. The `m.map(f)` form takes what the scalar rule reads.
    pub takes: Takes,
    /// A method of `autograd::prelude`'s traits rather than an inherent
    /// one: the sweeps call it with those traits in scope, so a method of
    /// the same name from a user's trait is ambiguous there (a compile
    /// error) instead of silently differentiated as ours.
    pub from_prelude: bool,
}

impl Rule {
    /// What the dispatched backward function of differentiable operand `k`
    /// takes after the output adjoint, in order; `map` for the `m.map(f)`
    /// form, which takes what the scalar rule reads.
    pub fn generic_reads(&self, k: usize, map: bool) -> Vec<Read> {
        let n = self.diff.len();
        if map {
            let operand = self.diff.iter().enumerate().filter(|(_, d)| **d).nth(k);
            return operand
                .and_then(|(i, _)| self.grads.get(i))
                .and_then(Option::as_ref)
                .map_or_else(Vec::new, |g| g.reads.to_vec());
        }
        match self.takes {
            Takes::Nothing => Vec::new(),
            Takes::Operands => (0..n).map(Read::Arg).collect(),
            Takes::OperandsAndOut => (0..n).map(Read::Arg).chain([Read::Out]).collect(),
        }
    }

    /// The dispatched backward function of differentiable operand `i`.
    pub fn generic_func(&self, i: usize) -> String {
        let n = self.diff.iter().filter(|d| **d).count();
        match (n, i) {
            (1, _) => format!("{}_grad", self.generic),
            (_, 0) => format!("{}_grad_lhs", self.generic),
            _ => format!("{}_grad_rhs", self.generic),
        }
    }
}

use Read::{Arg, Out};
use Takes::{Nothing, Operands, OperandsAndOut};

macro_rules! grad {
    ($func:literal $(, $read:expr)*) => {
        Some(Grad { func: $func, reads: &[$($read),*] })
    };
}

pub static ADD: Rule = Rule {
    name: "add",
    grads: &[grad!("add_grad_lhs"), grad!("add_grad_rhs")],
    diff: &[true, true],
    generic: "add",
    takes: Nothing,
    from_prelude: false,
};
pub static SUB: Rule = Rule {
    name: "sub",
    grads: &[grad!("sub_grad_lhs"), grad!("sub_grad_rhs")],
    diff: &[true, true],
    generic: "sub",
    takes: Nothing,
    from_prelude: false,
};
pub static MUL: Rule = Rule {
    name: "mul",
    grads: &[grad!("mul_grad_lhs", Arg(1)), grad!("mul_grad_rhs", Arg(0))],
    diff: &[true, true],
    generic: "mul",
    takes: Operands,
    from_prelude: false,
};
pub static DIV: Rule = Rule {
    name: "div",
    grads: &[
        grad!("div_grad_lhs", Arg(1)),
        grad!("div_grad_rhs", Arg(1), Out),
    ],
    diff: &[true, true],
    generic: "div",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static NEG: Rule = Rule {
    name: "neg",
    grads: &[grad!("neg_grad")],
    diff: &[true],
    generic: "neg",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static POWF: Rule = Rule {
    name: "powf",
    grads: &[
        grad!("pow_grad_lhs", Arg(0), Arg(1)),
        grad!("pow_grad_rhs", Arg(0), Out),
    ],
    diff: &[true, true],
    generic: "pow",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static POWI: Rule = Rule {
    name: "powi",
    grads: &[grad!("powi_grad", Arg(0), Arg(1)), None],
    diff: &[true, false],
    generic: "powi",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static MAX: Rule = Rule {
    name: "max",
    grads: &[
        grad!("max_grad_lhs", Arg(0), Arg(1)),
        grad!("max_grad_rhs", Arg(0), Arg(1)),
    ],
    diff: &[true, true],
    generic: "max",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static MIN: Rule = Rule {
    name: "min",
    grads: &[
        grad!("min_grad_lhs", Arg(0), Arg(1)),
        grad!("min_grad_rhs", Arg(0), Arg(1)),
    ],
    diff: &[true, true],
    generic: "min",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static EXP: Rule = Rule {
    name: "exp",
    grads: &[grad!("exp_grad", Out)],
    diff: &[true],
    generic: "exp",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static LN: Rule = Rule {
    name: "ln",
    grads: &[grad!("ln_grad", Arg(0))],
    diff: &[true],
    generic: "ln",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static SQRT: Rule = Rule {
    name: "sqrt",
    grads: &[grad!("sqrt_grad", Out)],
    diff: &[true],
    generic: "sqrt",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static SIN: Rule = Rule {
    name: "sin",
    grads: &[grad!("sin_grad", Arg(0))],
    diff: &[true],
    generic: "sin",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static COS: Rule = Rule {
    name: "cos",
    grads: &[grad!("cos_grad", Arg(0))],
    diff: &[true],
    generic: "cos",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static TANH: Rule = Rule {
    name: "tanh",
    grads: &[grad!("tanh_grad", Out)],
    diff: &[true],
    generic: "tanh",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static ABS: Rule = Rule {
    name: "abs",
    grads: &[grad!("abs_grad", Arg(0))],
    diff: &[true],
    generic: "abs",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static RELU: Rule = Rule {
    name: "relu",
    grads: &[grad!("relu_grad", Arg(0))],
    diff: &[true],
    generic: "relu",
    takes: OperandsAndOut,
    from_prelude: true,
};
pub static SIGMOID: Rule = Rule {
    name: "sigmoid",
    grads: &[grad!("sigmoid_grad", Out)],
    diff: &[true],
    generic: "sigmoid",
    takes: OperandsAndOut,
    from_prelude: true,
};

// Rules of nalgebra values only: no scalar form.
pub static TRANSPOSE: Rule = Rule {
    name: "transpose",
    grads: &[],
    diff: &[true],
    generic: "transpose",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static SUM: Rule = Rule {
    name: "sum",
    grads: &[],
    diff: &[true],
    generic: "sum",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static MAX_ELEMENT: Rule = Rule {
    name: "max_element",
    grads: &[],
    diff: &[true],
    generic: "max_element",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static COMPONENT_MUL: Rule = Rule {
    name: "component_mul",
    grads: &[],
    diff: &[true, true],
    generic: "component_mul",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static COMPONENT_DIV: Rule = Rule {
    name: "component_div",
    grads: &[],
    diff: &[true, true],
    generic: "component_div",
    takes: OperandsAndOut,
    from_prelude: false,
};
pub static RESHAPE: Rule = Rule {
    name: "reshape",
    grads: &[],
    diff: &[true, false, false],
    generic: "reshape",
    takes: OperandsAndOut,
    from_prelude: false,
};

/// Methods of nalgebra values by name and number of arguments.
pub fn matrix_method(name: &str, arity: usize) -> Option<&'static Rule> {
    Some(match (name, arity) {
        ("transpose", 0) => &TRANSPOSE,
        ("sum", 0) => &SUM,
        ("max", 0) => &MAX_ELEMENT,
        ("component_mul", 1) => &COMPONENT_MUL,
        ("component_div", 1) => &COMPONENT_DIV,
        ("reshape_generic", 2) => &RESHAPE,
        ("relu", 0) => &RELU,
        ("sigmoid", 0) => &SIGMOID,
        _ => return None,
    })
}

/// Every matrix method the macro differentiates, for error messages.
pub const SUPPORTED_MATRIX_METHODS: &str = "`transpose`, `sum`, `max`, `component_mul`, `component_div`, `reshape_generic`, `map`, `relu`, `sigmoid`";

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
#[cfg(test)]
pub fn all_rules() -> [&'static Rule; 24] {
    [
        &ADD,
        &SUB,
        &MUL,
        &DIV,
        &NEG,
        &POWF,
        &POWI,
        &MAX,
        &MIN,
        &EXP,
        &LN,
        &SQRT,
        &SIN,
        &COS,
        &TANH,
        &ABS,
        &RELU,
        &SIGMOID,
        &TRANSPOSE,
        &SUM,
        &MAX_ELEMENT,
        &COMPONENT_MUL,
        &COMPONENT_DIV,
        &RESHAPE,
    ]
}

#[cfg(test)]
mod drift {
    //! Every catalog entry has its rules in the runtime and is exercised
    //! through the macro by the root package's tests.

    use std::fs;
    use std::path::Path;

    fn read_dir(dir: &Path) -> String {
        let mut text = String::new();
        for entry in fs::read_dir(dir).expect("directory exists").flatten() {
            let path = entry.path();
            if path.is_dir() {
                text.push_str(&read_dir(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                text.push_str(&fs::read_to_string(&path).expect("readable source"));
            }
        }
        text
    }

    fn mentions(text: &str, word: &str) -> bool {
        text.match_indices(word).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            let boundary = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            boundary(before) && boundary(after)
        })
    }

    #[test]
    fn every_rule_exists_in_the_runtime_and_is_tested_through_the_macro() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let rules = read_dir(&root.join("autograd-runtime/src/rules"));
        let tests = read_dir(&root.join("tests"));
        for rule in super::all_rules() {
            for grad in rule.grads.iter().flatten() {
                assert!(
                    rules.contains(&format!("pub fn {}", grad.func)),
                    "scalar rule `{}` of `{}` is missing from the runtime",
                    grad.func,
                    rule.name
                );
            }
            for k in 0..rule.diff.iter().filter(|d| **d).count() {
                let func = rule.generic_func(k);
                assert!(
                    mentions(&rules, &func),
                    "dispatched rule `{func}` of `{}` is missing from rules::generic",
                    rule.name
                );
            }
            let syntax = match rule.name {
                "add" => "+".to_string(),
                "sub" | "neg" => "-".to_string(),
                "mul" => "*".to_string(),
                "div" => "/".to_string(),
                "max_element" => ".max()".to_string(),
                "reshape" => ".reshape_generic(".to_string(),
                name => format!(".{name}("),
            };
            assert!(
                tests.contains(&syntax),
                "no test under tests/ uses `{syntax}` (rule `{}`) through the macro",
                rule.name
            );
        }
    }
}
