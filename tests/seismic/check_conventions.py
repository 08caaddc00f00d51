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
- seismogram.segy, read with segyio, says so too: steps + 1 samples of dt in
  microseconds (binary and trace headers) and a recording delay of 0 in
  every trace header, so sample s is at t = s dt there as well; each trace
  holds its seismogram.npy column; the source and receiver positions, with
  their scalars, are geometry.json's.
Exit 0 when all hold; 77 when they do but segyio cannot be imported (the
SEG-Y file unread; Debian: python3-segyio); prints what differs otherwise.
"""
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np

try:
    import segyio
except ImportError:
    segyio = None

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


def scaled(value, scalar):
    """A SEG-Y coordinate or elevation with its scalar (negative: a divisor)."""
    return value * scalar if scalar > 0 else value / -scalar if scalar < 0 else value


def check_segy(path, g, gather):
    """seismogram.segy read with segyio against geometry.json `g` and seismogram.npy."""
    dt, steps = g["dt"], g["steps"]
    interval = int(round(dt * 1e6))
    receivers = g["receivers"]
    axis = "xyz".index(receivers["axis"])
    with segyio.open(path, ignore_geometry=True) as f:
        expect(f.bin[segyio.BinField.Interval] == interval,
               "seismogram.segy: binary header interval %d µs, expected %d"
               % (f.bin[segyio.BinField.Interval], interval))
        expect(len(f.samples) == steps + 1, "seismogram.segy: %d samples, expected %d"
               % (len(f.samples), steps + 1))
        # segyio's sample times: delay + s interval, in ms.
        expect(np.allclose(f.samples, np.arange(len(f.samples)) * interval * 1e-3),
               "seismogram.segy: sample times %s ms, expected s * %g ms"
               % (list(f.samples[:3]), interval * 1e-3))
        expect(f.tracecount == receivers["count"], "seismogram.segy: %d traces, expected %d"
               % (f.tracecount, receivers["count"]))
        T = segyio.TraceField
        for r in range(min(f.tracecount, receivers["count"])):
            h = f.header[r]
            expect(h[T.TRACE_SAMPLE_COUNT] == steps + 1 and h[T.TRACE_SAMPLE_INTERVAL] == interval
                   and h[T.DelayRecordingTime] == 0,
                   "seismogram.segy trace %d: %d samples of %d µs, delay %d ms; expected %d of "
                   "%d, delay 0 (sample 0 at t = 0)" % (r, h[T.TRACE_SAMPLE_COUNT],
                                                    h[T.TRACE_SAMPLE_INTERVAL],
                                                    h[T.DelayRecordingTime], steps + 1, interval))
            xy, elev = h[T.SourceGroupScalar], h[T.ElevationScalar]
            source = (scaled(h[T.SourceX], xy), scaled(h[T.SourceY], xy),
                      scaled(h[T.SourceDepth], elev))
            receiver = (scaled(h[T.GroupX], xy), scaled(h[T.GroupY], xy),
                        -scaled(h[T.ReceiverGroupElevation], elev))
            expected = list(receivers["first"])
            expected[axis] += r * g["spacing"][axis]
            expect(np.allclose(source, g["source"], atol=0.005),
                   "seismogram.segy trace %d: source at %s m, geometry.json says %s"
                   % (r, source, g["source"]))
            expect(np.allclose(receiver, expected, atol=0.005),
                   "seismogram.segy trace %d: receiver at %s m, expected %s"
                   % (r, receiver, expected))
            if gather.shape == (steps + 1, receivers["count"]):
                expect(np.array_equal(f.trace[r], gather[:, r]),
                       "seismogram.segy trace %d is not seismogram.npy's column %d" % (r, r))


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

    if segyio is not None:
        check_segy(os.path.join(work, "seismogram.segy"), g, gather)

    for f in failures:
        print("check_conventions: " + f, file=sys.stderr)
    if failures:
        return 1
    if segyio is None:
        print("check_conventions: seismogram.segy not read: no segyio for %s (Debian: "
              "python3-segyio); the other files follow docs/SEISMIC.md §Conventions"
              % sys.executable)
        return 77
    print("wave's files follow docs/SEISMIC.md §Conventions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
