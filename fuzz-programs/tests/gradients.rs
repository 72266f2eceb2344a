//! Differential test of `#[differentiable]` on random programs.
//!
//! `build.rs` writes `AUTOGRAD_FUZZ_PROGRAMS` programs (300 by default);
//! each is checked at `SAMPLES` points away from kinks (see
//! `fuzz_programs::check`): the value of `NAME_grad`/`NAME_vjp` bit for bit
//! against the primal (the package is built at opt-level 0, where no float
//! call is evaluated at compile time: see `exact_values.rs`), the adjoint
//! against the dynamic graph
//! (`Tolerances::F64.graph` = 1e-9 relative to max(1, |a|, |b|); 2e-3 for
//! `f32`) and against central finite differences (1e-6·max(1, |f|) +
//! 1e-5 relative; 5e-3·max(1, |f|) + 2e-2 for `f32`), and `NAME_vjp` with
//! seed 2 against twice the gradient. A failure prints the program's source
//! with every generated function it calls.
//!
//! With `AUTOGRAD_FUZZ_REPORT` set to a directory (`run-long.sh` sets it),
//! the test also writes there `progress` (the program being checked, so a
//! crash names it), `summary.tsv` (the counts) and `failures/NAME.txt` (the
//! messages and the full source of each failing program).

#[allow(
    // Generated code: whatever the generator happens to write (the macro's
    // own output is held to clippy by the workspace's other tests).
    dead_code,
    unused_variables,
    unused_mut,
    unused_assignments,
    unused_parens,
    unused_imports,
    double_negations,
    clippy::all
)]
mod generated {
    // The import shapes users write: the programs call `stop_gradient`,
    // `autograd::stop_gradient`, `::autograd::stop_gradient` and
    // `ag::stop_gradient`.
    use autograd as ag;
    use autograd::differentiable;
    use autograd::prelude::*;
    use autograd::stop_gradient;
    use fuzz_programs::{Entry, Input, Mat, Mirror, V, mat};
    use nalgebra::{DMatrix, DVector};

    include!(concat!(env!("OUT_DIR"), "/generated.rs"));
}

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;

use fuzz_programs::check;
use generated::{ENTRIES, FEATURE_COUNTS};

/// Points checked per program.
const SAMPLES: usize = 20;

#[test]
fn generated_programs_have_correct_gradients() {
    let report_dir = std::env::var_os("AUTOGRAD_FUZZ_REPORT").map(PathBuf::from);
    let mut progress = report_dir.as_ref().map(|d| {
        fs::create_dir_all(d.join("failures")).expect("create the report directory");
        fs::File::create(d.join("progress")).expect("create the progress file")
    });
    let mut failures = Vec::new();
    let mut failed_names = Vec::new();
    let (mut accepted, mut rejected, mut second, mut unresolved) = (0, 0, 0, 0);
    let (mut kink_points, mut fd_skipped_at_kinks) = (0, 0);
    let mut derivatives = 0;
    let mut short = Vec::new();
    for entry in ENTRIES {
        if let Some(p) = progress.as_mut() {
            writeln!(p, "{}", entry.name).expect("write the progress file");
            p.flush().expect("flush the progress file");
        }
        let report = std::panic::catch_unwind(|| check(entry, 0x5EED, SAMPLES));
        let failures_before = failures.len();
        match report {
            Ok(r) => {
                derivatives += r.accepted * entry.n_differentiable();
                accepted += r.accepted;
                rejected += r.rejected;
                second += r.fd_second_tries;
                unresolved += r.fd_unresolved;
                kink_points += r.kink_points;
                fd_skipped_at_kinks += r.fd_skipped_at_kinks;
                if r.accepted < SAMPLES && r.failures.is_empty() {
                    short.push(format!("{} ({})", entry.name, r.accepted));
                }
                if !r.failures.is_empty() {
                    failures.push(format!(
                        "{}\n--- features ---\n{}\n--- source ---\n{}",
                        r.failures.join("\n"),
                        entry.features,
                        entry.full_source(ENTRIES)
                    ));
                }
            }
            Err(payload) => {
                // The checks generated wrappers make themselves (the sparse
                // Hessian, in-out arguments left as the function leaves
                // them) fail by panicking: their message is the failure's.
                let message = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(message above)");
                failures.push(format!(
                    "{} panicked: {message}\n--- features ---\n{}\n--- source ---\n{}",
                    entry.name,
                    entry.features,
                    entry.full_source(ENTRIES)
                ))
            }
        }
        if failures.len() > failures_before {
            failed_names.push(entry.name);
            if let Some(d) = &report_dir {
                let file = d.join("failures").join(format!("{}.txt", entry.name));
                fs::write(file, &failures[failures_before]).expect("write a failure");
            }
        }
    }
    println!(
        "{} programs, {accepted} points checked ({derivatives} derivatives), \
         {kink_points} of them drawn at kinks ({fd_skipped_at_kinks} finite differences \
         straddling one not taken), {rejected} points skipped near kinks, \
         {second} components needed a second finite-difference estimate, \
         {unresolved} were not resolvable by finite differences",
        ENTRIES.len()
    );
    if let Some(d) = &report_dir {
        let summary = format!(
            "programs\t{}\npoints\t{accepted}\nderivatives\t{derivatives}\n\
             skipped_points\t{rejected}\nsecond_estimates\t{second}\n\
             unresolved\t{unresolved}\nfailed\t{}\n",
            ENTRIES.len(),
            failed_names.join(",")
        );
        fs::write(d.join("summary.tsv"), summary).expect("write the summary");
    }
    if !short.is_empty() {
        println!(
            "{} programs had fewer than {SAMPLES} usable points: {}",
            short.len(),
            short.join(", ")
        );
    }
    println!("constructs (programs using each):");
    for (feature, count) in FEATURE_COUNTS {
        let percent = 100 * count / ENTRIES.len().max(1);
        println!("  {feature:38} {count:6} {percent:3}%");
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n\n{}",
        failures.len(),
        ENTRIES.len(),
        failures.join("\n\n==========\n\n")
    );
    assert!(
        accepted >= ENTRIES.len() * SAMPLES * 9 / 10,
        "too few points checked: {accepted}"
    );
}

/// `run-long.sh` maps compiler errors to programs through the line ranges
/// of `programs.tsv`: each tested program's source range must hold exactly
/// its `#[differentiable] fn`, inside its block, blocks in order and apart.
#[test]
fn program_map_matches_the_generated_file() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/generated.rs"));
    let map = include_str!(concat!(env!("OUT_DIR"), "/programs.tsv"));
    let lines: Vec<&str> = generated.lines().collect();
    let mut tested = Vec::new();
    let mut previous_end = 0;
    for row in map.lines() {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 7, "a programs.tsv row: {row}");
        let name = cols[0];
        let num = |i: usize| -> usize { cols[i].parse().expect("a line number") };
        let (start, end, src_start, src_end) = (num(1), num(2), num(3), num(4));
        if cols[5] != "tested" {
            assert_eq!((start, end), (0, 0), "{name} is left out");
            continue;
        }
        tested.push(name);
        assert!(previous_end < start && start < src_start && src_start < src_end && src_end < end);
        assert_eq!(lines[start - 1], format!("// ---- {name} ----"));
        // A function with its attribute, or (`shaped` methods) a struct
        // with the `impl` holding the program; class `consts` programs
        // start with their module-level items.
        assert!(
            ["#[", "const ", "static "]
                .iter()
                .any(|p| lines[src_start - 1].starts_with(p))
        );
        assert!(lines[src_start - 1..src_end].iter().any(|l| {
            let l = l.trim_start();
            l.starts_with(&format!("fn {name}(")) || l.starts_with(&format!("fn {name}<"))
        }));
        assert_eq!(lines[src_end - 1], "}");
        let entry = ENTRIES.iter().find(|e| e.name == name).expect("an entry");
        assert_eq!(
            lines[src_start - 1..src_end].join("\n") + "\n",
            entry.source,
            "{name}'s source range"
        );
        previous_end = end;
    }
    let names: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
    assert_eq!(tested, names);
}
