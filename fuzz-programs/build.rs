//! Writes `$OUT_DIR/generated.rs`: `AUTOGRAD_FUZZ_PROGRAMS` random
//! `#[differentiable]` programs (300 by default) from the seed
//! `AUTOGRAD_FUZZ_SEED` (a fixed default), each with its source text, its
//! mirror over the dynamic graph and its table entry. See `build/gen.rs`.
//!
//! `break`, `continue` and early `return` in loop bodies, `loop` and
//! `match` are generated unless `AUTOGRAD_FUZZ_EXITS=0` (which reproduces
//! the programs of seeds run before they existed).
//!
//! One program in five is written by `build/shaped.rs` (iterator chains,
//! arrays, `Vec`s, tuples, generic functions with and without `jvp`,
//! vector results, `jvp` and `hessian`; `Tangent` structs with fields of
//! every kind in `build/fields.rs`; `hessian` on matrix arguments in
//! `build/matrix_hessian.rs`) unless `AUTOGRAD_FUZZ_SHAPED=0`, which
//! reproduces the programs of seeds run before they existed (that switch
//! and `AUTOGRAD_FUZZ_EXITS` reproduce old seeds on the generator of their
//! time: the generator's later constructs, such as `first()`/`last()` and
//! exits in a `let`'s `if`, changed every seed's programs).
//!
//! `AUTOGRAD_FUZZ_CLASSES` (`all`, the default; `none`; or a
//! comma-separated list of `cfg consts non-finite singular-det
//! signed-zeros shadowed-struct large-array sub-slice in-out unreached
//! nested-grad selection lanes const-len closures mutable-tuples`) are the classes of
//! `build/classes.rs`, drawn for a share `AUTOGRAD_FUZZ_CLASS_SHARE` (0.25
//! by default; 1 makes every program one of the listed classes) of the
//! programs, each tagged `class-NAME` in its features. `none` gives the
//! programs of the generator before the classes existed.
//!
//! `AUTOGRAD_FUZZ_EXCLUDE` (comma-separated program indices) leaves those
//! programs out, with every program that calls them: `run-long.sh` sets it
//! after a program failed to compile, to test the others. Beside
//! `generated.rs`, `programs.tsv` maps each program to its lines there (see
//! `generator::Generated::map`).

#[path = "build/ast.rs"]
mod ast;
#[path = "build/gen.rs"]
mod generator;

use std::collections::BTreeSet;
use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_PROGRAMS");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_SEED");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_EXCLUDE");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_EXITS");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_SHAPED");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_CLASSES");
    println!("cargo:rerun-if-env-changed=AUTOGRAD_FUZZ_CLASS_SHARE");
    let n = env::var("AUTOGRAD_FUZZ_PROGRAMS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(300);
    let seed = env::var("AUTOGRAD_FUZZ_SEED")
        .ok()
        .and_then(|s| {
            let s = s.trim();
            match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => s.parse().ok(),
            }
        })
        .unwrap_or(0xAD_F022);
    let exclude: BTreeSet<usize> = env::var("AUTOGRAD_FUZZ_EXCLUDE")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim()
                .parse()
                .expect("AUTOGRAD_FUZZ_EXCLUDE holds comma-separated program indices")
        })
        .collect();
    let exits = env::var("AUTOGRAD_FUZZ_EXITS").map_or(true, |v| v != "0");
    let shaped = env::var("AUTOGRAD_FUZZ_SHAPED").map_or(true, |v| v != "0");
    let classes = generator::Class::parse(&env::var("AUTOGRAD_FUZZ_CLASSES").unwrap_or_default());
    let class_share = env::var("AUTOGRAD_FUZZ_CLASS_SHARE")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0.25);
    let generated = generator::generate(n, seed, &exclude, exits, shaped, &classes, class_share);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set for build scripts"));
    fs::write(out.join("generated.rs"), generated.code).expect("write generated.rs");
    fs::write(out.join("programs.tsv"), generated.map).expect("write programs.tsv");
}
