#!/usr/bin/env python3
"""Checks the coupled step's stable limit that `elastic` computes against the kernel itself.

    check_stable_limit.py ELASTIC OUT_DIR

Runs ELASTIC once to read the limit it prints ("stable up to C"), then 200 steps on a
homogeneous 24^3 grid with no sponge at 0.98 C and at 1.02 C (--allow-unstable). Below the
limit the wavefield must stay bounded: every sample finite and the largest |U|, |V|, |W| of
the last 50 samples on every receiver line no more than 10 times the largest before. Above,
it must blow up: a sample not finite, or that ratio above 1e6 (the unstable mode grows by
about 1.3 per step there). Exit status 0 when both hold.
"""
import glob
import re
import subprocess
import sys

import numpy as np


def run(elastic, out, courant, allow):
    command = [elastic, "--model=homogeneous", "--vp=2000", "--vs=1000", "--size=24",
               "--sponge=0", "--steps=200", "--png=false", f"--courant={courant}",
               f"--out={out}"] + (["--allow-unstable"] if allow else [])
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def growth(out):
    """Whether every sample is finite, and the last 50 samples' largest |value| over the
    earlier samples' largest, over every line and component."""
    late = early = 0.0
    finite = True
    for path in glob.glob(f"{out}/*_[uvw].npy"):
        if "snapshot" in path:
            continue
        d = np.load(path).astype(np.float64)
        finite &= bool(np.all(np.isfinite(d)))
        with np.errstate(invalid="ignore"):
            late = max(late, float(np.nanmax(np.abs(d[-50:]))))
            early = max(early, float(np.nanmax(np.abs(d[:-50]))))
    return finite, late / early


def main():
    elastic, out = sys.argv[1], sys.argv[2]
    line = run(elastic, f"{out}/probe", 0.4, False)
    match = re.search(r"stable up to ([0-9.]+)", line)
    if not match:
        print("FAIL: elastic printed no stable limit: " + line)
        return 1
    limit = float(match.group(1))
    failures = 0
    for factor, allow in ((0.98, False), (1.02, True)):
        courant = round(limit * factor, 4)
        run(elastic, f"{out}/courant-{factor}", courant, allow)
        finite, ratio = growth(f"{out}/courant-{factor}")
        stable = finite and ratio <= 10
        blown = not finite or ratio > 1e6
        ok = stable if factor < 1 else blown
        failures += not ok
        print(f"{'ok:  ' if ok else 'FAIL:'} Courant {courant} ({factor} x the limit {limit}): "
              f"{'all finite' if finite else 'not finite'}, last 50 samples / earlier "
              f"{ratio:.3g} ({'expected bounded' if factor < 1 else 'expected to blow up'})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
