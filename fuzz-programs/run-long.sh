#!/usr/bin/env bash
# A long differential-testing run of #[differentiable] on generated programs.
#
#   fuzz-programs/run-long.sh N SEED
#
# generates N programs from SEED (decimal or 0x-hex) in chunks of $FUZZ_CHUNK
# (1000 by default), builds and checks one chunk after another (20 points
# each, as in CI), and prints per chunk and at the end: programs generated and
# tested, points, derivatives checked, failures (gradient checks, programs
# that failed to compile, crashes) and programs skipped because they call one
# that failed to compile. A program that does not compile is excluded and the
# rest of its chunk is rebuilt and tested. Every failure is kept, with its
# messages, its full source and the command reproducing its chunk, under
# target/fuzz-failures/seed-SEED/failures/ ($FUZZ_OUT to change); the final
# line is appended to summary.txt there. Exit status 1 when anything failed.
#
#   FUZZ_CHUNK=1000     programs per build
#   FUZZ_PROFILE=fast   unoptimised, no debug info (fastest overall); `test`
#                       (the CI profile) or `release` (cargo test --release,
#                       which optimizes the programs too: a value may then
#                       differ from the primal's in its last bits, see
#                       findings/011)
#
# Run it in the background on a shared machine, e.g.
#   nohup fuzz-programs/run-long.sh 20000 7 > fuzz-7.log 2>&1 &
set -euo pipefail
if [ "$#" -ne 2 ]; then
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
exec python3 "$(dirname "$0")/long_run.py" "$1" "$2"
