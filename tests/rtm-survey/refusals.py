"""rtm refuses bad input before computing: a clear message naming the file and
value, a non-zero exit, and no --out directory at all; with --model --shots
and in the built-in demonstration. Then how shots are told apart (one file
holding two field records, and two files) and a wavelet read from a file.
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
# A wavelet file (one trace of SEG-Y, rtm/Wavelet.h): a copy of the shot's
# first trace header and a Ricker of `peak` Hz, at `interval` µs.
def wavelet_file(path, peak, interval=500, samples=400):
    header = bytearray(data[:3600])
    header[3216:3218] = interval.to_bytes(2, "big")
    header[3220:3222] = samples.to_bytes(2, "big")
    trace = bytearray(data[3600:3840])
    trace[114:116] = samples.to_bytes(2, "big")
    trace[116:118] = interval.to_bytes(2, "big")
    trace[108:110] = (0).to_bytes(2, "big")
    t = np.arange(samples) * interval * 1e-6 - 1.2 / peak
    a = (np.pi * peak * t) ** 2
    values = ((1 - 2 * a) * np.exp(-a)).astype(">f4")
    fmt = int.from_bytes(data[3224:3226], "big")
    if fmt != 5:  # the shots are IEEE floats; keep it simple otherwise
        raise SystemExit(f"shot.segy: sample format {fmt}, expected 5")
    open(path, "wb").write(bytes(header) + bytes(trace) + values.tobytes())


wavelet_file(f"{bad}/sharp.segy", 60)
zeros = bytearray(open(f"{bad}/sharp.segy", "rb").read())
zeros[3840:] = bytes(len(zeros) - 3840)
open(f"{bad}/zeros.segy", "wb").write(bytes(zeros))

cases += [
    ("a frequency the grid does not resolve",
     ["--model", "model.npy", "--shots", "shot.segy", "--frequency", "60"],
     "--frequency 60 Hz is more than the grid resolves"),
    ("more memory than the machine has",
     ["--model", "model.npy", "--shots", "shot.segy", "--storage", "memory", "--time", "3000"],
     "wavefields imaged), and this machine has"),
]
wavelet_cases = [
    ("--wavelet and --frequency",
     ["--model", "model.npy", "--shots", "shot.segy", "--wavelet", f"{bad}/sharp.segy",
      "--frequency", "15"],
     f"--wavelet {bad}/sharp.segy and --frequency: the wavelet is either the file's or a Ricker"),
    ("a missing wavelet file",
     ["--model", "model.npy", "--shots", "shot.segy", "--wavelet", f"{bad}/none.segy"],
     f"{bad}/none.segy"),
    ("a wavelet file of many traces",
     ["--model", "model.npy", "--shots", "shot.segy", "--wavelet", "shot.segy"],
     f"shot.segy: {(len(data) - 3600) // (240 + 4 * int.from_bytes(data[3220:3222], 'big'))} "
     "traces; a wavelet file holds one trace"),
    ("a wavelet of zeros",
     ["--model", "model.npy", "--shots", "shot.segy", "--wavelet", f"{bad}/zeros.segy"],
     f"{bad}/zeros.segy: every sample is zero"),
    ("a wavelet the grid does not resolve",
     ["--model", "model.npy", "--shots", "shot.segy", "--wavelet", f"{bad}/sharp.segy"],
     f"--wavelet {bad}/sharp.segy: more than the grid resolves"),
    ("a wavelet without --model", ["--wavelet", f"{bad}/sharp.segy"],
     f"--wavelet {bad}/sharp.segy: only with --model"),
    # The built-in demonstration refuses alike, before it builds its model.
    ("the demonstration: a frequency the grid does not resolve",
     ["--frequency", "40", "--size", "48x24x56", "--sponge", "8"],
     "--frequency 40 Hz is more than the grid resolves"),
    ("the demonstration: more memory than the machine has",
     ["--size", "20000x20000x20000", "--sponge", "8"],
     "of memory on a 20000x20000x20000 grid with the revolve storage"),
    ("the demonstration: a sponge wider than a third of an axis",
     ["--size", "48x24x56", "--sponge", "8", "--sponge-y", "9"],
     "--sponge 8 (--sponge-y 9) is wider than a third of the grid 48x24x56"),
    ("the demonstration: a time of zero", ["--time", "0"], "--time 0: must be a positive number"),
    ("the demonstration: a negative spacing", ["-h", "-10"], "--h -10: must be a positive number"),
]

ok = True
for what, args, message in cases + wavelet_cases:
    out = f"{bad}/out"
    given = ["--frequency", "15"] if (what, args, message) in cases and \
        "--frequency" not in args else []
    r = subprocess.run([RTM] + given + ["--out", out] + args, capture_output=True, text=True)
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
# A wavelet file of a 15 Hz Ricker, sampled at 0.5 ms (not the propagation
# step: resampled) gives the image --frequency 15 gives, to the resampling's
# and float32's accuracy; and a different wavelet (a 20 Hz Ricker) does not.
wavelet_file(f"{bad}/ricker15.segy", 15)
wavelet_file(f"{bad}/ricker20.segy", 20)
short = ["--model", "model.npy", "--shots", "shot.segy", "--time", "0.2", "--image-every", "2",
         "--storage", "memory"]
images = {}
for name, source in (("ricker", ["--frequency", "15"]),
                     ("file15", ["--wavelet", f"{bad}/ricker15.segy"]),
                     ("file20", ["--wavelet", f"{bad}/ricker20.segy"])):
    r = subprocess.run([RTM] + short + source + ["--out", f"{bad}/{name}"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        print(f"--wavelet run {name}: FAIL\n{r.stdout}{r.stderr}")
        sys.exit(1)
    images[name] = np.load(f"{bad}/{name}/image.npy").astype(np.float64)
scale = np.abs(images["ricker"]).max()
same = np.abs(images["file15"] - images["ricker"]).max() / scale
other = np.abs(images["file20"] - images["ricker"]).max() / scale
print(f"--wavelet: a 15 Hz Ricker file differs from --frequency 15 by {same:.2e} of the image's "
      f"largest value, a 20 Hz one by {other:.2e}")
if not (scale > 0 and same < 1e-3 and other > 0.05):
    print("FAIL: expected below 1e-3 and above 0.05")
    ok = False
sys.exit(0 if ok else 1)
