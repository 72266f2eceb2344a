// The rule table's compile-time check, run against a runtime whose `exp`
// pullback does not read the output the table says it reads: building it
// fails at that function, at both float types.
mod rules {
    pub use autograd::__private::rules::*;

    pub fn exp_grad(grad: f64) -> f64 {
        grad
    }
}

autograd_macros::__rule_table_check!(crate::rules);

fn main() {}
