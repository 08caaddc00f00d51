"""A held-out survey migrated by one `rtm` command (docs/SEISMIC.md §Migrating your own survey).

heldout_model.py, a modelling program that shares nothing with stencilc,
writes a layered model with a flat and a dipping interface and three shots
as SEG-Y files (segyio), sources and receivers between grid points, a 2 ms
sample interval and a 100 ms recording delay (read as 0, the reflectors
would image 5 to 7 cells too shallow). Then one command,

    rtm --model model.npy --shots shot1.segy,shot2.segy,shot3.segy --frequency 15 --out image

migrates them, and the test reads image/image.npy and image/image.segy back
(the latter with segyio): the same samples, in the model's geometry, and for
each interface:

- the strongest: the depth profile of mean |image| over y and over the
  columns x from the first source to the last has its largest value below
  the receivers (more than 3 cells) within 2 cells of an interface's depth
  in one of those columns;
- the profile: over the columns x from the first source to the last, mean
  |image| over y, each column shifted by the whole number of cells that
  brings that interface to its depth at the middle column (so a dipping
  interface lines up; the shift is rounded, at most half a cell off);
- the interface's fractional index e = z / h at the middle column (the
  velocity changes between the last grid point above z and the first below);
- the profile's largest value within 2 cells of e is a local maximum at
  least 3 times the background: the median of the profile over the depths
  more than 3 cells below the receivers and more than 4 cells from every
  interface (the other one at any of its shifted depths).

usage: heldout.py RTM WORKDIR    (exit 77 when segyio cannot be imported)
"""
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

try:
    import segyio
except ImportError as e:
    print(f"rtm-survey.heldout: skipped: no segyio for {sys.executable} ({e}; Debian: "
          "python3-segyio)")
    sys.exit(77)

RTM, WORK = sys.argv[1:3]
HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    print(f"{' '.join(os.path.basename(c) if i < 2 else c for i, c in enumerate(cmd))}: "
          f"{time.time() - start:.1f} s")
    return r.stdout


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
run([sys.executable, os.path.join(HERE, "heldout_model.py"), "."])
truth = json.load(open("truth.json"))
shots = sorted(f for f in os.listdir(".") if f.endswith(".segy"))
assert shots == ["shot1.segy", "shot2.segy", "shot3.segy"], shots
run([RTM, "--model", "model.npy", "--shots", ",".join(shots), "--frequency", "15", "--out", "image",
     "--storage", "memory", "--sponge", "8", "--smoothing", "2"])

h = truth["h"]
nz, ny, nx = truth["shape_zyx"]
image = np.load("image/image.npy")
assert image.shape == (nz, ny, nx) and image.dtype == np.float32, (image.shape, image.dtype)

# image.segy, read by segyio: one depth trace per (x, y) column, inline-major
# (trace j nx + i), CDP X/Y at the column, dz in mm in the interval field, z0 in m in the delay.
with segyio.open("image/image.segy", ignore_geometry=True) as f:
    assert f.tracecount == nx * ny and len(f.samples) == nz, (f.tracecount, len(f.samples))
    assert f.bin[segyio.BinField.Interval] == round(h * 1000), f.bin[segyio.BinField.Interval]
    traces = segyio.tools.collect(f.trace[:])
    for t in range(f.tracecount):
        head = f.header[t]
        j, i = divmod(t, nx)
        scalar = head[segyio.TraceField.SourceGroupScalar]
        scale = scalar if scalar > 0 else -1.0 / scalar if scalar < 0 else 1.0
        x, y = head[segyio.TraceField.CDP_X] * scale, head[segyio.TraceField.CDP_Y] * scale
        line = (head[segyio.TraceField.INLINE_3D], head[segyio.TraceField.CROSSLINE_3D])
        assert line == (j + 1, i + 1), (t, line)
        assert abs(x - i * h) < 1e-6 and abs(y - j * h) < 1e-6, (t, x, y)
        assert head[segyio.TraceField.DelayRecordingTime] == 0
        assert head[segyio.TraceField.TRACE_SAMPLE_INTERVAL] in (0, round(h * 1000))
assert np.array_equal(traces.reshape(ny, nx, nz).transpose(2, 0, 1), image), \
    "image.segy's samples are not image.npy's"

# The profiles along each interface.
interfaces = np.array(truth["interfaces_m"]) / h  # (interfaces, nx): fractional index z / h
columns = np.arange(int(np.ceil(min(truth["source_x"]) / h)), int(max(truth["source_x"]) / h) + 1)
middle = columns[len(columns) // 2]
column_profile = np.abs(image).mean(axis=1)  # (nz, nx)
top = truth["receiver_depth"] / h + 3
ok = True
whole = column_profile[:, columns].mean(axis=1)
below = [k for k in range(nz) if k > top]
strongest = max(below, key=lambda k: whole[k])
distance = min(np.abs(strongest - depth[columns]).min() for depth in interfaces)
print(f"strongest |image| below the receivers at k = {strongest}, {distance:.1f} cells from an "
      f"interface")
if distance > 2:
    print("FAIL: the strongest |image| below the receivers is not within 2 cells of an interface")
    ok = False
for n, depth in enumerate(interfaces):
    shift = np.round(depth[columns] - depth[middle]).astype(int)
    ks = [k for k in range(nz) if all(0 <= k + s < nz for s in shift)]
    p = np.zeros(nz)
    for c, s in zip(columns, shift):
        p[ks] += column_profile[np.array(ks) + s, c]
    p /= len(columns)
    e = depth[middle]
    others = [other[columns] - shift for other in interfaces]  # every interface, shifted
    below = [k for k in ks if k > top]
    quiet = [k for k in below if all(np.all(np.abs(k - o) > 4) for o in others)]
    background = np.median(p[quiet])
    near = [k for k in below[1:-1] if abs(k - e) <= 2]
    k = max(near, key=lambda k: p[k])
    ratio = p[k] / background
    print(f"interface {n + 1} (z = {depth[middle] * h:g} m at x = {middle * h:g} m, index {e:g}, "
          f"{shift.min()} to {shift.max()} cells of shift over x = {columns[0] * h:g} to "
          f"{columns[-1] * h:g} m): largest within 2 cells at k = {k}, {k - e:+.1f} cells, "
          f"{ratio:.1f}x the background {background:.3g} (median of {len(quiet)} depths)")
    if not (p[k] >= p[k - 1] and p[k] >= p[k + 1]) or ratio < 3:
        print(f"FAIL: interface {n + 1}: no local maximum within 2 cells of index {e:g} at "
              f"least 3x the background")
        ok = False
sys.exit(0 if ok else 1)
