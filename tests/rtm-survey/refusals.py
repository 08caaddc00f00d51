"""rtm --model --shots refuses bad input before computing: a clear message
naming the file and value, a non-zero exit, and no --out directory at all.
Then how shots are told apart: one file holding two field records, and two files.
Uses the files tests/rtm-survey/survey.py left in WORKDIR (model.npy, shot.segy).

usage: refusals.py RTM WORKDIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np

RTM, WORK = sys.argv[1:3]
os.chdir(WORK)
model = np.load("model.npy")
bad = "refusals"
shutil.rmtree(bad, ignore_errors=True)
os.makedirs(bad)

nan = model.copy()
nan[30, 5, 7] = np.nan
nan[40, 1, 1] = np.nan  # a later one: the first is named
np.save(f"{bad}/nan.npy", nan)
np.save(f"{bad}/narrow.npy", np.ascontiguousarray(model[:, :, :40]))  # x up to 390 m
data = open("shot.segy", "rb").read()
open(f"{bad}/truncated.segy", "wb").write(data[:len(data) // 2 + 7])
open(f"{bad}/model.txt", "w").write("1500\n")

cases = [
    ("a missing shot file", ["--model", "model.npy", "--shots", f"shot.segy,{bad}/missing.segy"],
     f"{bad}/missing.segy"),
    ("a truncated shot file", ["--model", "model.npy", "--shots", f"{bad}/truncated.segy"],
     f"{bad}/truncated.segy"),
    ("receivers outside the model", ["--model", f"{bad}/narrow.npy", "--shots", "shot.segy"],
     "shot.segy: shot 1 (from trace 1): receiver 41 (trace 41) at (400, 60, 80) m lies outside "
     "the model, which spans x [0, 390], y [0, 110], z [0, 470] m"),
    ("a NaN in the model", ["--model", f"{bad}/nan.npy", "--shots", "shot.segy"],
     f"{bad}/nan.npy: velocity nan at point (i, j, k) = (7, 5, 30), array index [30, 5, 7]"),
    ("a model of another format", ["--model", f"{bad}/model.txt", "--shots", "shot.segy"],
     f"--model {bad}/model.txt: expected a file named .npy, .segy or .sgy"),
    ("an empty name in --shots", ["--model", "model.npy", "--shots", "shot.segy,"],
     "--shots 'shot.segy,': an empty file name"),
]
ok = True
for what, args, message in cases:
    out = f"{bad}/out"
    r = subprocess.run([RTM, "--frequency", "15", "--out", out] + args, capture_output=True,
                       text=True)
    problems = []
    if r.returncode == 0:
        problems.append("exit status 0")
    if message not in r.stderr:
        problems.append(f"no '{message}' in stderr")
    if os.path.exists(out):
        problems.append(f"{out} exists: {os.listdir(out)}")
    print(f"{what}: {'refused' if not problems else 'FAIL: ' + '; '.join(problems)}: "
          f"{r.stderr.strip()}")
    ok &= not problems

# How shots are told apart (no migration to speak of: --time of 6 steps). The
# same gather twice in one file, the second with field record 2 and its source
# 20 m further along x (bytes 9 and 73), is two shots; so are two files.
ns = int.from_bytes(data[3220:3222], "big")
size = 240 + 4 * ns
traces = (len(data) - 3600) // size
second = bytearray(data[3600:])
for t in range(traces):
    h = t * size
    second[h + 8:h + 12] = (2).to_bytes(4, "big", signed=True)
    x = int.from_bytes(second[h + 72:h + 76], "big", signed=True)
    second[h + 72:h + 76] = (x + 2000).to_bytes(4, "big", signed=True)  # centimetres
open(f"{bad}/two.segy", "wb").write(data[:3600] + data[3600:] + bytes(second))
for files, expected in ((f"{bad}/two.segy", "2 shots from 1 files"),
                        ("shot.segy,shot.segy", "2 shots from 2 files")):
    r = subprocess.run([RTM, "--frequency", "15", "--model", "model.npy", "--shots", files,
                        "--time", "0.01", "--image-every", "1", "--out", f"{bad}/grouped"],
                       capture_output=True, text=True)
    second_source = "source at (300, 60, 80) m" in r.stdout
    good = r.returncode == 0 and expected in r.stdout and \
        (second_source if files.endswith("two.segy") else True)
    print(f"--shots {files}: {'read as ' + expected if good else 'FAIL'}\n{r.stdout}{r.stderr}")
    ok &= good
sys.exit(0 if ok else 1)
