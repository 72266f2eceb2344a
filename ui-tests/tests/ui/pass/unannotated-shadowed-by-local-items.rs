//! A function declared in a body shadows the module's function of that
//! name, for every function declared beside it or deeper: the check that
//! a callee lacks `#[differentiable]` reads the module's plain `helper10`
//! only where nothing nearer can bind the name, and stays silent
//! otherwise (issue 35: the call below was "`helper10` is not
//! `#[differentiable]`").
use autograd::differentiable;

/// Plain, at module level: the bodies below shadow it.
#[allow(dead_code)]
fn helper10(v: f64) -> f64 {
    v + 100.0
}

/// Module-level functions named like the callers declared in `main`.
#[allow(dead_code)]
fn caller(x: f64) -> f64 {
    x
}

#[allow(dead_code)]
fn deeper(x: f64) -> f64 {
    x
}

fn main() {
    #[differentiable]
    fn helper10(v: f64) -> f64 {
        v * v
    }

    // Declared beside the annotated helper10: x² + x.
    #[differentiable]
    fn caller(x: f64) -> f64 {
        helper10(x) + x
    }
    assert_eq!(caller_grad(3.0), (12.0, 7.0));

    // Declared in a block, and in a function, inside main: 2x², 4x.
    {
        fn outer() -> (f64, f64) {
            #[differentiable]
            fn deeper(x: f64) -> f64 {
                helper10(x) * 2.0
            }
            deeper_grad(1.5)
        }
        assert_eq!(outer(), (4.5, 6.0));
    }
    let _ = (caller(0.0), deeper(0.0));
}
