"""rtm --model --shots under mpiexec: shots spread over groups of ranks, each
shot's grid split over its group's ranks with --ranks-per-shot R (group g of
N / R migrates shots g, g + N / R, ...), the stack added in shot order on rank
0, so the image is the same bit for bit for 1 rank, 2 ranks with R = 2 (one
shot over two boxes along z, revolve restoring its checkpoints with their
halos), 3 ranks with R = 1 (whole shots), 4 ranks with R = 2 (two groups of
two) and 4 ranks with R = 4 (2 x 2 boxes, split along y through the source
and the receivers' line: their corners are injected in halo copies too).
N not a multiple of R, boxes thinner than the stencil's halo and a missing
shot file each stop every rank with one message and no --out. Uses the files
survey.py and refusals.py left in WORKDIR (three shots: two.segy's two and
shot.segy; 0.1 s, a short run: every wavefield reaches past the boxes' faces,
the stencil spreading it 4 points a step).

usage: ranks.py MPIEXEC "FLAGS" RTM WORKDIR
"""
import filecmp
import os
import shutil
import subprocess
import sys

import numpy as np

MPIEXEC, FLAGS, RTM, WORK = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4]
os.chdir(WORK)
env = dict(os.environ, OMP_NUM_THREADS="1")
args = [RTM, "--model", "model.npy", "--frequency", "15", "--time", "0.1", "--sponge", "6",
        "--shots", "refusals/two.segy,shot.segy"]
ok = True


def rtm(n, out, *more):
    shutil.rmtree(out, ignore_errors=True)
    return subprocess.run([MPIEXEC, "-n", str(n)] + FLAGS + args + ["--out", out] + list(more),
                          capture_output=True, text=True, env=env)


# (ranks, ranks per shot, storage): the first is the reference.
runs = [(1, 1, "memory"), (2, 2, "revolve"), (3, 1, "memory"), (4, 2, "memory"),
        (4, 4, "memory")]
for n, per_shot, storage in runs:
    out = f"ranks-{n}-{per_shot}"
    r = rtm(n, out, "--ranks-per-shot", str(per_shot), "--storage", storage)
    # Every shot is reported once, by its group's first rank.
    migrated = [line for line in r.stdout.splitlines() if line.startswith("rtm: shot ")]
    if r.returncode != 0 or "3 shots from 2 files" not in r.stdout or len(migrated) != 3:
        print(f"FAIL: {n} ranks, {per_shot} a shot: exit {r.returncode}, {len(migrated)} shots "
              f"reported\n{r.stdout}{r.stderr}")
        ok = False
        continue
    if per_shot > 1 and f"of {per_shot} ranks, each shot's" not in r.stdout:
        print(f"FAIL: {n} ranks, {per_shot} a shot: the split is not reported\n{r.stdout}")
        ok = False
    reference = f"ranks-{runs[0][0]}-{runs[0][1]}"
    if out == reference and not np.count_nonzero(np.load(f"{out}/image.npy")):
        print(f"FAIL: {out}/image.npy is zero everywhere: nothing to compare")
        ok = False
    for name in ("image.npy", "image.segy", "illumination.npy"):
        if out != reference and not filecmp.cmp(f"{reference}/{name}", f"{out}/{name}",
                                                shallow=False):
            print(f"FAIL: {out}/{name} differs from one rank's")
            ok = False
    print(f"{n} ranks, {per_shot} a shot, {storage}: "
          f"{'the same files as one rank' if out != reference else 'the reference'}")


def refused(n, out, what, names, *more):
    """One `rtm: error:` line naming every one of `names`, a non-zero exit, no `out`."""
    global ok
    r = rtm(n, out, *more)
    errors = [line for line in r.stderr.splitlines() if line.startswith("rtm: error:")]
    if r.returncode == 0 or len(errors) != 1 or not all(s in errors[0] for s in names) \
            or os.path.exists(out):
        print(f"FAIL: {what}: exit {r.returncode}, {len(errors)} messages, "
              f"{out} {'exists' if os.path.exists(out) else 'absent'}\n{r.stderr}")
        ok = False
    else:
        print(f"{what}: one message: {errors[0]}")


refused(3, "ranks-not-multiple", "3 ranks, 2 a shot", ["--ranks-per-shot 2", "3 ranks"],
        "--ranks-per-shot", "2")
# 7 points along every axis (100 m apart, so the shots lie inside), no sponge:
# two boxes of 4 and 3 points, and 3 is thinner than fd8's halo of 4.
np.save("ranks-thin.npy", np.full((7, 7, 7), 2000, np.float32))
thin = list(args)
args[args.index("model.npy")] = "ranks-thin.npy"
args[args.index("--sponge") + 1] = "0"
refused(2, "ranks-thin", "2 ranks, 2 a shot, 7 points an axis",
        ["--ranks-per-shot 2", "thinner than the stencil's halo of 4"], "--ranks-per-shot", "2",
        "-h", "100", "--allow-undersampled")
args[:] = thin
args[args.index("--shots") + 1] = "shot.segy,refusals/missing.segy"
refused(2, "ranks-missing", "a missing file on 2 ranks", ["refusals/missing.segy"])
sys.exit(0 if ok else 1)
