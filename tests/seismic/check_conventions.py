#!/usr/bin/env python3
"""Checks a wave run against docs/SEISMIC.md §Conventions.

    check_conventions.py WAVE WORK_DIR

Runs WAVE (examples/wave) on a small homogeneous, non-cubic grid without a
sponge, writing the whole wavefield after every step, and checks what the
Conventions section says:

- axis order: every volume (model.npy, wavefield_NNNNN.npy) has shape
  (nz, ny, nx), so a[k, j, i] is grid point (i, j, k), and geometry.json's
  "shape" is [nx, ny, nz];
- source: after the first step the only non-zero point is the source, at
  a[sk, sj, si] with source_index = [si, sj, sk], and its value is
  dt^2 v^2 / h^3 * ricker(0): the field obeys p_tt = v^2 (lap p + s(t) delta(x - xs))
  with s the Ricker wavelet of peak frequency f and delay 1.2 / f;
- time of a sample: seismogram.npy has shape (steps + 1, nx); row s is the
  field at t = s dt along the receiver line (row 0, the initial field, is
  zero), the same values as wavefield_s at the receivers;
- seismogram.segy says so too: steps + 1 samples of dt in microseconds and
  a recording delay of 0 in every trace header.
Exit 0 when all hold; prints what differs otherwise.
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

NX, NY, NZ = 21, 17, 25
STEPS = 5
VELOCITY, H, COURANT, FREQUENCY = 2000.0, 10.0, 0.4, 15.0

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def ricker(t, f, t0):
    a = math.pi * f * (t - t0)
    return (1 - 2 * a * a) * math.exp(-a * a)


def segy_trace_headers(path, traces):
    """(samples, interval in µs, delay in ms) of each trace header of a SEG-Y
    rev 1 file without extended textual headers, big-endian."""
    with open(path, "rb") as f:
        data = f.read()
    extended = struct.unpack(">h", data[3200 + 304:3200 + 306])[0]
    fmt_code = struct.unpack(">h", data[3200 + 24:3200 + 26])[0]
    expect(extended == 0, "seismogram.segy: %d extended textual headers" % extended)
    expect(fmt_code in (1, 5), "seismogram.segy: sample format %d" % fmt_code)
    samples = struct.unpack(">H", data[3200 + 20:3200 + 22])[0]
    headers = []
    offset = 3600
    for _ in range(traces):
        h = data[offset:offset + 240]
        delay = struct.unpack(">h", h[108:110])[0]
        ns = struct.unpack(">H", h[114:116])[0]
        interval = struct.unpack(">H", h[116:118])[0]
        headers.append((ns, interval, delay))
        offset += 240 + 4 * samples
    expect(offset == len(data), "seismogram.segy: %d bytes, expected %d" % (len(data), offset))
    return headers


def main():
    wave, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run([wave, "--operator=fd8", "--model=homogeneous", "--velocity=%g" % VELOCITY,
                    "--size=%dx%dx%d" % (NX, NY, NZ), "--h=%g" % H, "--courant=%g" % COURANT,
                    "--frequency=%g" % FREQUENCY, "--sponge=0", "--steps=%d" % STEPS,
                    "--volume-every=1", "--png=false", "--out=" + work],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(work, "geometry.json")) as f:
        g = json.load(f)
    dt = g["dt"]
    si, sj, sk = g["source_index"]
    expect(g["shape"] == [NX, NY, NZ], "geometry.json shape %s" % g["shape"])
    expect(g["steps"] == STEPS, "geometry.json steps %s" % g["steps"])

    model = np.load(os.path.join(work, "model.npy"))
    expect(model.shape == (NZ, NY, NX), "model.npy shape %s, expected (nz, ny, nx)" % (model.shape,))
    expect(np.all(model == np.float32(VELOCITY)), "model.npy is not %g m/s everywhere" % VELOCITY)

    fields = [np.zeros((NZ, NY, NX), np.float32)]
    for s in range(1, STEPS + 1):
        p = np.load(os.path.join(work, "wavefield_%05d.npy" % s))
        expect(p.shape == (NZ, NY, NX), "wavefield_%05d.npy shape %s" % (s, p.shape))
        fields.append(p)
    first = fields[1]
    nonzero = list(zip(*np.nonzero(first)))
    expect(nonzero == [(sk, sj, si)],
           "after one step the non-zero points are %s, expected only the source at "
           "a[sk, sj, si] = a[%d, %d, %d]" % (nonzero[:4], sk, sj, si))
    expected = dt * dt * VELOCITY * VELOCITY / H ** 3 * ricker(0.0, FREQUENCY, 1.2 / FREQUENCY)
    value = float(first[sk, sj, si])
    expect(abs(value - expected) <= 1e-6 * abs(expected),
           "source after one step %.9g, expected dt^2 v^2 / h^3 ricker(0) = %.9g" % (value, expected))

    gather = np.load(os.path.join(work, "seismogram.npy"))
    expect(gather.shape == (STEPS + 1, NX),
           "seismogram.npy shape %s, expected (steps + 1, nx)" % (gather.shape,))
    if gather.shape == (STEPS + 1, NX):
        for s in range(STEPS + 1):
            expect(np.array_equal(gather[s], fields[s][sk, sj, :]),
                   "seismogram.npy row %d is not the field at t = %d dt on the receivers" % (s, s))

    headers = segy_trace_headers(os.path.join(work, "seismogram.segy"), NX)
    interval = int(round(dt * 1e6))
    for r, (ns, us, delay) in enumerate(headers):
        expect(ns == STEPS + 1, "seismogram.segy trace %d: %d samples, expected %d" % (r, ns, STEPS + 1))
        expect(us == interval, "seismogram.segy trace %d: interval %d µs, expected %d" % (r, us, interval))
        expect(delay == 0, "seismogram.segy trace %d: delay %d ms, expected 0" % (r, delay))

    for f in failures:
        print("check_conventions: " + f, file=sys.stderr)
    if not failures:
        print("wave's files follow docs/SEISMIC.md §Conventions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
