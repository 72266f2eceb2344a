#!/usr/bin/env python3
"""The long fuzzing run behind run-long.sh (see there for the usage).

Runs N generated programs in chunks, one build of the `gradients` test per
chunk, one chunk after another. A chunk whose build fails is not lost: the
compiler's JSON diagnostics are mapped to the generated functions (by the
line ranges the build script writes to `programs.tsv`), those functions are
excluded (`AUTOGRAD_FUZZ_EXCLUDE`; the functions calling them go too, counted
as skipped), and the chunk is built again. A test process that dies (a crash
rather than a panic) is handled the same way, through its `progress` file.
Every failure is kept as a file holding the messages, the full source and the
command that reproduces the chunk.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

MAX_BUILDS_PER_CHUNK = 6


def chunk_seed(seed, k):
    """SplitMix64 of seed and chunk index: chunks of different runs differ."""
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def read_map(out_dir):
    programs = []
    for line in (Path(out_dir) / "programs.tsv").read_text().splitlines():
        name, start, end, src_start, src_end, status, deps = line.split("\t")
        programs.append(
            {
                "name": name,
                "index": int(name[1:]),
                "block": (int(start), int(end)),
                "src": (int(src_start), int(src_end)),
                "status": status,
                "deps": [d for d in deps.split(",") if d],
            }
        )
    return programs


def full_source(programs, generated_lines, name):
    by_name = {p["name"]: p for p in programs}
    p = by_name[name]
    parts = []
    for dep in sorted(p["deps"], key=lambda d: int(d[1:])) + [name]:
        a, b = by_name[dep]["src"]
        if a:
            parts.append("\n".join(generated_lines[a - 1 : b]))
    return "\n\n".join(parts) + "\n"


def class_tags(generated_lines, name):
    """The `class-NAME` tags of a program's features (build/classes.rs)."""
    key = f'    name: "{name}",'
    for i, line in enumerate(generated_lines):
        if line == key:
            for follow in generated_lines[i : i + 8]:
                if follow.startswith("    features: "):
                    return [t for t in follow.split('"')[1].split() if t.startswith("class-")]
    return []


def count_class_failure(totals, generated_lines, name, kind):
    for tag in class_tags(generated_lines, name) or ["(no class)"]:
        per = totals["classes"].setdefault(tag, {"gradient": 0, "compile": 0, "crash": 0})
        per[kind] += 1


def spans_in_generated(span):
    """The lines of `generated.rs` a span and its macro expansion chain touch."""
    while span is not None:
        if span["file_name"].endswith("generated.rs"):
            yield span["line_start"]
        exp = span.get("expansion")
        span = exp["span"] if exp else None


def error_lines(message):
    lines = set()
    for span in message.get("spans", []):
        lines.update(spans_in_generated(span))
    for child in message.get("children", []):
        for span in child.get("spans", []):
            lines.update(spans_in_generated(span))
    return lines


def build(env, profile_args, log):
    """Builds the test; returns (ok, out_dir, executable, errors, seconds)."""
    cmd = [
        "cargo", "test", "-p", "fuzz-programs", "--test", "gradients", "--no-run",
        "--message-format=json",
    ] + profile_args
    t0 = time.time()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.time() - t0
    log.write(proc.stderr)
    out_dir, exe, errors = None, None, []
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        reason = msg.get("reason")
        pkg = msg.get("package_id", "")
        if reason == "build-script-executed" and "fuzz-programs" in pkg:
            out_dir = msg["out_dir"]
        elif reason == "compiler-artifact" and msg["target"]["name"] == "gradients":
            exe = msg.get("executable")
        elif reason == "compiler-message" and msg["message"]["level"] in ("error", "error: internal compiler error"):
            errors.append(msg["message"])
    return proc.returncode == 0 and exe is not None, out_dir, exe, errors, seconds


def read_summary(report_dir):
    path = Path(report_dir) / "summary.tsv"
    if not path.exists():
        return None
    summary = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition("\t")
        summary[key] = value
    return summary


def run_chunk(k, size, seed, profile_args, out, totals):
    cseed = chunk_seed(seed, k)
    settings = "".join(
        f"{k}={os.environ[k]} " for k in (
            "CARGO_PROFILE_TEST_OPT_LEVEL",
            "CARGO_PROFILE_TEST_DEBUG",
            "CARGO_PROFILE_TEST_BUILD_OVERRIDE_OPT_LEVEL",
            "AUTOGRAD_FUZZ_CLASSES",
            "AUTOGRAD_FUZZ_CLASS_SHARE",
        )
        if k in os.environ
    )
    repro = (
        f"{settings}AUTOGRAD_FUZZ_PROGRAMS={size} AUTOGRAD_FUZZ_SEED={cseed:#x} "
        f"cargo test -p fuzz-programs --test gradients {' '.join(profile_args)} -- --nocapture"
    ).replace("  ", " ")
    work = out / "work" / f"chunk{k}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    log = open(work / "build.log", "w")
    exclude = {}  # index -> why
    build_seconds = 0.0
    for attempt in range(MAX_BUILDS_PER_CHUNK):
        env = dict(os.environ)
        env["AUTOGRAD_FUZZ_PROGRAMS"] = str(size)
        env["AUTOGRAD_FUZZ_SEED"] = f"{cseed:#x}"
        env["AUTOGRAD_FUZZ_EXCLUDE"] = ",".join(str(i) for i in sorted(exclude))
        ok, out_dir, exe, errors, seconds = build(env, profile_args, log)
        build_seconds += seconds
        if out_dir is None:
            raise SystemExit(f"chunk {k}: the build script did not run; see {work / 'build.log'}")
        programs = read_map(out_dir)
        generated = (Path(out_dir) / "generated.rs").read_text().splitlines()
        by_line = []
        for p in programs:
            if p["status"] == "tested":
                by_line.append((p["block"][0], p["block"][1], p["name"]))
        if not ok:
            failing = {}
            unmapped = []
            for e in errors:
                names = {n for (a, b, n) in by_line for line in error_lines(e) if a <= line <= b}
                if not names:
                    unmapped.append(e)
                for n in names:
                    text = e.get("rendered") or e["message"]
                    if text not in failing.setdefault(n, []):
                        failing[n].append(text)
            if unmapped or not failing:
                text = "\n".join(e.get("rendered") or e["message"] for e in unmapped) or "(no error mapped)"
                path = out / "failures" / f"chunk{k}-build.txt"
                path.write_text(f"chunk {k}: a build error outside any generated program\n{repro}\n\n{text}")
                totals["chunk_errors"] += 1
                print(f"  chunk {k}: build error outside the generated programs: {path}", flush=True)
                return
            deps = {p["name"]: set(p["deps"]) for p in programs}
            # A program failing because a function it calls failed is not a
            # finding of its own: it is skipped with that function.
            roots = [n for n in failing if not (deps[n] & set(failing))]
            for n in roots:
                text = "\n".join(failing[n])
                source = full_source(programs, generated, n)
                path = out / "failures" / f"chunk{k}-{n}-compile.txt"
                path.write_text(
                    f"{n} does not compile (chunk {k}; reproduce: {repro})\n\n"
                    f"--- compiler ---\n{text}\n--- source ---\n{source}"
                )
                exclude[int(n[1:])] = "compile"
                totals["compile_failures"] += 1
                count_class_failure(totals, generated, n, "compile")
                print(f"  chunk {k}: {n} does not compile: {path}", flush=True)
            continue
        report = work / "report"
        shutil.rmtree(report, ignore_errors=True)
        t0 = time.time()
        with open(work / "test.log", "w") as tlog:
            env["AUTOGRAD_FUZZ_REPORT"] = str(report)
            proc = subprocess.run(
                [exe, "--nocapture", "--test-threads=1"], env=env, stdout=tlog, stderr=subprocess.STDOUT
            )
        test_seconds = time.time() - t0
        summary = read_summary(report)
        if summary is None:
            # The process died: the last program it started is the culprit.
            started = (report / "progress").read_text().split() if (report / "progress").exists() else []
            if not started:
                raise SystemExit(f"chunk {k}: the test died before any program; see {work / 'test.log'}")
            n = started[-1]
            path = out / "failures" / f"chunk{k}-{n}-crash.txt"
            path.write_text(
                f"{n} crashed the test process (exit {proc.returncode}; chunk {k}; reproduce: {repro})\n\n"
                f"--- output ---\n{(work / 'test.log').read_text()[-4000:]}\n"
                f"--- source ---\n{full_source(programs, generated, n)}"
            )
            exclude[int(n[1:])] = "crash"
            totals["crashes"] += 1
            count_class_failure(totals, generated, n, "crash")
            print(f"  chunk {k}: {n} crashed the test: {path}", flush=True)
            continue
        failed = [n for n in summary["failed"].split(",") if n]
        for n in failed:
            src = report / "failures" / f"{n}.txt"
            dst = out / "failures" / f"chunk{k}-{n}-gradient.txt"
            dst.write_text(f"{n} failed the gradient check (chunk {k}; reproduce: {repro})\n\n{src.read_text()}")
            count_class_failure(totals, generated, n, "gradient")
            print(f"  chunk {k}: {n} failed: {dst}", flush=True)
        skipped = sum(1 for p in programs if p["status"] == "skipped")
        in_table = False
        for line in (work / "test.log").read_text().splitlines():
            if line.startswith("constructs (programs using each)"):
                in_table = True
            elif in_table and line.startswith("  "):
                feature, count = line.split()[:2]
                totals["features"][feature] = totals["features"].get(feature, 0) + int(count)
            else:
                in_table = False
        totals["generated"] += size
        totals["tested"] += int(summary["programs"])
        totals["points"] += int(summary["points"])
        totals["derivatives"] += int(summary["derivatives"])
        totals["gradient_failures"] += len(failed)
        totals["skipped"] += skipped
        totals["build_seconds"] += build_seconds
        totals["test_seconds"] += test_seconds
        print(
            f"  chunk {k} (seed {cseed:#x}): {summary['programs']} programs tested, "
            f"{summary['points']} points, {summary['derivatives']} derivatives, "
            f"{len(failed)} gradient failures, {len(exclude)} excluded, {skipped} skipped; "
            f"build {build_seconds:.0f} s, test {test_seconds:.0f} s",
            flush=True,
        )
        return
    totals["chunk_errors"] += 1
    print(f"  chunk {k}: still failing to build after {MAX_BUILDS_PER_CHUNK} builds", flush=True)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2], 0)
    chunk = int(os.environ.get("FUZZ_CHUNK", "1000"))
    profile = os.environ.get("FUZZ_PROFILE", "fast")
    profile_args = ["--release"] if profile == "release" else []
    # Each chunk rebuilds one large crate from scratch: incremental
    # compilation only slows that down. `fast` builds it unoptimised without
    # debug info, which measured fastest overall (600 programs: 88 s build +
    # 21 s test, against 231 s + 10 s in the test profile and 155 s + 6 s
    # in release). The macro itself is built optimised (`build-override`):
    # expanding a chunk is most of its build, and an optimised macro halves
    # it (300 programs: 23 s of user CPU against 42 s). The macro keeps its
    # overflow checks and debug assertions.
    os.environ["CARGO_INCREMENTAL"] = "0"
    if profile == "fast":
        os.environ["CARGO_PROFILE_TEST_OPT_LEVEL"] = "0"
        os.environ["CARGO_PROFILE_TEST_DEBUG"] = "0"
        os.environ["CARGO_PROFILE_TEST_BUILD_OVERRIDE_OPT_LEVEL"] = "3"
    root = Path(__file__).resolve().parent.parent
    out = Path(os.environ.get("FUZZ_OUT", root / "target" / "fuzz-failures" / f"seed-{seed:#x}"))
    (out / "failures").mkdir(parents=True, exist_ok=True)
    os.chdir(root)
    totals = dict.fromkeys(
        [
            "generated", "tested", "points", "derivatives", "gradient_failures",
            "compile_failures", "crashes", "skipped", "chunk_errors", "build_seconds",
            "test_seconds",
        ],
        0,
    )
    totals["features"] = {}
    totals["classes"] = {}
    chunks = (n + chunk - 1) // chunk
    print(f"{n} programs from seed {seed:#x} in {chunks} chunks of {chunk} ({profile} profile); "
          f"failures under {out / 'failures'}", flush=True)
    t0 = time.time()
    for k in range(chunks):
        run_chunk(k, min(chunk, n - k * chunk), seed, profile_args, out, totals)
    wall = time.time() - t0
    failures = totals["gradient_failures"] + totals["compile_failures"] + totals["crashes"]
    per_1000 = wall / max(totals["generated"], 1) * 1000
    summary = (
        f"seed {seed:#x}: {totals['generated']} programs generated, {totals['tested']} tested, "
        f"{totals['points']} points, {totals['derivatives']} derivatives checked; "
        f"{failures} failures ({totals['gradient_failures']} gradient checks, "
        f"{totals['compile_failures']} programs that failed to compile, {totals['crashes']} crashes), "
        f"{totals['skipped']} programs skipped (they call one that failed), "
        f"{totals['chunk_errors']} chunks lost; wall {wall / 60:.1f} min "
        f"({per_1000 / 60:.2f} min per 1000 programs; build {totals['build_seconds']:.0f} s, "
        f"test {totals['test_seconds']:.0f} s); failures under {out / 'failures'}"
    )
    tested = max(totals["tested"], 1)
    features = "".join(
        f"  {name:38} {count:7} {100 * count // tested:3}%\n"
        for name, count in sorted(totals["features"].items())
    )
    # Per class (build/classes.rs): programs tested (compile failures are
    # excluded before the test) and failures of each kind.
    tags = sorted(set(t for t in totals["features"] if t.startswith("class-")) | set(totals["classes"]))
    classes = "".join(
        f"  {t:26} {totals['features'].get(t, 0):6} tested, "
        f"{totals['classes'].get(t, {}).get('gradient', 0):4} gradient failures, "
        f"{totals['classes'].get(t, {}).get('compile', 0):4} failed to compile, "
        f"{totals['classes'].get(t, {}).get('crash', 0):4} crashes\n"
        for t in tags
    )
    print(f"constructs (programs using each):\n{features}classes:\n{classes}{summary}", flush=True)
    (out / "classes.txt").write_text(classes)
    (out / "features.txt").write_text(features)
    with open(out / "summary.txt", "a") as f:
        f.write(summary + "\n")
    sys.exit(1 if failures or totals["chunk_errors"] else 0)


if __name__ == "__main__":
    main()
