#!/usr/bin/env python3
"""Checks `elastic --model DIR` (vp.npy, vs.npy, rho.npy) against the built-in models.

    check_model_files.py ELASTIC WORK_DIR

1. The built-in layered model (examples/elastic/ElasticModel.h: three layers below 35 % and
   65 % of the depth) written as files and run with --model DIR gives the built-in run's
   gathers and snapshots bit for bit, and the same stable limit.
2. Refused, with nothing written: a NaN (the first bad point, x fastest, is named with its
   position), a vs at or above vp / sqrt(2), a rho.npy of another shape, --size that
   disagrees with the files.
Exit status 0 when every check passes.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

import numpy as np

NX, NY, NZ = 32, 24, 40
LAYERS = [(1800, 900, 2000), (2400, 1300, 2200), (3000, 1700, 2400)]


def layered():
    """vp, vs, rho as the built-in model: C-order float32 (nz, ny, nx)."""
    k = np.arange(NZ)
    layer = (k >= NZ * 35 // 100).astype(int) + (k >= NZ * 65 // 100)
    return [np.broadcast_to(np.array([LAYERS[l][q] for l in layer], "f4")[:, None, None],
                            (NZ, NY, NX)).copy() for q in range(3)]


def save(model_dir, vp, vs, rho):
    os.makedirs(model_dir, exist_ok=True)
    for name, a in (("vp", vp), ("vs", vs), ("rho", rho)):
        np.save(os.path.join(model_dir, name + ".npy"), a)


def main():
    elastic, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = 0

    def check(ok, text):
        nonlocal failures
        failures += not ok
        print(("ok:   " if ok else "FAIL: ") + text)

    common = ["--steps=40", "--snapshot-every=20", "--png=false"]
    model_dir = os.path.join(work, "model")
    save(model_dir, *layered())
    builtin = subprocess.run([elastic, f"--size={NX}x{NY}x{NZ}", f"--out={work}/builtin"] + common,
                             check=True, capture_output=True, text=True).stdout
    files = subprocess.run([elastic, f"--model={model_dir}", f"--out={work}/files"] + common,
                           check=True, capture_output=True, text=True).stdout
    limit = [re.search(r"stable up to ([0-9.]+)", out).group(1) for out in (builtin, files)]
    check(limit[0] == limit[1], f"stable limit {limit[1]} from the files, {limit[0]} built in")
    arrays = sorted(os.path.basename(p) for p in glob.glob(f"{work}/builtin/*.npy"))
    same = [np.array_equal(np.load(f"{work}/builtin/{a}"), np.load(f"{work}/files/{a}"))
            for a in arrays]
    check(len(arrays) >= 15 and all(same),
          f"{sum(same)} of {len(arrays)} arrays bit-identical to the built-in run's")

    def refused(name, options, message):
        out = f"{work}/refused-{name}"
        r = subprocess.run([elastic, f"--out={out}"] + options + common, capture_output=True,
                           text=True)
        ok = r.returncode != 0 and message in r.stderr and not os.path.exists(out)
        check(ok, f"refused ({name}): {r.stderr.strip()}")

    vp, vs, rho = layered()
    bad = os.path.join(work, "bad")
    vs_nan = vs.copy()
    vs_nan[5, 2, 3] = np.nan
    vs_nan[9, 0, 0] = np.inf
    save(bad, vp, vs_nan, rho)
    refused("nan", [f"--model={bad}"],
            f"elastic: error: {bad}: point (3, 2, 5) (x = 30 m, y = 20 m, z = 50 m): vs = nan m/s: "
            "expected a finite positive number")
    vs_fast = vs.copy()
    vs_fast[7, 1, 4] = 1300  # vp 1800 there
    save(bad, vp, vs_fast, rho)
    refused("lambda", [f"--model={bad}"],
            f"elastic: error: {bad}: point (4, 1, 7) (x = 40 m, y = 10 m, z = 70 m): vs = 1300 m/s "
            "is not below vp / sqrt(2) = 1272.79 m/s")
    save(bad, vp, vs, rho[:, :, :-1])
    refused("shape", [f"--model={bad}"],
            f"elastic: error: {bad}/rho.npy: shape ({NZ}, {NY}, {NX - 1}), but vp.npy's is "
            f"({NZ}, {NY}, {NX})")
    refused("size", [f"--model={model_dir}", "--size=16"],
            f"elastic: error: --size 16x16x16 disagrees with {model_dir}, {NX}x{NY}x{NZ}")
    print(f"{failures} check(s) failed" if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
