#!/usr/bin/env python3
"""The GPU model's prediction beside each measured row of device runs.

  model-vs-measured.py OUT.json --stencilc PATH --machine h200 RUN.json... [--ptxas]
                       [--analyze-arg=ARG]...

For every (stencil, type, index) the runs measured, runs
`stencilc analyze FILE --machine M --json --type T [--index I] --size S` (S: the run's grid)
and pairs each CUDA variant's `predicted_gpts` and `bound` with its measured GPts/s. A row
measured in several runs is taken from the last file given (the code as it stands). With
--ptxas the registers come from nvcc (as the machine file's calibration did). Each
--analyze-arg goes to every `analyze` (--analyze-arg=--load-ahead=0 models the kernels as
they were before `traditional` loaded its queues a plane ahead). The JSON is
what `scripts/results-tables.py` renders as the `gpu-model` table of docs/PERFORMANCE.md.
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
VARIANTS = ("gmem", "ro", "traditional", "planes")


def stencil_file(name):
    for folder in ("dsl-examples", "examples/wave"):
        path = ROOT / folder / f"{name}.stencil"
        if path.is_file():
            return path
    raise SystemExit(f"model-vs-measured: no stencil file for '{name}'")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+", help="docs/results/gpu-*.json, oldest first")
    ap.add_argument("--stencilc", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--ptxas", action="store_true")
    ap.add_argument("--analyze-arg", action="append", default=[],
                    help="an option for every `stencilc analyze` (repeatable)")
    args = ap.parse_args()

    measured = {}
    for run in args.runs:
        doc = json.loads(pathlib.Path(run).read_text())
        for r in doc["rows"]:
            if r["variant"] in VARIANTS and r.get("matches_reference", True):
                key = (r["stencil"], r["type"], r["index"])
                measured.setdefault(key, {})[r["variant"]] = (r, pathlib.Path(run).stem)
    rows = []
    for (stencil, type_, index), variants in sorted(measured.items()):
        size = next(iter(variants.values()))[0]["size"]
        size = size + [1] * (3 - len(size))
        cmd = [args.stencilc, "analyze", str(stencil_file(stencil)), "--machine", args.machine,
               "--json", "--type", type_, "--size", ",".join(map(str, size))]
        if index != "none":
            cmd += ["--index", index]
        if args.ptxas:
            cmd.append("--ptxas")
        cmd += args.analyze_arg
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"model-vs-measured: {' '.join(cmd)} failed:\n{done.stderr}")
        report = json.loads(done.stdout)[0]
        for v in report["variants"]:
            if v["name"] not in variants:
                continue
            m, stem = variants[v["name"]]
            rows.append({"stencil": stencil, "type": type_, "index": index, "variant": v["name"],
                         "predicted_gpts": v["predicted_gpts"], "bound": v["bound"],
                         "registers": v["registers"], "registers_from": v["registers_from"],
                         "measured_gpts": m["gpts_per_s"], "measured_file": stem,
                         "chosen": report.get("chosen_variant") == v["name"]})
    out = {"command": " ".join(["bench/gpu/model-vs-measured.py"] + sys.argv[1:]),
           "machine": args.machine, "analyze_args": args.analyze_arg,
           "runs": [pathlib.Path(r).stem for r in args.runs],
           "rows": rows}
    pathlib.Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    within = sum(abs(r["predicted_gpts"] / r["measured_gpts"] - 1) <= 0.25 for r in rows)
    print(f"{len(rows)} rows, {within} predicted within 25 % of the measured figure")


if __name__ == "__main__":
    main()
