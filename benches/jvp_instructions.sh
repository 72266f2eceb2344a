#!/usr/bin/env bash
# Instructions per call of the primal and of `NAME_jvp` (one direction) for
# every case of benches/jvp.rs, counted by valgrind's callgrind: unlike wall
# times they do not depend on what else the machine is doing. (Instructions
# are not time: a chain of dependent operations costs more than its count.)
#
#   benches/jvp_instructions.sh            # prints a Markdown table
#
# Each figure is (Ir(110 calls) − Ir(10 calls)) / 100, with the bench
# binary run as `BENCH_CALLS=case/contender/count`. Needs valgrind.
set -euo pipefail

cd "$(dirname "$0")/.."
exe=$(cargo bench --bench jvp --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "jvp":
        print(m["executable"])')

cases=${CASES:-"rosenbrock_n2 rosenbrock_n10 rosenbrock_n100 rosenbrock_n1000 black_scholes bond dense_loops dense_nalgebra zspread"}

ir() {
    BENCH_CALLS="$1/$2/$3" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" 2>&1 |
        awk '/Collected/ { print $4 }'
}

echo "| case | primal | _jvp | _jvp ÷ primal |"
echo "|---|---:|---:|---:|"
for case in $cases; do
    declare -A per=()
    for who in primal jvp; do
        a=$(ir "$case" "$who" 10)
        b=$(ir "$case" "$who" 110)
        per[$who]=$(((b - a) / 100))
    done
    awk -v c="$case" -v p="${per[primal]}" -v j="${per[jvp]}" \
        'BEGIN { printf "| %s | %d | %d | %.2f× |\n", c, p, j, j / p }'
done
