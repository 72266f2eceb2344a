#!/usr/bin/env python3
"""Reads criterion's estimates of the `gradients` bench and prints the
ratio table as Markdown: per case, every contender's time (criterion's
median, in the same run) and its ratio to the primal and to the
hand-written gradient; the gradients into caller buffers (`ours_acc`,
`NAME_grad_acc`, against `hand_acc`, the hand-written gradient adding
into buffers); then the issues' targets, each met or missed. Estimates
of the `second_order` bench's `_hvp` groups, where present, add the
table of `_hvp` ÷ `_grad` (issue 15: at most 4).

Usage: report.py CRITERION_DIR [RUN_SECONDS]   (CRITERION_DIR is
target/criterion, or $CARGO_TARGET_DIR/criterion)
"""

import datetime
import json
import os
import platform
import subprocess
import sys

CASES = [
    ("rosenbrock_n2", "Rosenbrock", "2"),
    ("rosenbrock_n10", "Rosenbrock", "10"),
    ("rosenbrock_n100", "Rosenbrock", "100"),
    ("rosenbrock_n1000", "Rosenbrock", "1000"),
    ("black_scholes", "Black–Scholes call", "5"),
    ("bond", "bond vs 60-point curve + spread", "61"),
    ("dense_loops", "dense layer 32×32, slices", "1088"),
    ("dense_nalgebra", "dense layer 32×32, nalgebra", "1088"),
    ("zspread", "z-spread (bisection, implicit)", "61"),
]
# Cases of users' code: no dynamic graph, no num-dual.
USER_CASES = [
    ("least_squares", "least squares (iterator chain)", "–"),
    ("monte_carlo", "Monte Carlo path (252 steps)", "–"),
]
CONTENDERS = ["primal", "ours", "hand", "graph", "fd", "dual"]
ACC = ["ours_acc", "hand_acc"]
HEADINGS = {
    "primal": "primal",
    "ours": "ours (`_grad`)",
    "hand": "hand-written",
    "graph": "dynamic graph",
    "fd": "central diff.",
    "dual": "num-dual",
    "ours_acc": "ours (`_grad_acc`)",
    "hand_acc": "hand-written into buffers",
}


def load(root):
    """{case: {contender: median ns}} for every estimate found."""
    out = {}
    for case, _, _ in CASES + USER_CASES:
        for c in CONTENDERS + ACC:
            path = os.path.join(root, case, c, "new", "estimates.json")
            try:
                with open(path) as f:
                    est = json.load(f)
            except FileNotFoundError:
                continue
            out.setdefault(case, {})[c] = est["median"]["point_estimate"]
    return out


# The `second_order` bench's groups of `_hvp` next to `_grad`.
HVP_CASES = [
    ("hvp_rosenbrock_n10", "Rosenbrock, n = 10"),
    ("hvp_rosenbrock_n100", "Rosenbrock, n = 100"),
    ("hvp_rosenbrock_n1000", "Rosenbrock, n = 1000"),
    ("hvp_black_scholes", "Black–Scholes call"),
    ("hvp_bond", "bond"),
    ("hvp_dense_nalgebra", "dense layer 32×32, nalgebra"),
]


def load_hvp(root):
    """{case: {"grad": median ns, "hvp": median ns}} for every estimate found."""
    out = {}
    for case, _ in HVP_CASES:
        for c in ("grad", "hvp"):
            path = os.path.join(root, case, c, "new", "estimates.json")
            try:
                with open(path) as f:
                    est = json.load(f)
            except FileNotFoundError:
                continue
            out.setdefault(case, {})[c] = est["median"]["point_estimate"]
    return out


def fmt_time(ns):
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def fmt_ratio(r):
    if r is None:
        return "–"
    if r >= 100:
        return f"{r:.0f}×"
    if r >= 10:
        return f"{r:.1f}×"
    return f"{r:.2f}×"


def ratio(t, case, a, b):
    row = t.get(case, {})
    if a in row and b in row and row[b] > 0:
        return row[a] / row[b]
    return None


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs ({platform.system()} {platform.machine()})"


def rustc():
    try:
        return subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "rustc (unknown version)"


def targets(t):
    """(description, value shown, met?) for each of the issue's targets."""
    rows = []
    for case, name, n in CASES:
        r = ratio(t, case, "ours", "primal")
        limit = 2.5 if case == "rosenbrock_n1000" else 3.0
        if r is not None:
            rows.append((f"ours ÷ primal ≤ {limit:g}: {name}, n = {n}", fmt_ratio(r), r <= limit))
    for case, name, n in CASES:
        r = ratio(t, case, "ours", "hand")
        if r is not None:
            rows.append((f"ours ÷ hand-written ≤ 1.25: {name}, n = {n}", fmt_ratio(r), r <= 1.25))
    base = ratio(t, "rosenbrock_n10", "ours", "primal")
    for n in ("100", "1000"):
        r = ratio(t, f"rosenbrock_n{n}", "ours", "primal")
        if base and r:
            rel = r / base - 1.0
            rows.append(
                (
                    f"Rosenbrock ours ÷ primal flat within ±20 % of n = 10 ({fmt_ratio(base)}) at n = {n}",
                    f"{rel:+.0%}",
                    abs(rel) <= 0.2,
                )
            )
    for case, name in (("bond", "bond"), ("rosenbrock_n1000", "Rosenbrock n = 1000")):
        for other in ("graph", "dual"):
            r = ratio(t, case, other, "ours")
            if r is not None:
                rows.append((f"≥ 10× faster than {HEADINGS[other]}: {name}", fmt_ratio(r), r >= 10))
    for case, name, n in CASES:
        r = ratio(t, case, "fd", "ours")
        if r is not None:
            rows.append((f"faster than central differences: {name}, n = {n}", fmt_ratio(r), r > 1))
    return rows


def acc_targets(t):
    """Issue 16: `_grad_acc` ÷ the hand-written gradient into buffers ≤ 1.25
    at every n ≥ 10; `_grad` ÷ hand-written ≤ 1.25 at n ≥ 100 and on
    Black–Scholes; the fused running sum ≤ 1.1 at Rosenbrock n = 1000."""
    rows = []
    for case, name, n in CASES + USER_CASES:
        if case == "rosenbrock_n2":
            continue
        r = ratio(t, case, "ours_acc", "hand_acc")
        if r is not None:
            rows.append((f"`_grad_acc` ÷ hand-written into buffers ≤ 1.25: {name}, n = {n}", fmt_ratio(r), r <= 1.25))
    for case, name, n in CASES:
        if case in ("rosenbrock_n2", "rosenbrock_n10"):
            continue
        r = ratio(t, case, "ours", "hand")
        if r is not None:
            rows.append((f"`_grad` ÷ hand-written ≤ 1.25: {name}, n = {n}", fmt_ratio(r), r <= 1.25))
    r = ratio(t, "rosenbrock_n1000", "ours", "hand")
    if r is not None:
        rows.append(("fused running sum ÷ hand-written ≤ 1.1: Rosenbrock, n = 1000", fmt_ratio(r), r <= 1.1))
    return rows


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
    seconds = sys.argv[2] if len(sys.argv) > 2 else None
    t = load(root)
    hvp = load_hvp(root)
    if not t and not hvp:
        sys.exit(f"no estimates under {root}: run `cargo bench --bench gradients` first")
    p = print
    p("# Benchmark results")
    p()
    p(f"- measured: {datetime.date.today().isoformat()}, on {machine()}")
    p(f"- toolchain: {rustc()}")
    p(
        "- command: `benches/report.sh` (`cargo bench --bench gradients -- "
        "--warm-up-time 1 --measurement-time 3`)"
        + (f", {seconds} s wall time" if seconds else "")
    )
    p("- times are criterion's median per call; every ratio is from the same run")
    p()
    p("## Time per call")
    p()
    p("| case | n | " + " | ".join(HEADINGS[c] for c in CONTENDERS) + " |")
    p("|---|---:|" + "---:|" * len(CONTENDERS))
    for case, name, n in CASES:
        row = t.get(case, {})
        cells = [fmt_time(row[c]) if c in row else "–" for c in CONTENDERS]
        p(f"| {name} | {n} | " + " | ".join(cells) + " |")
    p()
    p("## Ratio to the primal")
    p()
    gradients = CONTENDERS[1:]
    p("| case | n | " + " | ".join(HEADINGS[c] for c in gradients) + " |")
    p("|---|---:|" + "---:|" * len(gradients))
    for case, name, n in CASES:
        cells = [fmt_ratio(ratio(t, case, c, "primal")) for c in gradients]
        p(f"| {name} | {n} | " + " | ".join(cells) + " |")
    p()
    p("## Ratio to the hand-written gradient")
    p()
    others = [c for c in gradients if c != "hand"]
    p("| case | n | " + " | ".join(HEADINGS[c] for c in others) + " |")
    p("|---|---:|" + "---:|" * len(others))
    for case, name, n in CASES:
        cells = [fmt_ratio(ratio(t, case, c, "hand")) for c in others]
        p(f"| {name} | {n} | " + " | ".join(cells) + " |")
    p()
    p("## Into caller buffers (`_grad_acc`)")
    p()
    p("| case | n | " + " | ".join(HEADINGS[c] for c in ACC) + " | ratio |")
    p("|---|---:|" + "---:|" * (len(ACC) + 1))
    for case, name, n in CASES + USER_CASES:
        row = t.get(case, {})
        if not any(c in row for c in ACC):
            continue
        cells = [fmt_time(row[c]) if c in row else "–" for c in ACC]
        cells.append(fmt_ratio(ratio(t, case, "ours_acc", "hand_acc")))
        p(f"| {name} | {n} | " + " | ".join(cells) + " |")
    p()
    p("## Targets (issue 16)")
    p()
    p("| target | measured | |")
    p("|---|---:|---|")
    rows16 = acc_targets(t)
    for desc, shown, ok in rows16:
        p(f"| {desc} | {shown} | {'met' if ok else '**missed**'} |")
    p()
    p(f"{sum(1 for _, _, ok in rows16 if ok)} of {len(rows16)} targets met.")
    p()
    p("## Targets (issue 7)")
    p()
    p("| target | measured | |")
    p("|---|---:|---|")
    rows = targets(t)
    for desc, shown, ok in rows:
        p(f"| {desc} | {shown} | {'met' if ok else '**missed**'} |")
    met = sum(1 for _, _, ok in rows if ok)
    p()
    p(f"{met} of {len(rows)} targets met.")
    if hvp:
        p()
        p("## Second order (`cargo bench --bench second_order`)")
        p()
        p("| case | `_grad` | `_hvp` | `_hvp` ÷ `_grad` | target ≤ 4 (issue 15) |")
        p("|---|---:|---:|---:|---|")
        for case, name in HVP_CASES:
            row = hvp.get(case, {})
            if "grad" not in row or "hvp" not in row:
                continue
            r = row["hvp"] / row["grad"]
            met = "met" if r <= 4 else "**missed**"
            p(f"| {name} | {fmt_time(row['grad'])} | {fmt_time(row['hvp'])} | {fmt_ratio(r)} | {met} |")


if __name__ == "__main__":
    main()
