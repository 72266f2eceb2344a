//! The trybuild UI suite of `#[differentiable]`: what it rejects, with the
//! exact message and span pinned in `tests/ui/<category>/*.stderr`, and
//! what it accepts, with values checked against closed forms.
//!
//! Regenerate the pinned output after an intended change with
//! `TRYBUILD=overwrite cargo test --test ui`, then read every diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    // Misuses, one per file, by category.
    t.compile_fail("tests/ui/args/*.rs");
    t.compile_fail("tests/ui/syntax/*.rs");
    t.compile_fail("tests/ui/ops/*.rs");
    t.compile_fail("tests/ui/types/*.rs");
    t.compile_fail("tests/ui/hygiene/*.rs");
    t.compile_fail("tests/ui/calls/*.rs");
    t.compile_fail("tests/ui/control/*.rs");
    t.compile_fail("tests/ui/jvp/*.rs");
    t.compile_fail("tests/ui/iterators/*.rs");
    t.compile_fail("tests/ui/hessian/*.rs");
    // The rule table's compile-time check against a broken runtime.
    t.compile_fail("tests/ui/table/*.rs");
    // Programs that must compile and compute the right values.
    t.pass("tests/ui/pass/*.rs");
}

/// `Tangent` structs and methods: what they reject.
#[test]
fn ui_structs() {
    trybuild::TestCases::new().compile_fail("tests/ui/structs/*.rs");
}
