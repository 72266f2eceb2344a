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
#   RUNS=3 benches/compile_time.sh     # the fastest of 3 builds (default 1)
#
# It ends with the tokens the macro adds to the same 50 functions, against
# the functions' own (`autograd-macros`' test `size_tests`).
set -euo pipefail
shopt -s inherit_errexit

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/autograd-compile-time.XXXXXX")"
if [[ "${KEEP:-}" != 1 ]]; then
    trap 'rm -rf "$work"' EXIT
fi
profiles="${PROFILES:-debug release}"
export CARGO_TARGET_DIR="$work/target"

# The 50 functions (benches/compile_time_functions.rs.in, which the
# macro's token-count test reads too); ATTR is `#[differentiable]` or
# nothing.
functions() {
    local attr="$1"
    for i in $(seq 0 9); do
        sed -e '/^\/\//d' -e "s/{i}/$i/g" -e "s/{attr}/$attr/g" \
            "$root/benches/compile_time_functions.rs.in"
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

# Seconds, with centiseconds, that a command takes: elapsed, then CPU
# (user and system, the compiler's threads included).
timed() {
    local TIMEFORMAT='%R %U %S' t
    t=$( { time "$@" > "$work/build.log" 2>&1; } 2>&1 ) || { cat "$work/build.log" >&2; exit 1; }
    awk '{ printf "%.2f %.2f", $1, $2 + $3 }' <<< "$t"
}

# The fastest of RUNS clean builds of crate $1 (flags after it), elapsed
# and CPU seconds each the least of the runs: on a shared machine the
# other figures are the load's, and CPU seconds are the least disturbed.
fastest() {
    local name="$1" best="" t
    shift
    for _ in $(seq "${RUNS:-1}"); do
        (cd "$work/$name" && cargo clean -p "$name" "$@" -q)
        t=$(cd "$work/$name" && timed cargo build "$@")
        best=$(awk -v t="$t" -v b="${best:-$t}" 'BEGIN {
            split(t, x, " "); split(b, y, " ");
            printf "%.2f %.2f", (x[1] < y[1] ? x[1] : y[1]), (x[2] < y[2] ? x[2] : y[2]) }')
    done
    echo "$best"
}

declare -A secs
for profile in $profiles; do
    flag=""
    [[ "$profile" == release ]] && flag="--release"
    # The dependencies (autograd, its macro, nalgebra, ...), once, shared.
    echo "building the dependencies ($profile) ..." >&2
    (cd "$work/plain" && cargo build $flag -q) > /dev/null 2>&1
    for name in plain annotated; do
        secs[$name,$profile]=$(fastest "$name" $flag)
    done
done

lines=$(grep -c '' "$work/annotated/src/lib.rs")
echo
echo "50 functions ($lines lines), cargo build of the crate itself, dependencies prebuilt"
echo "(rustc $(rustc --version | cut -d' ' -f2), $(nproc) CPUs, $(date -u +%Y-%m-%d)):"
echo
printf '| %-8s | %-22s | %-20s | %-8s | %-6s | %-12s |\n' profile "with #[differentiable]" "without (plain fns)" added ratio "CPU added"
printf '|%s|%s|%s|%s|%s|%s|\n' ---------- ------------------------ ---------------------- ---------- -------- --------------
for profile in $profiles; do
    read -r a ac <<< "${secs[annotated,$profile]}"
    read -r p pc <<< "${secs[plain,$profile]}"
    d=$(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.2f", a - p }')
    r=$(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.1f", a / p }')
    dc=$(awk -v a="$ac" -v p="$pc" 'BEGIN { printf "%.2f", a - p }')
    printf '| %-8s | %20s s | %18s s | %6s s | %5s× | %10s s |\n' "$profile" "$a" "$p" "$d" "$r" "$dc"
done
echo
unset CARGO_TARGET_DIR
tokens=$(cd "$root" && cargo test -q -p autograd-macros --lib size_tests -- --nocapture 2>&1 || true)
grep 'tokens in the 50 functions' <<< "$tokens" || echo "(the token count did not run)"
