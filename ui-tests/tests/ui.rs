//! The trybuild UI suite of `#[differentiable]`: what it rejects, with the
//! exact message and span pinned in `tests/ui/<category>/*.stderr`. What
//! it accepts, `tests/ui/pass/*.rs`, are tests of their own (Cargo.toml).
//!
//! Regenerate the pinned output after an intended change with
//! `TRYBUILD=overwrite cargo test -p ui-tests --test ui`, then read every diff.

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
}

/// `Tangent` structs and methods: what they reject.
#[test]
fn ui_structs() {
    trybuild::TestCases::new().compile_fail("tests/ui/structs/*.rs");
}

/// No pinned message names a generated `__` item (a hidden module, a
/// generated local): the checks the generated code makes are named by
/// their public path, `autograd::checks`. Two files are exempt: the
/// hygiene case, whose source itself writes a generated local's name, and
/// the rule table's own check, whose source invokes the internal macro.
#[test]
fn messages_name_no_generated_item() {
    const EXEMPT: [&str; 2] = [
        "hygiene/generated-locals-are-invisible.stderr",
        "table/runtime-function-with-wrong-signature.stderr",
    ];
    let mut offenders = Vec::new();
    let mut seen = 0;
    for category in std::fs::read_dir("tests/ui").expect("tests/ui") {
        let category = category.expect("a category").path();
        let Ok(files) = std::fs::read_dir(&category) else {
            continue;
        };
        for file in files {
            let path = file.expect("a file").path();
            if path.extension().is_none_or(|e| e != "stderr") {
                continue;
            }
            seen += 1;
            let name = path
                .strip_prefix("tests/ui")
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if EXEMPT.contains(&name.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            // Quoted source lines (`12 | ...`) are the user's code; `|___^`
            // is rustc's drawing of a span, no identifier.
            let quoted_source = |l: &&str| {
                let t = l.trim_start();
                let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                digits > 0 && t[digits..].trim_start().starts_with('|')
            };
            for line in text.lines().filter(|l| !quoted_source(l)) {
                let identifier_with_prefix = line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| word.starts_with("__") && !word.trim_matches('_').is_empty());
                if identifier_with_prefix {
                    offenders.push(format!("{name}: {line}"));
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} pinned messages found");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}
