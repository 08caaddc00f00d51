#!/usr/bin/env python3
"""Checks an `elastic` run against the analytic field of a point force (docs/SEISMIC.md
§Elastic modelling).

    check_elastic.py ELASTIC OUT_DIR

Runs ELASTIC on a homogeneous model (vp 2000 m/s, vs 1000 m/s, rho 2000 kg/m^3, h = 8 m, an
80 x 64 x 64 grid, a 10 Hz Ricker vertical force of 1 N at (40, 32, 36), the x receiver line
15 points above it) and checks, on the recorded traces:

0. Every SEG-Y gather holds its .npy's samples exactly, steps + 1 of them, the interval in
   whole µs, a delay of 0, each receiver at its grid point.
1. Arrival times, picked at each arrival's peak (the zero-phase Ricker's centre, refined by a
   parabola) within 20 ms of the predicted t0 + r / v; each within 2 samples of it:
   - P at the two receivers 21 points to either side on the x line (r = 206 m, 54.7 degrees
     from the force, where the near-field term of the solution vanishes: 3 cos^2 = 1);
   - S across the force, on the y line at the source's depth, 16 points to either side
     (r = 128 m);
   - S at the 54.7-degree receivers too.
2. Far-field amplitudes and radiation pattern (Aki & Richards eq. 4.29): the P and S peaks at
   the 54.7-degree receivers are cos^2 / (4 pi rho vp^2 r) and sin^2 / (4 pi rho vs^2 r) N^-1,
   within 5 %.
3. Waveforms (Aki & Richards eq. 4.23, the near field included): W along the force (z line,
   above and below), W across it (y line), W and U on the x line at every angle, each trace
   within 10 % rms of the analytic one along and across the force, 15 % obliquely (where
   the scheme's S wave runs about 1 % fast: the diagonal cross derivatives' dispersion at
   12.5 points per S wavelength): the 1/r decay and the radiation pattern of both waves,
   with the near field.
Exit status 0 when every check passes, 1 otherwise, with a line per check.
"""
import json
import struct
import subprocess
import sys
import time

import numpy as np

VP, VS, RHO, F, H = 2000.0, 1000.0, 2000.0, 10.0, 8.0
T0 = 1.2 / F  # the Ricker's delay (docs/SEISMIC.md §Conventions)


def ricker(t):
    a = np.pi * F * (t - T0)
    return (1 - 2 * a * a) * np.exp(-a * a)


def point_force(t, x, z, component):
    """Displacement component ('x' or 'z') at horizontal offset x and depth offset z (m,
    z down) from a unit vertical force F(t) ricker, Aki & Richards eq. 4.23, j = z."""
    r = np.hypot(x, z)
    g = {"x": x / r, "z": z / r}
    gij = g[component] * g["z"]
    delta = 1.0 if component == "z" else 0.0
    # Near field: the integral of tau F(t - tau) over tau in [r / vp, r / vs].
    tau = np.linspace(r / VP, r / VS, 4001)
    near = np.trapz(tau[None, :] * ricker(t[:, None] - tau[None, :]), tau, axis=1)
    return ((3 * gij - delta) / r**3 * near + gij / (VP**2 * r) * ricker(t - r / VP)
            - (gij - delta) / (VS**2 * r) * ricker(t - r / VS)) / (4 * np.pi * RHO)


def pick(trace, t, centre, half):
    """The time and value of the largest |trace| within `half` s of `centre`, refined by a
    parabola through the extreme sample and its neighbours."""
    window = np.flatnonzero(np.abs(t - centre) <= half)
    i = window[np.argmax(np.abs(trace[window]))]
    a, b, c = trace[i - 1], trace[i], trace[i + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c != 0 else 0.0
    dt = t[1] - t[0]
    return t[i] + shift * dt, b - 0.25 * (a - c) * shift


def read_segy(path):
    """(samples, interval in µs, delay in ms, values (samples, traces), receiver x, y and
    depth in m) of a SEG-Y rev 1 shot gather as examples/seismic-io writes it: big-endian,
    no extended textual headers, IEEE floats (format 5), coordinates in cm (scalar -100)."""
    with open(path, "rb") as f:
        data = f.read()
    binary = data[3200:3600]
    fmt_code = struct.unpack(">h", binary[24:26])[0]
    samples = struct.unpack(">H", binary[20:22])[0]
    if fmt_code != 5:
        raise ValueError(f"{path}: sample format {fmt_code}, expected 5 (IEEE)")
    size = 240 + 4 * samples
    if (len(data) - 3600) % size:
        raise ValueError(f"{path}: {len(data)} bytes is not whole traces of {samples} samples")
    traces = (len(data) - 3600) // size
    values = np.empty((samples, traces), np.float32)
    positions = np.empty((traces, 3))
    delays, intervals = set(), set()

    def scale(scalar):  # SEG-Y: a negative scalar divides, a positive one multiplies
        return 1 / -scalar if scalar < 0 else (scalar or 1)

    for r in range(traces):
        h = data[3600 + r * size:3600 + r * size + 240]
        delays.add(struct.unpack(">h", h[108:110])[0])
        intervals.add(struct.unpack(">H", h[116:118])[0])
        elev_scalar, coord_scalar = struct.unpack(">hh", h[68:72])
        elevation = struct.unpack(">i", h[40:44])[0]
        gx, gy = struct.unpack(">ii", h[80:88])
        positions[r] = (gx * scale(coord_scalar), gy * scale(coord_scalar),
                        -elevation * scale(elev_scalar))
        values[:, r] = np.frombuffer(data[3600 + r * size + 240:3600 + (r + 1) * size], ">f4")
    return samples, intervals, delays, values, positions


def main():
    elastic, out = sys.argv[1], sys.argv[2]
    command = [elastic, "--model=homogeneous", f"--vp={VP}", f"--vs={VS}", f"--rho={RHO}",
               "--size=80x64x64", f"--h={H}", f"--frequency={F}", "--time=0.35", "--sponge=12",
               "--source-depth=36", "--receiver-depth=21", "--png=false", f"--out={out}"]
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"elastic ran in {time.monotonic() - start:.1f} s: {' '.join(command)}")
    g = json.load(open(f"{out}/geometry.json"))
    dt, steps = g["dt"], g["steps"]
    si, sj, sk = g["source_index"]
    rk = g["receivers"]["index"][2]
    line_w = np.load(f"{out}/seismogram_w.npy")  # (steps + 1, nx)
    line_u = np.load(f"{out}/seismogram_u.npy")
    cross_w = np.load(f"{out}/crossline_w.npy")  # (steps + 1, ny)
    vsp_w = np.load(f"{out}/vsp_w.npy")  # (steps + 1, nz)
    assert line_w.shape == (steps + 1, g["shape"][0]), line_w.shape
    assert cross_w.shape == (steps + 1, g["shape"][1]), cross_w.shape
    assert vsp_w.shape == (steps + 1, g["shape"][2]), vsp_w.shape
    t = np.arange(steps + 1) * dt  # sample s at t = s dt
    failures = 0

    def check(ok, text):
        nonlocal failures
        failures += not ok
        print(("ok:   " if ok else "FAIL: ") + text)

    # The SEG-Y gathers hold the same samples, at the receivers' positions, with the
    # interval in whole µs and a delay of 0 (sample 0 at t = 0; docs/SEISMIC.md §Conventions).
    lines = {"seismogram": (0, lambda r: (r, sj, rk)), "crossline": (1, lambda r: (si, r, sk)),
             "vsp": (2, lambda r: (si, sj, r))}
    for name, (a, point) in lines.items():
        for c in "uvw":
            samples, intervals, delays, values, positions = read_segy(f"{out}/{name}_{c}.segy")
            array = np.load(f"{out}/{name}_{c}.npy")
            expected = np.array([point(r) for r in range(g["shape"][a])]) * H
            ok = (samples == steps + 1 and intervals == {round(dt * 1e6)} and delays == {0}
                  and values.shape == array.shape and np.array_equal(values, array)
                  and np.allclose(positions, expected, atol=0.01))
            check(ok, f"{name}_{c}.segy: {samples} samples of {sorted(intervals)} µs, delay "
                  f"{sorted(delays)}, {values.shape[1]} traces equal to {name}_{c}.npy "
                  f"{array.shape}, receivers at the line's grid points")

    def arrival(trace, exact, r, wave, where):
        """Checks the pick on `trace`; `exact` (A&R 4.23 there) is picked alike, to show
        what the near field does to the peak."""
        v = VP if wave == "P" else VS
        predicted = T0 + r / v
        when, value = pick(trace, t, predicted, 0.02)
        samples = (when - predicted) / dt
        exact_samples = (pick(exact, t, predicted, 0.02)[0] - predicted) / dt
        check(abs(samples) <= 2,
              f"{wave} {where}, r = {r:.1f} m: picked at {when:.4f} s, predicted t0 + r/v"
              f"{wave.lower()} = {predicted:.4f} s ({samples:+.2f} samples; the exact "
              f"solution's peak {exact_samples:+.2f})")
        return value

    dz = (rk - sk) * H  # negative: the x line is above the source
    for side in (-21, 21):
        x = side * H
        r = np.hypot(x, dz)
        cos2 = dz * dz / (r * r)
        trace = line_w[:, si + side]
        for wave, far in (("P", cos2 / VP**2), ("S", (1 - cos2) / VS**2)):
            value = arrival(trace, point_force(t, x, dz, "z"), r, wave,
                            f"at x = {x:+.0f} m, z = {dz:+.0f} m (54.7 degrees)")
            expected = far / (4 * np.pi * RHO * r)
            check(abs(value / expected - 1) <= 0.05,
                  f"{wave} far-field amplitude there: {value:.4e} m, A&R 4.29 {expected:.4e} m "
                  f"(ratio {value / expected:.3f})")
    for side in (-16, 16):
        arrival(cross_w[:, sj + side], point_force(t, side * H, 0.0, "z"), abs(side) * H, "S",
                f"across the force, y = {side * H:+.0f} m")

    def compare(trace, x, z, component, what, limit):
        analytic = point_force(t, x, z, component)
        misfit = np.sqrt(np.mean((trace - analytic) ** 2) / np.mean(analytic**2))
        check(misfit <= limit, f"{what}: rms misfit {misfit:.3f} (at most {limit}) against "
              f"A&R 4.23 (peak {np.abs(trace).max():.3e} m, analytic "
              f"{np.abs(analytic).max():.3e} m)")

    # Along and across the force the scheme's phase error is a few 0.1 %; obliquely its
    # S wave runs about 1 % fast (the diagonal cross derivatives), a larger misfit.
    for off in (-12, -6, 6, 12):
        compare(vsp_w[:, sk + off], 0.0, off * H, "z", f"W at z offset {off * H:+.0f} m", 0.10)
    for off in (-16, -8, 8, 16):
        compare(cross_w[:, sj + off], off * H, 0.0, "z", f"W at y offset {off * H:+.0f} m", 0.10)
    for off in (-21, -10, 0, 10, 21):
        where = f"x offset {off * H:+.0f} m, z {dz:+.0f} m"
        compare(line_w[:, si + off], off * H, dz, "z", "W at " + where, 0.10 if off == 0 else 0.15)
        if off:
            compare(line_u[:, si + off], off * H, dz, "x", "U at " + where, 0.15)
    print(f"{failures} check(s) failed" if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
