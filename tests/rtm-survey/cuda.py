"""`rtm --model --shots --backend cuda` against the CPU path (docs/SEISMIC.md §The CUDA path).

The survey survey.py left in WORKDIR (shot.segy, its receivers and source
between grid points on offgrid.npy's grid: neighbouring receivers share cell
corners), on a part of the model (the first interface and the receivers' y
lines only, so that the CUDA emulator's run stays short), migrated on the
device (the emulator in `rtm`) and on the CPU:

- fd8: the device's gmem kernels with the memory storage against the CPU's
  naive kernels;
- ete37: the device's gmem kernels (the fitted table and per-point column
  bound on the device) with the disk storage (snapshots through the device's
  snapshot writer) against the CPU's naive kernels in memory.

(Revolve on the device is tested by seismic.rtm-cuda-ete37: the storages share
their code between the demonstration and the survey, and a survey's Revolve run
on the emulator costs three times its memory run.)

gmem and naive add the same terms in the same order, the off-grid injection
and recording keep the CPU path's order where receivers share points
(DeviceKernels.h), and the storages image the same wavefields: image.npy,
image.segy and illumination.npy must be equal byte for byte, and the image
not zero (reflections were imaged). No snapshot file may be left behind.
--ranks-per-shot 2 is refused with --backend cuda. (Revolve's checkpoints in
files on the device, --checkpoint-dir, are tested by seismic.rtm-cuda-checkpoint-dir.)

usage: cuda.py RTM WORKDIR
"""
import filecmp
import os
import shutil
import subprocess
import sys

import numpy as np

RTM, WORK = sys.argv[1:3]
os.chdir(WORK)
OUT = "cuda"
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
# offgrid.npy is (nz, ny, nx) from z = -3 m, y = -5 m: keep z to 255 m (the first
# interface, 195 m) and y to 75 m (the receivers' line at 60 m).
model = np.load("offgrid.npy")[:27, :9, :]
np.save(f"{OUT}/model.npy", model)
common = [RTM, "--model", f"{OUT}/model.npy", "--origin", "-5,-5,-3", "--shots", "shot.segy",
          "--frequency", "15", "--sponge", "4", "--time", "0.25"]
env = dict(os.environ, OMP_NUM_THREADS="1")
ok = True


def run(name, *more):
    out = f"{OUT}/{name}"
    r = subprocess.run(common + ["--out", out] + list(more), capture_output=True, text=True,
                       env=env)
    if r.returncode != 0:
        sys.exit(f"FAIL: {name}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    return out, r.stdout


for op, storage in (("fd8", "memory"), ("ete37", "disk")):
    cpu, _ = run(f"cpu-{op}", "--operator", op, "--variant", "naive", "--storage", "memory")
    snapshots = f"{OUT}/snapshots-{op}"
    device, log = run(f"cuda-{op}", "--operator", op, "--backend", "cuda", "--variant", "gmem",
                      "--storage", storage, "--snapshot-dir", snapshots)
    if "cuda backend on Stencilc CPU emulator" not in log:
        print(f"FAIL: {op}: the run does not say it ran on the CUDA emulator\n{log}")
        ok = False
    largest = np.abs(np.load(f"{cpu}/image.npy")).max()
    if not largest > 0:
        print(f"FAIL: {op}: the CPU image is zero: nothing was imaged, the comparison would be empty")
        ok = False
    for name in ("image.npy", "image.segy", "illumination.npy"):
        same = filecmp.cmp(f"{cpu}/{name}", f"{device}/{name}", shallow=False)
        if not same:
            a, b = np.load(f"{cpu}/image.npy"), np.load(f"{device}/image.npy")
            print(f"FAIL: {op}: {device}/{name} differs from the CPU path's "
                  f"(image: {np.count_nonzero(a != b)} of {a.size} points differ, "
                  f"largest difference {np.abs(a - b).max():.3g} of {largest:.3g})")
            ok = False
    if storage == "disk" and os.listdir(snapshots):
        print(f"FAIL: {op}: snapshots left in {snapshots}: {os.listdir(snapshots)[:3]}")
        ok = False
    if ok:
        print(f"{op}: the device's image ({storage} storage, largest |image| {largest:.3g}), "
              "image.segy and illumination.npy equal the CPU path's byte for byte")

# What the device path does not do is refused before anything runs, with no --out.
for more, message in (
        (["--ranks-per-shot", "2"],
         "rtm: error: --ranks-per-shot 2: with --backend cuda a shot runs whole on one device"),):
    out = f"{OUT}/refused"
    r = subprocess.run(common + ["--backend", "cuda", "--out", out] + more, capture_output=True,
                       text=True, env=env)
    if r.returncode == 0 or r.stderr.strip() != message or os.path.exists(out):
        print(f"FAIL: {' '.join(more)}: exit {r.returncode}, "
              f"{out} {'exists' if os.path.exists(out) else 'absent'}, stderr:\n{r.stderr}")
        ok = False
    else:
        print(f"refused: {message}")
sys.exit(0 if ok else 1)
