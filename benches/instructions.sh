#!/usr/bin/env bash
# Instructions per call of the primal, our gradient and the hand-written
# gradient of every benchmark case, returning its result (`ours`, `hand`)
# and adding into caller buffers (`ours_acc` = `NAME_grad_acc`,
# `hand_acc`), counted by valgrind's callgrind:
# deterministic, so unlike wall times they do not depend on what else the
# machine is doing, and a change to the generated code shows up exactly.
# (Instructions are not time: a loop stalled on memory, or on a chain of
# dependent operations, costs more than its count says.)
#
#   benches/instructions.sh            # prints a Markdown table
#   CASES="bond zspread" benches/instructions.sh   # some cases only
#
# Each figure is (Ir(110 calls) − Ir(10 calls)) / 100, with the bench
# binary run as `BENCH_CALLS=case/contender/count`. Needs valgrind.
set -euo pipefail

cd "$(dirname "$0")/.."
exe=$(cargo bench --bench gradients --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gradients":
        print(m["executable"])')

cases=${CASES:-"rosenbrock_n2 rosenbrock_n10 rosenbrock_n100 rosenbrock_n1000 black_scholes bond dense_loops dense_nalgebra zspread least_squares monte_carlo"}
contenders="primal ours hand ours_acc hand_acc"

ir() {
    BENCH_CALLS="$1/$2/$3" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" 2>&1 |
        awk '/Collected/ { print $4 }'
}

echo "| case | primal | ours | hand-written | ours ÷ primal | ours ÷ hand-written | ours_acc | hand_acc | ours_acc ÷ hand_acc |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for case in $cases; do
    declare -A per=()
    for who in $contenders; do
        a=$(ir "$case" "$who" 10)
        b=$(ir "$case" "$who" 110)
        per[$who]=$(((b - a) / 100))
    done
    awk -v c="$case" -v p="${per[primal]}" -v o="${per[ours]}" -v h="${per[hand]}" \
        -v oa="${per[ours_acc]}" -v ha="${per[hand_acc]}" \
        'BEGIN { printf "| %s | %d | %d | %d | %.2f× | %.2f× | %d | %d | %.2f× |\n", c, p, o, h, o / p, o / h, oa, ha, oa / ha }'
done
