"""rtm --model --shots under mpiexec: shots spread over ranks (shot n on rank
n mod N), the stack added in shot order on rank 0, so the image is the same
bit for bit on 1, 2 and 3 ranks; a missing shot file stops every rank with one
message and no --out. Uses the files survey.py and refusals.py left in WORKDIR
(three shots: two.segy's two and shot.segy; 0.15 s, a short run).

usage: ranks.py MPIEXEC "FLAGS" RTM WORKDIR
"""
import filecmp
import os
import shutil
import subprocess
import sys

MPIEXEC, FLAGS, RTM, WORK = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4]
os.chdir(WORK)
env = dict(os.environ, OMP_NUM_THREADS="1")
args = [RTM, "--model", "model.npy", "--frequency", "15", "--time", "0.15", "--sponge", "6",
        "--storage", "memory"]
ok = True
for n in (1, 2, 3):
    out = f"ranks-{n}"
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([MPIEXEC, "-n", str(n)] + FLAGS + args +
                       ["--shots", "refusals/two.segy,shot.segy", "--out", out],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0 or "3 shots from 2 files" not in r.stdout:
        print(f"FAIL: {n} ranks: exit {r.returncode}\n{r.stdout}{r.stderr}")
        ok = False
        continue
    for name in ("image.npy", "image.segy", "illumination.npy"):
        if n > 1 and not filecmp.cmp(f"ranks-1/{name}", f"{out}/{name}", shallow=False):
            print(f"FAIL: {out}/{name} differs from one rank's")
            ok = False
    print(f"{n} ranks: {'the same files as one rank' if n > 1 else 'the reference'}")
out = "ranks-missing"
shutil.rmtree(out, ignore_errors=True)
r = subprocess.run([MPIEXEC, "-n", "2"] + FLAGS + args +
                   ["--shots", "shot.segy,refusals/missing.segy", "--out", out],
                   capture_output=True, text=True, env=env)
errors = [line for line in r.stderr.splitlines() if line.startswith("rtm: error:")]
if r.returncode == 0 or len(errors) != 1 or "refusals/missing.segy" not in errors[0] \
        or os.path.exists(out):
    print(f"FAIL: a missing file on 2 ranks: exit {r.returncode}, {len(errors)} messages, "
          f"{out} {'exists' if os.path.exists(out) else 'absent'}\n{r.stderr}")
    ok = False
else:
    print(f"a missing file on 2 ranks: one message: {errors[0]}")
sys.exit(0 if ok else 1)
