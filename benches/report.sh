#!/usr/bin/env bash
# Runs the benchmark suite (benches/gradients.rs) and writes the ratio
# table to benches/RESULTS.md. About five minutes on two cores, plus the
# first build.
#
#   benches/report.sh                 # the whole suite
#   benches/report.sh rosenbrock      # only groups matching a filter
#   MEASURE=1 benches/report.sh       # shorter measurement (development)
#
# Honours CARGO_TARGET_DIR. Needs python3 for the table.
set -euo pipefail

cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
warm="${WARM_UP:-1}"
measure="${MEASURE:-3}"

start=$(date +%s)
cargo bench --bench gradients -- --warm-up-time "$warm" --measurement-time "$measure" "$@"
end=$(date +%s)

python3 benches/report.py "$target/criterion" "$((end - start))" > benches/RESULTS.md
cat benches/RESULTS.md
