"""A survey migrated by `rtm --model --shots` (docs/SEISMIC.md §Migrating your own survey).

Shots are modelled by `wave` in a layered model (interfaces at known depths) and
in the same model's top layer alone; their difference, the reflections (the
direct wave removed, as a user's processing would), is written as SEG-Y with
wave's own headers. `rtm` migrates it and the test reads the image back:

- the depth profile P(k) = mean |image| over the columns within 15 cells of
  the source in x (all y), below the receivers (more than 3 cells): its
  largest value lies within 2 cells of an interface, and within 2 cells of
  each interface P has a local maximum at least 3x the background, the median
  of P over the depths farther than 4 cells from every interface.

Run once on the grid and once on a model whose origin is shifted by half a
cell in x and y and 0.3 cell in z, so that the source and every receiver lie
between grid points (trilinear spreading, OffGrid.h).

usage: survey.py WAVE RTM WORKDIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

WAVE, RTM, WORK = sys.argv[1:4]
NX, NY, NZ, H = 56, 12, 48, 10.0
INTERFACES = (195.0, 315.0)  # metres: velocity 1500 above, 2000 between, 2600 below
SOURCE_DEPTH = 8  # wave's grid index (80 m)
FREQUENCY = "15"


def layered(nx, ny, nz, z0, only_top=False):
    z = z0 + H * np.arange(nz)
    v = np.where(z < INTERFACES[0], 1500.0, np.where(z < INTERFACES[1], 2000.0, 2600.0))
    if only_top:
        v[:] = 1500.0
    return np.ascontiguousarray(np.broadcast_to(v[:, None, None], (nz, ny, nx))).astype(np.float32)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r.stdout


def segy_traces(path):
    """(header bytes, samples per trace, float32 big-endian array (traces, samples))."""
    data = open(path, "rb").read()
    fmt, = struct.unpack(">h", data[3224:3226])
    assert fmt == 5, f"{path}: sample format {fmt}, expected 5 (IEEE float)"
    ns, = struct.unpack(">H", data[3220:3222])
    size = 240 + 4 * ns
    n = (len(data) - 3600) // size
    assert 3600 + n * size == len(data)
    traces = np.stack([np.frombuffer(data, ">f4", ns, 3600 + t * size + 240) for t in range(n)])
    return data, ns, traces


def reflections(full, direct, out):
    """out: `full`'s file with its samples replaced by full − direct."""
    data, ns, a = segy_traces(full)
    _, ns2, b = segy_traces(direct)
    assert ns == ns2 and a.shape == b.shape
    diff = (a.astype(np.float64) - b).astype(">f4")
    buf = bytearray(data)
    for t in range(a.shape[0]):
        start = 3600 + t * (240 + 4 * ns) + 240
        buf[start:start + 4 * ns] = diff[t].tobytes()
    open(out, "wb").write(bytes(buf))


def profile_check(image, z0, x_origin, label):
    nz, ny, nx = image.shape
    centre = int(round((NX // 2 * H - x_origin) / H))
    p = np.abs(image[:, :, max(0, centre - 15):centre + 16]).mean(axis=(1, 2))
    receivers = (SOURCE_DEPTH * H - z0) / H
    # Between the last point above an interface and the first below it.
    expected = [(z - z0) / H - 0.5 for z in INTERFACES]
    below = [k for k in range(nz) if k > receivers + 3]
    background = np.median([p[k] for k in below if all(abs(k - e) > 4 for e in expected)])
    strongest = max(below, key=lambda k: p[k])
    ok = True
    if not any(abs(strongest - e) <= 2 for e in expected):
        print(f"FAIL {label}: the strongest |image| below the receivers is at k = {strongest}, "
              f"not within 2 cells of an interface {expected}")
        ok = False
    for e in expected:
        near = [k for k in below[1:-1] if abs(k - e) <= 2]
        k = max(near, key=lambda k: p[k])
        ratio = p[k] / background
        print(f"{label}: interface at k = {e}: largest P within 2 cells at k = {k}, "
              f"{ratio:.1f}x the background {background:.3g}")
        if not (p[k] >= p[k - 1] and p[k] >= p[k + 1]) or ratio < 3:
            print(f"FAIL {label}: no reflector at k = {e} (a local maximum at least 3x the background)")
            ok = False
    return ok


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
np.save("model.npy", layered(NX, NY, NZ, 0.0))
np.save("top.npy", layered(NX, NY, NZ, 0.0, only_top=True))
common = ["-h", "10", "--operator", "fd8", "--frequency", FREQUENCY, "--time", "0.5", "--sponge", "4",
          "--source-depth", str(SOURCE_DEPTH), "--png=false", "--snapshot-every", "100000"]
run([WAVE, "--model", "model.npy", "--out", "full"] + common)
# The same time step: wave's dt is courant h / v_max, and this model's v_max is 1500 m/s.
run([WAVE, "--model", "top.npy", "--out", "direct", "--courant", repr(0.4 * 1500 / 2600)] + common)
reflections("full/seismogram.segy", "direct/seismogram.segy", "shot.segy")

ok = True
rtm = [RTM, "--shots", "shot.segy", "--frequency", FREQUENCY, "--sponge", "8", "--storage", "memory"]
run(rtm + ["--model", "model.npy", "--out", "on-grid"])
assert sorted(os.listdir("on-grid")) == ["geometry.json", "illumination.npy", "image.npy",
                                         "image.segy", "migration_model.npy"], os.listdir("on-grid")
image = np.load("on-grid/image.npy")
assert image.shape == (NZ, NY, NX) and image.dtype == np.float32
assert np.load("on-grid/illumination.npy").shape == (NZ, NY, NX)
# image.segy: one depth trace per (x, y) column, inline-major, the same samples.
_, ns, traces = segy_traces("on-grid/image.segy")
assert ns == NZ and traces.shape[0] == NX * NY
assert np.array_equal(traces.reshape(NY, NX, NZ).transpose(2, 0, 1), image)
ok &= profile_check(image, 0.0, 0.0, "on the grid")
# geometry.json: the model's geometry and the shot's positions in metres; the
# figures scripts/plot.py draws from it (when matplotlib is here).
with open("on-grid/geometry.json") as f:
    geometry = json.load(f)
assert geometry["program"] == "rtm-survey" and geometry["shape"] == [NX, NY, NZ], geometry
assert len(geometry["source_positions"]) == 1 and len(geometry["receiver_positions"]) == 56
assert np.array_equal(np.load("on-grid/migration_model.npy"), np.load("model.npy"))
try:
    import matplotlib  # noqa: F401
    here = os.path.dirname(os.path.abspath(__file__))
    run([sys.executable, os.path.join(here, "..", "..", "scripts", "plot.py"), "on-grid"])
    run([sys.executable, os.path.join(here, "..", "seismic", "check_figures.py"),
         "on-grid/figures", "velocity", "image", "illumination"])
except ImportError:
    print("figures: skipped, no matplotlib (Debian: python3-matplotlib)")

# Off the grid: origin (-5, -5, -3) m, one more point along x and y to cover every receiver.
np.save("offgrid.npy", layered(NX + 1, NY + 1, NZ, -3.0))
run(rtm + ["--model", "offgrid.npy", "--origin", "-5,-5,-3", "--out", "off-grid"])
ok &= profile_check(np.load("off-grid/image.npy"), -3.0, -5.0, "off the grid")
sys.exit(0 if ok else 1)
