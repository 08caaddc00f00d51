#!/usr/bin/env python3
"""The GPU model's traffic against the emulator's counters (issue 41, item 3).

  model_vs_emulator.py STENCILC CASE... [--tolerance 0.10]

CASE is FILE:TYPE:INDEX:SIZE[:ROWS] (SIZE as NX,NY,NZ; INDEX random, layered or none; ROWS:
traditional alone, at that many output rows per thread, on both sides). For each case
it runs `stencilc emulate --json` once for every CUDA variant (one counting build on the
emulator, planned for sm_90 like the H200's file) and `stencilc analyze --machine h200 --json` at the same
size and index, and fails unless every per-point count of the model is within the tolerance of
the emulator's (counts below 1e-6 on both sides are equal). Prints one line per case and variant.
"""
import argparse
import json
import subprocess
import sys

COUNTS = ("global_load_requests", "global_load_sectors", "global_store_requests",
          "global_store_sectors", "shared_requests", "shared_wavefronts", "barriers",
          "l1_distinct_sectors", "dram_bytes_estimate")
VARIANTS = ("gmem", "ro", "traditional", "planes")


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stencilc")
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    failures = []
    for case in args.cases:
        path, type_, index, size, *rows = case.split(":")
        common = ["--type", type_, "--size", size] + (["--index", index] if index != "none" else [])
        common += ["--rows", rows[0]] if rows else []
        model = run([args.stencilc, "analyze", path, "--machine", "h200", "--json"] + common)[0]
        predicted = {v["name"]: v["per_point"] for v in model["variants"]}
        variants = ["traditional"] if rows else args.variants.split(",")
        reports = run([args.stencilc, "emulate", path, "--backend", "cuda", "--arch", "sm_90",
                       "--variant", ",".join(variants), "--json"] + common)
        if isinstance(reports, dict):
            reports = [reports]
        for report in reports:
            variant, counted = report["variant"], report["per_point"]
            worst = ("", 0.0)
            for key in COUNTS:
                m, e = predicted[variant][key], counted[key]
                if max(abs(m), abs(e)) < 1e-6:
                    continue
                off = abs(m - e) / max(abs(e), 1e-12)
                if off > worst[1]:
                    worst = (key, off)
                if off > args.tolerance:
                    failures.append(f"{case} {variant}: {key} model {m:.6g}, emulator {e:.6g} "
                                    f"({off:+.1%})")
            print(f"{case} {variant}: worst {worst[0] or '-'} {worst[1]:.1%}", flush=True)
    if failures:
        sys.exit("model and emulator differ by more than "
                 f"{args.tolerance:.0%}:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
