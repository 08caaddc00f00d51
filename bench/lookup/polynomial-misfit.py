#!/usr/bin/env python3
"""polynomial-misfit.py - can a per-class polynomial in velocity replace ETE-37's table?

    bench/lookup/polynomial-misfit.py [--stencilc build/compiler/stencilc] [--vmin 1500]
                                      [--vmax 4500] [--nd 902] [--spacing 10] [--dt 0.001]

Fits ETE-37's coefficient table with `stencilc fit-ete`, then fits each class's coefficients
across the velocities with polynomials of degree 2 to 8 and reports, per degree, how far the
polynomial's coefficients miss the table's dispersion relation (the largest
|sum_j c_j e^{ik.dx_j} - cos(v dt |k|)| over fit-ete's wavenumber samples) as a ratio to the
table's own misfit at each velocity. The script recomputes the table's own misfit and stops
unless it equals what fit-ete printed, which checks its point classes and samples against the
compiler's (docs/PERFORMANCE.md, "Coefficient lookups").
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser.add_argument("--stencilc", default=os.path.join(root, "build", "compiler", "stencilc"))
parser.add_argument("--vmin", type=float, default=1500.0)
parser.add_argument("--vmax", type=float, default=4500.0)
parser.add_argument("--nd", type=int, default=902)
parser.add_argument("--spacing", type=float, default=10.0)
parser.add_argument("--dt", type=float, default=0.001)
args = parser.parse_args()

# fit-ete's defaults (compiler/seismic/EteFit.h): |k| <= 0.6 pi/h, 12 samples per half-axis.
BAND, SAMPLES = 0.6, 12

with tempfile.TemporaryDirectory() as work:
    table_path = os.path.join(work, "table.npy")
    run = subprocess.run(
        [args.stencilc, "fit-ete", os.path.join(root, "dsl-examples", "ete37.stencil"),
         "--spacing", str(args.spacing), "--dt", str(args.dt), "--vmin", str(args.vmin),
         "--vmax", str(args.vmax), "--nd", str(args.nd), "-o", table_path],
        capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("polynomial-misfit.py: stencilc fit-ete failed:\n" + run.stderr)
    table = np.load(table_path)  # (classes, velocities)

printed = []  # fit-ete's max misfit per velocity
for line in run.stdout.splitlines():
    words = line.split()
    if len(words) == 5 and words[0].isdigit():
        printed.append(float(words[3]))
printed = np.array(printed)

# ETE-37's 37 points by class, as ete37.stencil numbers them (the generated kernel's rows):
# z at 4, 3, 2 and 1; the yz and xz diagonals; x and y at 4, 3, 2; the xy diagonals; x and y at
# 1; the centre.
def axis(a, d):
    return [tuple(s * d if i == a else 0 for i in range(3)) for s in (-1, 1)]

classes = {0: axis(2, 4), 1: axis(2, 3), 2: axis(2, 2), 4: axis(2, 1),
           5: axis(0, 4) + axis(1, 4), 6: axis(0, 3) + axis(1, 3), 7: axis(0, 2) + axis(1, 2),
           9: axis(0, 1) + axis(1, 1), 10: [(0, 0, 0)],
           3: [(0, a, b) for a in (-1, 1) for b in (-1, 1)] + [(a, 0, b) for a in (-1, 1) for b in (-1, 1)],
           8: [(a, b, 0) for a in (-1, 1) for b in (-1, 1)]}
if table.shape[0] != len(classes):
    sys.exit(f"polynomial-misfit.py: the table has {table.shape[0]} rows, ETE-37 {len(classes)} classes")

h, dt = args.spacing, args.dt
velocities = np.linspace(args.vmin, args.vmax, args.nd)
band = BAND * np.pi / h
axis_samples = np.linspace(-band, band, 2 * SAMPLES + 1)
k = np.array(np.meshgrid(axis_samples, axis_samples, axis_samples, indexing="ij")).reshape(3, -1).T
k = k[np.linalg.norm(k, axis=1) <= band * (1 + 1e-12)]
# The symmetric stencil's response is real: per class, the sum of cos(k . dx) over its points.
response = np.stack([sum(np.cos(k @ (np.array(p) * h)) for p in classes[c])
                     for c in range(len(classes))], axis=1)
target = np.cos(np.outer(np.linalg.norm(k, axis=1), velocities * dt))


def misfit(coefficients):
    return np.abs(response @ coefficients - target).max(axis=0)


own = misfit(table)
if printed.shape != own.shape or not np.allclose(own, printed, rtol=1e-3, atol=0):
    sys.exit("polynomial-misfit.py: the recomputed misfit differs from fit-ete's: classes or samples "
             "do not match the compiler's")
print(f"ETE-37 table: {args.nd} velocities {args.vmin:g}-{args.vmax:g} m/s, h = {h:g} m, "
      f"dt = {dt:g} s; its own max misfit {own.min():.3e} to {own.max():.3e} (= fit-ete's)")
print("degree  max |coefficient error|  misfit / the table's own: max  median")
t = (velocities - velocities.mean()) / (velocities.max() - velocities.mean())
for degree in range(2, 9):
    fitted = np.stack([np.polyval(np.polyfit(t, row, degree), t) for row in table])
    ratio = misfit(fitted) / own
    print(f"{degree:6d}  {np.abs(fitted - table).max():23.2e}  {ratio.max():34.3f}  {np.median(ratio):6.3f}")
