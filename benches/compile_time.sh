#!/usr/bin/env bash
# The compile-time cost of #[differentiable]: generates two crates in a
# temporary directory, each with the same 50 numeric functions (straight-
# line scalar code, loops over slices, branches, recurrences, nested
# loops), one with `#[differentiable]` on every function and one without,
# both depending on this workspace's `autograd` by path, and times
# `cargo build` of each crate from clean (its dependencies built once
# beforehand and shared, so the figures are the crates' own cost), in the
# debug and the release profile. Prints the figures.
#
#   benches/compile_time.sh            # debug and release
#   PROFILES=debug benches/compile_time.sh
#   KEEP=1 benches/compile_time.sh     # keep the generated crates
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/autograd-compile-time.XXXXXX")"
if [[ "${KEEP:-}" != 1 ]]; then
    trap 'rm -rf "$work"' EXIT
fi
profiles="${PROFILES:-debug release}"
export CARGO_TARGET_DIR="$work/target"

# The 50 functions; ATTR is `#[differentiable]` or nothing.
functions() {
    local attr="$1"
    for i in $(seq 0 9); do
        cat <<EOF
$attr
pub fn scalar_$i(x: f64, y: f64, z: f64) -> f64 {
    let a = x * y + z * $i.5;
    let b = a.exp() / (1.0 + y * y);
    let c = (b + 1.0).ln() - x.sqrt() * a.sin();
    c * c + z.tanh() / (1.0 + x * x)
}

$attr
pub fn rosenbrock_$i(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 10$i.0 * b * b;
    }
    s
}

$attr
pub fn huber_$i(r: f64, delta: f64) -> f64 {
    let a = r.abs();
    if a <= delta + 0.$i {
        0.5 * r * r
    } else if a > 10.0 * delta {
        delta * (a - 0.5 * delta) + (a - 10.0 * delta).ln()
    } else {
        delta * (a - 0.5 * delta)
    }
}

$attr
pub fn recurrence_$i(x: &[f64], w: f64) -> f64 {
    let mut h = 0.$i;
    for i in 0..x.len() {
        h = (w * h + x[i]).tanh();
    }
    h * h
}

$attr
pub fn layer_$i(w: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..b.len() {
        let mut acc = b[i];
        for j in 0..n {
            acc += w[i * n + j] * x[j];
        }
        s += acc.tanh() * $i.0;
    }
    s
}

EOF
    done
}

make_crate() {
    local name="$1" attr="$2"
    mkdir -p "$work/$name/src"
    cat > "$work/$name/Cargo.toml" <<EOF
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
autograd = { path = "$root" }

[workspace]
EOF
    {
        echo "#![allow(clippy::all, unused_imports)]"
        echo "use autograd::differentiable;"
        echo
        functions "$attr"
    } > "$work/$name/src/lib.rs"
}

make_crate annotated "#[differentiable]"
make_crate plain ""

# Seconds, with centiseconds, that a command takes.
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

declare -A secs
for profile in $profiles; do
    flag=""
    [[ "$profile" == release ]] && flag="--release"
    # The dependencies (autograd, its macro, nalgebra, ...), once, shared.
    echo "building the dependencies ($profile) ..." >&2
    (cd "$work/plain" && cargo build $flag -q) > /dev/null 2>&1
    for name in plain annotated; do
        (cd "$work/$name" && cargo clean -p "$name" $flag -q)
        secs[$name,$profile]=$(cd "$work/$name" && timed cargo build $flag)
    done
done

lines=$(grep -c '' "$work/annotated/src/lib.rs")
echo
echo "50 functions ($lines lines), cargo build of the crate itself, dependencies prebuilt"
echo "(rustc $(rustc --version | cut -d' ' -f2), $(nproc) CPUs, $(date -u +%Y-%m-%d)):"
echo
printf '| %-8s | %-22s | %-20s | %-8s |\n' profile "with #[differentiable]" "without (plain fns)" ratio
printf '|%s|%s|%s|%s|\n' ---------- ------------------------ ---------------------- ----------
for profile in $profiles; do
    a=${secs[annotated,$profile]}
    p=${secs[plain,$profile]}
    r=$(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.1f", a / p }')
    printf '| %-8s | %20s s | %18s s | %7s× |\n' "$profile" "$a" "$p" "$r"
done
