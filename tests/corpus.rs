//! The corpus: functions written the way finance, scientific and ML code
//! is written, not the way the macro likes (`tests/corpus/fns/*.rs`). Each
//! file is compiled on its own, so one that the macro rejects does not
//! break the others or the build, and its `check()` compares the generated
//! gradient with central differences of the plain function.
//!
//! Run (slow, ignored by default; `CORPUS_FILTER=word` keeps the files
//! whose name contains `word`, `CORPUS_FILTER=a,b` those with either):
//!
//! ```text
//! cargo test --test corpus -- --ignored --nocapture
//! ```
//!
//! For each `fns/NAME.rs` it writes a binary crate `target/corpus/NAME/`
//! whose `main` calls `NAME::check()`, members of one generated workspace
//! sharing one lock file and one target dir (`target/corpus/target`, debug,
//! no debug info, no incremental), builds it, runs it, deletes the binary,
//! and prints a table: compiled (or the first error line), gradient right
//! (or the first mismatch), and the totals.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Outcome {
    name: String,
    compile_error: Option<String>,
    check_error: Option<String>,
}

fn first_error(stderr: &str) -> String {
    let mut lines = stderr.lines();
    let Some(head) = lines.by_ref().find(|l| l.starts_with("error")) else {
        return stderr.lines().last().unwrap_or("(no output)").to_string();
    };
    // rustc's `--> file:line:col` follows the headline; keep the file's name.
    let at = lines
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|loc| {
            let file = loc.rsplit('/').next().unwrap_or(loc);
            format!(" [{file}]")
        })
        .unwrap_or_default();
    format!("{head}{at}")
}

/// Each crate's manifest. Its nalgebra is the facade's default one
/// (`nalgebra_v0_34`): a range such as `>=0.33, <0.36` lets cargo take 0.33
/// from the copied lock, and every matrix file then fails to compile with
/// "multiple different versions of crate `nalgebra`".
fn write_crate(root: &Path, corpus: &Path, name: &str, fns_file: &Path) {
    let dir = corpus.join(name);
    fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
autograd = {{ path = "{root}" }}
nalgebra = {{ version = "0.34", default-features = false, features = ["std"] }}
num-traits = {{ version = "0.2.19", default-features = false, features = ["std"] }}
"#,
        root = root.display()
    );
    let main = format!(
        r#"#[path = "{support}"]
#[macro_use]
mod support;
#[path = "{file}"]
mod {name};

fn main() {{
    if let Err(e) = {name}::check() {{
        println!("{{e}}");
        std::process::exit(1);
    }}
}}
"#,
        support = root.join("tests/corpus/support.rs").display(),
        file = fns_file.display(),
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(&dir.join("src/main.rs"), &main);
}

/// Leaves an unchanged file's mtime alone, so cargo does not rebuild it.
fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap();
    }
}

fn run_one(corpus: &Path, target: &Path, name: &str) -> Outcome {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let build = Command::new(&cargo)
        .args(["build", "--quiet", "--offline", "-p", name])
        .current_dir(corpus)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .output()
        .expect("cargo runs");
    let mut outcome = Outcome {
        name: name.to_string(),
        compile_error: None,
        check_error: None,
    };
    if !build.status.success() {
        outcome.compile_error = Some(first_error(&String::from_utf8_lossy(&build.stderr)));
        return outcome;
    }
    let binary = target.join("debug").join(name);
    let run = Command::new(&binary).output().expect("the check runs");
    if !run.status.success() {
        // `check()` prints its mismatch on stdout; a panic leaves only stderr.
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        let message = stdout
            .lines()
            .next()
            .map(str::to_string)
            .or_else(|| {
                stderr
                    .lines()
                    .find(|l| !l.is_empty())
                    .map(|l| format!("panic: {l}"))
            })
            .unwrap_or_else(|| format!("exit {}", run.status));
        outcome.check_error = Some(message);
    }
    // Disk is short: the table is what is kept, not the binaries.
    let _ = fs::remove_file(&binary);
    outcome
}

#[test]
#[ignore = "compiles every corpus function as its own crate: minutes; run on demand"]
fn corpus() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("target/corpus");
    let target = corpus.join("target");
    let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
    let mut files: Vec<PathBuf> = fs::read_dir(root.join("tests/corpus/fns"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();

    fs::create_dir_all(&corpus).unwrap();
    for (name, file) in names.iter().zip(&files) {
        write_crate(&root, &corpus, name, file);
    }
    let members: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    write_if_changed(
        &corpus.join("Cargo.toml"),
        &format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[profile.dev]\ndebug = false\n",
            members.join(", ")
        ),
    );
    // The workspace's own versions, so the corpus builds offline.
    if !corpus.join("Cargo.lock").exists() {
        fs::copy(root.join("Cargo.lock"), corpus.join("Cargo.lock")).unwrap();
    }

    let outcomes: Vec<Outcome> = names
        .iter()
        .filter(|n| filter.split(',').any(|word| n.contains(word)))
        .map(|n| {
            let o = run_one(&corpus, &target, n);
            let status = match (&o.compile_error, &o.check_error) {
                (Some(e), _) => format!("no compile: {e}"),
                (None, Some(e)) => format!("WRONG: {e}"),
                (None, None) => "ok".into(),
            };
            eprintln!("{n}: {status}");
            o
        })
        .collect();

    let mut table = String::from("| function | compiles | gradient right |\n|---|---|---|\n");
    for o in &outcomes {
        let compiled = o.compile_error.as_ref().map_or("yes".to_string(), |e| {
            format!("no: `{}`", e.replace('`', "'"))
        });
        let right = match (&o.compile_error, &o.check_error) {
            (Some(_), _) => "-".to_string(),
            (None, None) => "yes".to_string(),
            (None, Some(e)) => format!("NO: {e}"),
        };
        writeln!(table, "| {} | {compiled} | {right} |", o.name).unwrap();
    }
    let compiled = outcomes
        .iter()
        .filter(|o| o.compile_error.is_none())
        .count();
    let right = outcomes
        .iter()
        .filter(|o| o.compile_error.is_none() && o.check_error.is_none())
        .count();
    writeln!(
        table,
        "\n{} functions: {compiled} compile ({:.0} %), {right} gradients right, {} compile with a wrong gradient",
        outcomes.len(),
        100.0 * compiled as f64 / outcomes.len().max(1) as f64,
        compiled - right
    )
    .unwrap();
    println!("{table}");
    fs::write(corpus.join("report.md"), &table).unwrap();
}
