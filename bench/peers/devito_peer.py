"""Devito peers of stencilc's acoustic_iso8 and ete37 benchmarks (bench/peers/README.md).

  python devito_peer.py time  acoustic|ete37 --size N|NX,NY,NZ --steps S --repeats R
                              [--autotune LEVEL]                         -> JSON on stdout
  python devito_peer.py check acoustic|ete37 [--size 24 --steps 3]           -> exit 1 on mismatch

--size is stencilc's: N (a cube) or NX,NY,NZ with x first and fastest. Devito's last axis (z) is
its contiguous one, so the Devito grid's shape is (NZ, NY, NX).

`check` applies the Devito operator to a deterministic input and compares it with a NumPy
implementation of the same stencil, so a peer that computes something else is caught.
"""

import argparse
import itertools
import json
import os
import statistics
import sys
import time

import numpy as np

# The standard 8th-order central second difference (what stencilc's `laplacian(u, 8)` expands
# to: `stencilc dump-ir dsl-examples/acoustic_iso8.stencil`), weights for offsets 0..4.
LAPLACE8 = [-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0]
RADIUS = 4
SPACE_ORDER = 8
H = 10.0  # grid spacing (m)
DT = 1e-3  # time step (s); with v <= 2500 m/s, v*dt/h <= 0.25: stable, no growth to inf


def ete37_points():
    """axes(4) | diagonals(1): 37 offsets (x, y, z)."""
    pts = {(0, 0, 0)}
    for k in range(1, RADIUS + 1):
        for s in (-k, k):
            pts |= {(s, 0, 0), (0, s, 0), (0, 0, s)}
    for a in (-1, 1):
        for b in (-1, 1):
            pts |= {(a, b, 0), (a, 0, b), (0, a, b)}
    return sorted(pts)


def orbit_key(p):
    """Points in one orbit under reflect x, y, z and swap x y share this key."""
    return tuple(sorted((abs(p[0]), abs(p[1])))), abs(p[2])


# Class j's representative (x, y, z) as `stencilc dump-ir dsl-examples/ete37.stencil` lists them.
STENCILC_CLASS_REPS = [(0, 0, -4), (0, 0, -3), (0, 0, -2), (0, -1, -1), (0, 0, -1), (0, -4, 0),
                       (0, -3, 0), (0, -2, 0), (-1, -1, 0), (0, -1, 0), (0, 0, 0)]


def ete37_classes():
    """The 11 orbits of the 37 points, numbered as stencilc numbers them: by each orbit's
    smallest member in (z, y, x) order. Returns a list of 11 lists of offsets."""
    orbits = {}
    for p in ete37_points():
        orbits.setdefault(orbit_key(p), []).append(p)
    return sorted(orbits.values(), key=lambda o: min((z, y, x) for x, y, z in o))


def devito_setup():
    from devito import configuration

    configuration["language"] = "openmp"
    configuration["log-level"] = "WARNING"
    # 'advanced' profiling gives the summary's GPts/s figure (per-section timers only).
    configuration["profiling"] = "advanced"


def make_grid(shape):
    from devito import Grid

    return Grid(shape=shape, extent=tuple(H * (n - 1) for n in shape), dtype=np.float32)


def acoustic_operator(shape):
    """u.forward = 2u - u.backward + (v*dt)^2 laplace(u), per-point v."""
    from devito import Eq, Function, Operator, TimeFunction

    grid = make_grid(shape)
    u = TimeFunction(name="u", grid=grid, time_order=2, space_order=SPACE_ORDER)
    v = Function(name="v", grid=grid, space_order=0)
    dt = grid.stepping_dim.spacing
    eq = Eq(u.forward, 2 * u - u.backward + (v * dt) ** 2 * u.laplace)
    op = Operator([eq], opt="advanced", name="acoustic_iso8")
    return op, u, {"v": v}


def ete37_operator(shape):
    """u.forward = 2 * sum_d c_class(d)(x) u(x + d) - u.backward, 11 per-point coefficients."""
    from devito import Eq, Function, Operator, TimeFunction

    grid = make_grid(shape)
    u = TimeFunction(name="u", grid=grid, time_order=2, space_order=SPACE_ORDER)
    coeffs = {f"c{j}": Function(name=f"c{j}", grid=grid, space_order=0) for j in range(11)}
    t = grid.stepping_dim
    x, y, z = grid.dimensions
    total = 0
    for j, orbit in enumerate(ete37_classes()):
        total += coeffs[f"c{j}"] * sum(u[t, x + a, y + b, z + c] for a, b, c in orbit)
    eq = Eq(u.forward, 2 * total - u.backward)
    op = Operator([eq], opt="advanced", name="ete37")
    return op, u, coeffs


def fill(kind, shape, u, params, seed=4242):
    """Deterministic, bounded inputs: both time levels random, v in [1500, 2500] m/s; the
    ete37 coefficients are the acoustic operator's weights per class (so the run stays
    bounded), plus a small random part so that every class matters in the check."""
    rng = np.random.default_rng(seed)
    u.data[0] = rng.uniform(-1, 1, shape).astype(np.float32)
    u.data[1] = rng.uniform(-1, 1, shape).astype(np.float32)
    u.data[2] = 0
    v = rng.uniform(1500, 2500, shape).astype(np.float32)
    if kind == "acoustic":
        params["v"].data[:] = v
        return
    s = (v * DT / H) ** 2
    for j, orbit in enumerate(ete37_classes()):
        r = max(max(abs(c) for c in p) for p in orbit)
        axis = all(sum(1 for c in p if c) <= 1 for p in orbit)
        weight = (1.0 + 1.5 * LAPLACE8[0] * s) if r == 0 else (0.5 * LAPLACE8[r] * s if axis else 0)
        noise = 0.01 * s * rng.uniform(-1, 1, shape)
        params[f"c{j}"].data[:] = (weight + noise).astype(np.float32)


def numpy_step(kind, prev, cur, params):
    """One step of the same stencil in NumPy (float64), zero outside the grid like Devito's
    halo; returns the next level."""
    p = np.pad(cur.astype(np.float64), RADIUS)

    def shifted(a, b, c):
        return p[tuple(slice(RADIUS + d, RADIUS + d + n) for d, n in zip((a, b, c), cur.shape))]

    if kind == "acoustic":
        lap = 3 * LAPLACE8[0] * cur.astype(np.float64)
        for k in range(1, RADIUS + 1):
            for s in (-k, k):
                lap += LAPLACE8[k] * (shifted(s, 0, 0) + shifted(0, s, 0) + shifted(0, 0, s))
        v = params["v"].data.astype(np.float64)
        return 2 * cur - prev + (v * DT) ** 2 * lap / (H * H)
    # The 37 points chosen from the 9^3 cube and numbered by their class in stencilc's table
    # (STENCILC_CLASS_REPS), independently of ete37_classes(), which built the operator.
    total = 0
    for a, b, c in itertools.product(range(-RADIUS, RADIUS + 1), repeat=3):
        on_axis = [a, b, c].count(0) >= 2
        diagonal = sorted(map(abs, (a, b, c))) == [0, 1, 1]
        if not (on_axis or diagonal):
            continue
        j = [orbit_key(r) for r in STENCILC_CLASS_REPS].index(orbit_key((a, b, c)))
        total = total + params[f"c{j}"].data.astype(np.float64) * shifted(a, b, c)
    return 2 * total - prev


def check(kind, size, steps):
    shape = tuple(reversed(size))
    op, u, params = (acoustic_operator if kind == "acoustic" else ete37_operator)(shape)
    fill(kind, shape, u, params)
    levels = [u.data[0].astype(np.float64), u.data[1].astype(np.float64)]
    for _ in range(steps):
        levels.append(numpy_step(kind, levels[-2], levels[-1], params))
    op.apply(time_m=1, time_M=steps, dt=DT)
    got = np.asarray(u.data[(steps + 1) % 3], dtype=np.float64)
    want = levels[steps + 1]
    err = float(np.max(np.abs(got - want)))
    scale = float(np.max(np.abs(want)))
    ok = err <= 1e-5 * scale * steps
    print(
        f"check {kind}: {'x'.join(map(str, size))}, {steps} steps: max |devito - numpy| = {err:.3g} "
        f"(max |u| = {scale:.3g}): {'ok' if ok else 'MISMATCH'}",
        file=sys.stderr,
    )
    return ok


def timing(kind, size, steps, repeats, autotune):
    shape = tuple(reversed(size))
    points = size[0] * size[1] * size[2]
    op, u, params = (acoustic_operator if kind == "acoustic" else ete37_operator)(shape)
    fill(kind, shape, u, params)
    # JIT compilation and first touch, not timed. With autotune, Devito's own search of its
    # block shapes runs here on shadow copies of u (preemptive mode); the timed runs below pass
    # the shapes it chose, since each apply otherwise starts again from Devito's defaults.
    tuned = {}
    if autotune == "off":
        op.apply(time_m=1, time_M=1, dt=DT)
    else:
        op.apply(time_m=1, time_M=steps, dt=DT, autotune=(autotune, "preemptive"))
        # Devito records each autotuning summary in op._state (not public API: the pinned
        # version's, devito/core/operator.py `_autotune`); 'tuned' holds the chosen arguments.
        tuned = op._state.get("autotuning", [{}])[-1].get("tuned", {})
        if not tuned:
            sys.exit(f"devito_peer: {kind}: Devito's autotuner chose nothing")
    wall, summary_gpts = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        summary = op.apply(time_m=1, time_M=steps, dt=DT, **tuned)
        wall.append(time.perf_counter() - start)
        # The sections' own C timers: the summary's global figure divides by a time rounded
        # up to 10 ms.
        section_seconds = sum(entry.time for entry in summary.values())
        summary_gpts.append(points * steps / section_seconds / 1e9)
    if not np.all(np.isfinite(u.data)):
        sys.exit(f"devito_peer: {kind}: the field is not finite after the run")
    median = statistics.median(wall)
    import devito
    from devito import configuration

    compiler = configuration["compiler"]
    return {
        "peer": "devito",
        "devito_version": devito.__version__,
        "compiler": f"{type(compiler).__name__} ({compiler.cc} {' '.join(compiler.cflags)})",
        "stencil": kind,
        "size": list(size),
        "devito_shape": list(shape),
        "steps": steps,
        "repeats": repeats,
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset (all cores)"),
        "autotune": autotune,
        "tuned": {k: int(v) for k, v in tuned.items()},
        "seconds_median": median,
        "gpts_per_s": points * steps / median / 1e9,
        "devito_reported_gpts_per_s": statistics.median(summary_gpts),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mode", choices=["time", "check"])
    ap.add_argument("stencil", choices=["acoustic", "ete37"])
    ap.add_argument("--size", default=None, help="N or NX,NY,NZ (x first, as stencilc's)")
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--autotune", choices=["off", "basic", "aggressive", "max"], default="off",
                    help="Devito's autotuner level for its block shapes (time only)")
    a = ap.parse_args()
    text = a.size if a.size is not None else ("24" if a.mode == "check" else "256")
    parts = text.split(",")
    if len(parts) not in (1, 3) or not all(p.isdigit() for p in parts):
        ap.error(f"--size: '{text}' is not N or NX,NY,NZ")
    size = [int(p) for p in parts] * (3 if len(parts) == 1 else 1)
    steps = a.steps if a.steps is not None else (3 if a.mode == "check" else 20)
    for name, value in (("--steps", steps), ("--repeats", a.repeats)):
        if value < 1:
            ap.error(f"{name}: {value} is not positive")
    if min(size) < 2 * RADIUS + 1:
        ap.error(f"--size: {text} has an axis smaller than the stencil ({2 * RADIUS + 1})")
    devito_setup()
    if a.mode == "check":
        sys.exit(0 if check(a.stencil, size, steps) else 1)
    print(json.dumps(timing(a.stencil, size, steps, a.repeats, a.autotune)))


if __name__ == "__main__":
    main()
