#!/usr/bin/env python3
"""compare_outputs.py - Compares two result files of a legacy program.

Each file holds one number per line. They agree when every pair differs by at
most TOLERANCE times the largest magnitude in the reference: generated kernels
may sum in another order than the original loop, and each test states the
tolerance its arithmetic needs; TOLERANCE 0 asks for equal values.

Usage: compare_outputs.py REFERENCE CANDIDATE [TOLERANCE]
"""
import math
import sys


def read(path):
    with open(path) as f:
        return [float(line) for line in f if line.strip()]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    reference, candidate = read(sys.argv[1]), read(sys.argv[2])
    tolerance = float(sys.argv[3]) if len(sys.argv) == 4 else 1e-6
    if len(reference) != len(candidate):
        sys.exit(f"length differs: {len(reference)} values vs {len(candidate)}")
    if not reference:
        sys.exit("no values to compare")
    scale = max(max(abs(x) for x in reference), 1e-30)
    worst, where = 0.0, 0
    for n, (r, c) in enumerate(zip(reference, candidate)):
        if not math.isfinite(c):
            sys.exit(f"value {n} is {c}")
        if abs(r - c) > worst:
            worst, where = abs(r - c), n
    print(f"{len(reference)} values, max |difference| = {worst:.3g} at {where} "
          f"(scale {scale:.3g}, tolerance {tolerance:g} relative)")
    if worst > tolerance * scale:
        sys.exit(f"MISMATCH: value {where}: {reference[where]!r} vs {candidate[where]!r}")


if __name__ == "__main__":
    main()
