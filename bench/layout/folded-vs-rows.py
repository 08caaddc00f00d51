#!/usr/bin/env python3
"""Times acoustic_iso8 on the vector-folded layout (folded-acoustic.cpp) against
stencilc's generated kernel on its row layout, in turn, in one run, and writes a
docs/results JSON of kind "cpu" with `times` runs (scripts/results-tables.py
cpu-times).

  bench/layout/folded-vs-rows.py OUT.json [--rounds 3] [--repeats 5]
      [--size NX,NY,NZ ...] [--stencilc build/compiler/stencilc]

Each round times every column once, in order; a column's figure is the median over
the rounds of each invocation's median of REPEATS timings. Both programs run both
threads, out of place, float, with the three time levels rotating. The folded
kernel needs AVX-512 F, NX a multiple of 16 and NY of 4; the script refuses otherwise.
"""
import argparse
import datetime
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location("record_run", ROOT / "bench" / "record-run.py")
record_run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(record_run)

# label, program, what it runs, against (index of the column it is compared with)
# A folded column's program is "folded FX": FOLD_X=FX, its `time` with BX BY DEPTH BZ.
COLUMNS = [
    ("rows, single sweep", "rows", "naive 0 0 0 1 0 0 0", None),
    ("4 × 4 folded, single sweep", "folded 4", "0 32 1 16", 0),
    ("rows, T = 8, tiles 32 × 16", "rows", "naive 0 0 0 8 0 32 16", None),
    ("4 × 4 folded, T = 8", "folded 4", "0 32 8 16", 2),
    ("16 × 1 (rows of 64-byte vectors), T = 8", "folded 16", "0 32 8 16", 2),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--size", action="append", default=None)
    ap.add_argument("--stencilc", default=str(ROOT / "build" / "compiler" / "stencilc"))
    args = ap.parse_args()
    sizes = [tuple(int(v) for v in s.split(",")) for s in (args.size or ["512,512,512", "1024,512,256"])]
    for s in sizes:
        if len(s) != 3 or s[0] % 16 or s[1] % 4 or min(s) < 9:
            sys.exit(f"folded-vs-rows: size {s} is not three extents of at least 9, x a multiple of 16, y of 4")
    flags = open("/proc/cpuinfo").read()
    if " avx512f" not in flags:
        sys.exit("folded-vs-rows: the folded kernel needs AVX-512 F, which this CPU lacks")

    work = pathlib.Path(tempfile.mkdtemp(prefix="folded-vs-rows-"))
    kept = None
    try:
        folded = work / "folded"
        cxx = os.environ.get("CXX", "g++")
        run([cxx, "-std=c++20", "-O3", "-march=native", "-fopenmp", str(HERE / "folded-acoustic.cpp"), "-o", str(folded)])
        for fx in ("4", "16"):
            run([str(folded), "check"], env=dict(os.environ, FOLD_X=fx))
        out = subprocess.run([args.stencilc, "bench", str(ROOT / "dsl-examples" / "acoustic_iso8.stencil"), "--keep",
                              "--size", "37,21,13", "--time-depths=0", "--repeats", "1"],
                             check=True, capture_output=True, text=True)
        kept = pathlib.Path(re.search(r"bench: kept (\S+)", out.stderr + out.stdout).group(1))
        harness = kept / "harness"
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        runs = []
        for size in sizes:
            nx, ny, nz = size
            started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            load_before = os.getloadavg()[0]
            samples = [[] for _ in COLUMNS]
            for _ in range(args.rounds):
                for i, (_, program, what, _) in enumerate(COLUMNS):
                    if program == "rows":
                        lines = work / "line.txt"
                        lines.write_text(what + "\n")
                        text = run([str(harness), "time", str(nx), str(ny), str(nz), "902", "random",
                                    str(args.repeats), "1", "0", str(lines)], env=env)
                        samples[i].append(float(re.search(r"timed 0 (\S+)", text).group(1)))
                    else:
                        bx, by, depth, bz = what.split()
                        steps = max(int(depth), 4)
                        text = run([str(folded), "time", str(nx), str(ny), str(nz), str(steps), str(args.repeats),
                                    bx, by, depth, bz], env=dict(env, FOLD_X=program.split()[1]))
                        samples[i].append(float(re.search(r": (\S+) s a step", text).group(1)))
            columns = []
            for (label, program, what, against), s in zip(COLUMNS, samples):
                line = (what if program == "rows" else
                        f"FOLD_X={program.split()[1]} folded time NX NY NZ STEPS {args.repeats} {what}")
                columns.append({"label": label, "line": line, "seconds": statistics.median(s),
                                "rounds": s, "against": against})
            runs.append({
                "command": f"bench/layout/folded-vs-rows.py --rounds {args.rounds} --repeats {args.repeats} --size {nx},{ny},{nz}",
                "started": started,
                "load_average_1min_before": load_before,
                "load_average_1min_after": os.getloadavg()[0],
                "times": {"stencil": "acoustic_iso8", "type": "float", "size": [nx, ny, nz],
                          "repeats": args.repeats, "columns": columns},
            })
            print(f"{nx}x{ny}x{nz}: " + ", ".join(f"{c['label']} {c['seconds']:.4f} s" for c in columns))
        # One thread, every operand in L1: the core's rate for each layout's instructions.
        one = dict(env, OMP_NUM_THREADS="1")
        text = run([str(harness), "incore", "512", "16", "16", "902", str(args.repeats)], env=one)
        incore = {"rows (naive, 32-byte vectors), harness incore 512 16 16":
                  float(re.search(r"^naive\s+\S+\s+(\S+)", text, re.M).group(1))}
        for fx in ("4", "16"):
            text = run([str(folded), "incore", "256", str(args.repeats)], env=dict(one, FOLD_X=fx))
            incore[f"fold {fx} x {16 // int(fx)}, folded incore 256"] = float(re.search(r": (\S+) GPts/s", text).group(1))
        print("in L1, one thread, GPts/s: " + ", ".join(f"{k} {v:.3f}" for k, v in incore.items()))
        commit = run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]).strip()
        doc = {
            "kind": "cpu",
            "date": datetime.date.today().isoformat(),
            "commit": commit,
            "stencilc_commit": commit,
            "note": ("rows: the bench harness that `stencilc bench dsl-examples/acoustic_iso8.stencil --keep` keeps, "
                     "its `time` on the LINE; folded: bench/layout/folded-acoustic.cpp with FOLD_X=FX (FX x by 16/FX y "
                     "points a 16-float vector), its `time` with BX BY DEPTH BZ (BY rows, BZ planes); "
                     "a time is the median over the rounds of each invocation's median, in seconds a step; a ratio "
                     "is the column it is against over this one (above 1: folded faster)"),
            "machine": record_run.machine(),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset (all cores)"),
            "runs": runs,
            "incore_gpts_per_thread": incore,
        }
        pathlib.Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if kept:
            shutil.rmtree(kept, ignore_errors=True)


if __name__ == "__main__":
    main()
