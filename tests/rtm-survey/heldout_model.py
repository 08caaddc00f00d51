"""A held-out survey for `rtm --model --shots` (docs/SEISMIC.md §Migrating your own survey).

An acoustic modelling program of its own, sharing nothing with stencilc's
kernels or programs, models a small 3D survey and writes it as a user's data
would come: the velocity model as .npy (float32, shape (nz, ny, nx)) and each
shot as a SEG-Y file written by segyio, the geometry in the trace headers.

The scheme (none of it from stencilc):
- p_tt + 2 eta p_t = v^2 (lap p + s(t) delta(x - xs)), leapfrog in time with
  the damping term centred, (1 + eta dt) p+ = 2 p - (1 - eta dt) p- + dt^2 v^2 (L p + s delta);
- L: the 4th-order central second difference on each axis (-1/12, 4/3,
  -5/2, 4/3, -1/12) / h^2, zero outside the padded grid;
- absorbing layer: the model extended by WIDTH points on every face (edge
  values copied outward), eta rising as (d / WIDTH)^2 to ETA_MAX at the
  outer face;
- source and receivers between grid points: a Kaiser-windowed sinc of
  3 points each side on each axis (b = 6.31), after Hicks (2002, Geophysics
  67(1)), the same weights for injecting and for recording; rtm spreads them
  trilinearly instead;
- the source: a Ricker wavelet of peak FREQUENCY delayed by 1.2 / FREQUENCY,
  the convention rtm assumes (docs/SEISMIC.md §Conventions);
- internal step DT_MODEL = 1 ms (v_max dt / h = 0.26; the scheme is stable
  to 0.5); the traces are kept every 2 ms from a recording delay of
  DELAY_MS = 100 ms (the samples before it are not written), so rtm must
  resample them to its own step and honour the delay.

The direct wave is removed as a user's processing would: each shot is
modelled twice, in the layered model and in its top layer alone (1500 m/s
everywhere), and the difference is written.

The model: NX x NY x NZ = 60 x 12 x 40 points at H = 10 m, velocity 1500 m/s
above a flat interface at FLAT_Z = 145 m, 2000 m/s down to a dipping interface
z = DIP_Z0 + DIP_SLOPE x (235 m at x = 0, 294 m at x = 590 m), 2600 m/s below; a
grid point takes the velocity of the layer it lies in. Three shots, their
sources between grid points, each recorded by three lines of 59 receivers
along x, between grid points too.

usage: heldout_model.py OUTDIR
writes OUTDIR/model.npy, OUTDIR/shot1.segy ... OUTDIR/shotN.segy and
OUTDIR/truth.json (the interfaces, for the check).
"""
import json
import math
import os
import sys

import numpy as np
import segyio

NX, NY, NZ, H = 60, 12, 40, 10.0
FLAT_Z = 145.0                      # m
DIP_Z0, DIP_SLOPE = 235.0, 0.1      # m, dz/dx: 235 m at x = 0, 294 m at x = 590 m
V = (1500.0, 2000.0, 2600.0)
FREQUENCY = 15.0                    # Hz
DT_MODEL = 1e-3                     # s
INTERVAL_US = 2000                  # the traces' sample interval
DELAY_MS = 100                      # the first written sample's time
RECORDING = 0.45                    # s, the last sample's time
WIDTH, ETA_MAX = 12, 220.0          # absorbing layer: points, 1/s at the outer face

# Sources (x, y, depth) in metres, none on a grid point; receivers on three
# lines along x at RECEIVER_Y and RECEIVER_DEPTH, every 10 m from 5 m (between
# grid points).
SOURCES = ((155.0, 57.0, 42.0), (297.5, 57.0, 42.0), (441.0, 57.0, 42.0))
RECEIVER_Y, RECEIVER_DEPTH = (15.5, 55.5, 95.5), 33.0
RECEIVER_X = 5.0 + 10.0 * np.arange(NX - 1)


def interfaces(x):
    """The two interfaces' depths (m) at positions x (m)."""
    return np.full_like(x, FLAT_Z), DIP_Z0 + DIP_SLOPE * x


def velocity_model(top_only=False):
    """float32 (nz, ny, nx): the velocity at each grid point."""
    x = H * np.arange(NX)
    z = H * np.arange(NZ)[:, None]
    flat, dip = interfaces(x)
    v = np.where(z < flat, V[0], np.where(z < dip, V[1], V[2]))
    if top_only:
        v[:] = V[0]
    return np.ascontiguousarray(np.broadcast_to(v[:, None, :], (NZ, NY, NX)), np.float32)


def ricker(t):
    a = (math.pi * FREQUENCY * (t - 1.2 / FREQUENCY)) ** 2
    return (1 - 2 * a) * np.exp(-a)


def sinc_weights(f, n, half=3, b=6.31):
    """Kaiser-windowed sinc weights of fractional index f on an axis of n points:
    (first index, weights)."""
    lower = int(math.floor(f)) - half + 1
    idx = np.arange(lower, lower + 2 * half)
    d = f - idx
    window = np.i0(b * np.sqrt(np.clip(1 - (d / half) ** 2, 0, None))) / np.i0(b)
    w = np.sinc(d) * window
    if lower < 0 or lower + 2 * half > n:
        raise ValueError(f"index {f} is too close to the edge of {n} points")
    return lower, w


def spread(pos, shape):
    """(flat indices, weights) of position pos = (x, y, z) m on the padded grid."""
    nz, ny, nx = shape
    ix, wx = sinc_weights(pos[0] / H + WIDTH, nx)
    iy, wy = sinc_weights(pos[1] / H + WIDTH, ny)
    iz, wz = sinc_weights(pos[2] / H + WIDTH, nz)
    k, j, i = np.meshgrid(np.arange(iz, iz + len(wz)), np.arange(iy, iy + len(wy)),
                          np.arange(ix, ix + len(wx)), indexing="ij")
    w = wz[:, None, None] * wy[None, :, None] * wx[None, None, :]
    return np.ravel_multi_index((k.ravel(), j.ravel(), i.ravel()), shape), w.ravel()


def damping(shape):
    """eta (1/s) on the padded grid: zero inside the model, ETA_MAX (d/WIDTH)^2 in the layer."""
    eta = np.zeros(shape, np.float32)
    for axis, n in enumerate(shape):
        depth = np.maximum(np.maximum(WIDTH - np.arange(n), np.arange(n) - (n - 1 - WIDTH)), 0)
        profile = ETA_MAX * (depth / WIDTH) ** 2
        s = [None, None, None]
        s[axis] = slice(None)
        eta = np.maximum(eta, profile[tuple(s)].astype(np.float32))
    return eta


def model_shot(v, source, receivers):
    """The pressure at the receivers, (steps + 1, receivers), level n at t = n DT_MODEL."""
    vp = np.pad(v, WIDTH, mode="edge")
    shape = vp.shape
    nz, ny, nx = shape
    eta_dt = damping(shape) * DT_MODEL
    a = (2 / (1 + eta_dt)).astype(np.float32)
    b = ((1 - eta_dt) / (1 + eta_dt)).astype(np.float32)
    c = (DT_MODEL ** 2 * vp ** 2 / (1 + eta_dt) / H ** 2).astype(np.float32)
    c1, c2, c0 = 4 / 3, -1 / 12, -5 / 2 * 3
    src_idx, src_w = spread(source, shape)
    src_at = np.unravel_index(src_idx, shape)
    # The source's delta spread over its points, 1/h^3 each; c carries dt^2 v^2 / h^2.
    src_term = (src_w / H).astype(np.float32) * c[src_at]
    rec = [spread(r, shape) for r in receivers]
    rec_at = np.unravel_index(np.stack([r[0] for r in rec]), shape)  # each (receivers, points)
    rec_w = np.stack([r[1] for r in rec]).astype(np.float32)

    # Stable while v dt / h <= 2 / sqrt(3 axes x 16/3, the sum of |coefficients| of one axis).
    assert V[-1] * DT_MODEL / H <= 0.5, "DT_MODEL is unstable"
    steps = int(round(RECORDING / DT_MODEL))
    # Two ghost points on each face hold zeros: L reads them at the outer faces.
    prev = np.zeros((nz + 4, ny + 4, nx + 4), np.float32)
    cur = np.zeros_like(prev)
    lap = np.empty(shape, np.float32)
    tmp = np.empty(shape, np.float32)
    out = np.zeros((steps + 1, len(receivers)), np.float32)
    wavelet = ricker(DT_MODEL * np.arange(steps)).astype(np.float32)

    def inner(u, axis=0, d=0):
        """u's points of the padded grid, shifted by d along axis."""
        s = [slice(2, u.shape[ax] - 2) for ax in range(3)]
        s[axis] = slice(2 + d, u.shape[axis] - 2 + d)
        return u[tuple(s)]

    for n in range(steps):
        p = inner(cur)
        np.multiply(p, c0, out=lap)
        for axis in range(3):
            np.add(inner(cur, axis, 1), inner(cur, axis, -1), out=tmp)
            tmp *= c1
            lap += tmp
            np.add(inner(cur, axis, 2), inner(cur, axis, -2), out=tmp)
            tmp *= c2
            lap += tmp
        lap *= c
        # p+ = a p - b p- + c (L p + s), written over p-.
        nxt = inner(prev)
        nxt *= -b
        np.multiply(p, a, out=tmp)
        nxt += tmp
        nxt += lap
        nxt[src_at] += src_term * wavelet[n]
        prev, cur = cur, prev
        out[n + 1] = (nxt[rec_at] * rec_w).sum(axis=1)
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    model = velocity_model()
    np.save(os.path.join(outdir, "model.npy"), model)
    top = velocity_model(top_only=True)
    receivers = [(x, y, RECEIVER_DEPTH) for y in RECEIVER_Y for x in RECEIVER_X]
    every = int(round(INTERVAL_US * 1e-6 / DT_MODEL))
    first = int(round(DELAY_MS * 1e-3 / DT_MODEL))
    for number, source in enumerate(SOURCES, start=1):
        data = model_shot(model, source, receivers) - model_shot(top, source, receivers)
        traces = data[first::every].T  # (receivers, samples), sample 0 at DELAY_MS
        path = os.path.join(outdir, f"shot{number}.segy")
        write_shot(path, number, source, receivers, traces)
        print(f"{path}: shot {number}, source at {source} m, {len(receivers)} receivers, "
              f"{traces.shape[1]} samples of {INTERVAL_US} µs from {DELAY_MS} ms")
    x = H * np.arange(NX)
    flat, dip = interfaces(x)
    with open(os.path.join(outdir, "truth.json"), "w") as f:
        json.dump({"h": H, "shape_zyx": [NZ, NY, NX], "interfaces_m": [flat.tolist(), dip.tolist()],
                   "receiver_depth": RECEIVER_DEPTH, "source_depth": SOURCES[0][2],
                   "source_x": [s[0] for s in SOURCES]}, f)


def write_shot(path, number, source, receivers, traces):
    spec = segyio.spec()
    spec.format = 5  # IEEE float
    spec.samples = np.arange(traces.shape[1]) * INTERVAL_US * 1e-3 + DELAY_MS
    spec.tracecount = len(receivers)
    xy_scalar, elev_scalar = -10, -100  # decimetres and centimetres
    with segyio.create(path, spec) as f:
        f.bin.update({segyio.BinField.Interval: INTERVAL_US,
                      segyio.BinField.Samples: traces.shape[1],
                      segyio.BinField.Format: 5,
                      segyio.BinField.Traces: len(receivers)})
        for t, r in enumerate(receivers):
            f.header[t] = {
                segyio.TraceField.TRACE_SEQUENCE_FILE: t + 1,
                segyio.TraceField.FieldRecord: number,
                segyio.TraceField.TraceNumber: t + 1,
                segyio.TraceField.SourceGroupScalar: xy_scalar,
                segyio.TraceField.SourceX: int(round(source[0] * 10)),
                segyio.TraceField.SourceY: int(round(source[1] * 10)),
                segyio.TraceField.GroupX: int(round(r[0] * 10)),
                segyio.TraceField.GroupY: int(round(r[1] * 10)),
                segyio.TraceField.ElevationScalar: elev_scalar,
                segyio.TraceField.SourceDepth: int(round(source[2] * 100)),
                segyio.TraceField.ReceiverGroupElevation: -int(round(r[2] * 100)),
                segyio.TraceField.TRACE_SAMPLE_COUNT: traces.shape[1],
                segyio.TraceField.TRACE_SAMPLE_INTERVAL: INTERVAL_US,
                segyio.TraceField.DelayRecordingTime: DELAY_MS,
            }
            f.trace[t] = np.ascontiguousarray(traces[t], np.float32)


if __name__ == "__main__":
    main()
