#!/usr/bin/env python3
"""plot.py - Figures a geophysicist reads, from a seismic run's .npy files.

Reads the directory a wave or rtm run writes (--out): geometry.json (spacing,
origin, dt, source, receivers, slices; examples/seismic-io/RunGeometry.h) and
the arrays beside it, and draws into DIR/figures/ (or --figures). From a wave
run:

  velocity.png            the velocity model, vertical slice through the source
                          (velocity_xz.npy), source and receiver line marked
  snapshot_NNNNN_xz.png   wavefield slices at t = N dt, vertical (xz) and
  snapshot_NNNNN_xy.png   horizontal (xy) through the source
  seismogram.png          the shot gather: receivers along x across, time down
  image.png               with image.npy and model.npy: the migrated image beside
                          the model, same vertical slice

From an rtm run ("program": "rtm"; examples/rtm/RunFiles.h), x-z slices at the
receivers' y:

  velocity.png            the true model (model.npy), shots and receivers marked
  migration_velocity.png  the smoothed model the data were migrated in, same colours
  snapshot_NNNNN_xz.png   the middle shot's wavefield in the true model
  shot_gather.png         that shot's data as recorded, and the reflections alone
                          (shot_reflections.npy) that were migrated
  image.png               the image, the true model's interfaces (steps up of more
                          than 100 m/s between cells) dotted over it

From an rtm run on the user's survey ("program": "rtm-survey"; rtm --model,
examples/rtm/SurveyRun.h), x-z slices through the first source, every source
and receiver marked (seen along y):

  velocity.png            the velocity migrated in (migration_model.npy)
  image.png               the stacked image
  illumination.png        the source illumination, in dB below its largest value

From an elastic run ("program": "elastic"; examples/elastic), the three
displacement components U, V, W (x, y, z) side by side:

  model.png               vp and vs, vertical slice through the source (vp_xz.npy,
                          vs_xz.npy), source and receiver line marked
  snapshot_NNNNN_xz.png   U, V, W on the vertical slice through the source
  seismogram.png          U, V, W at the receivers along x (seismogram_[uvw].npy),
  crossline.png           along y (crossline_[uvw].npy) and along z through the
  vsp.png                 source (vsp_[uvw].npy), time down

Axes are in metres and seconds from geometry.json, with labels and colour
bars; wavefields, gathers and images are clipped at the --clip percentile of
their absolute values (default 99) so weak events show; slices in space keep
the true aspect ratio. docs/SEISMIC.md §Figures.

  python3 scripts/plot.py build/wave-demo/ete37 [--clip 99] [--figures DIR] [--dpi 120]

Needs numpy and matplotlib (Debian: python3-matplotlib). Exit status 2 with a
message when they are missing, 1 when the directory lacks what it needs.
"""
import argparse
import glob
import json
import os
import re
import shutil
import sys
import tempfile

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
except ImportError as error:
    sys.stderr.write(
        "plot.py: needs numpy and matplotlib (Debian: apt-get install python3-matplotlib): %s\n"
        % error)
    sys.exit(2)


class PlotError(Exception):
    pass


def load_geometry(run_dir):
    path = os.path.join(run_dir, "geometry.json")
    try:
        with open(path) as f:
            g = json.load(f)
    except OSError as e:
        raise PlotError("%s: %s (a wave run writes it into its --out directory)" % (path, e.strerror))
    except ValueError as e:
        raise PlotError("%s: not JSON: %s" % (path, e))
    for key in ("shape", "spacing", "origin", "dt", "source_index", "slices"):
        if key not in g:
            raise PlotError("%s: no '%s'" % (path, key))
    return g


def load(path, shape=None):
    try:
        a = np.load(path)
    except FileNotFoundError:
        raise PlotError("%s: no such file" % path)
    except (OSError, ValueError) as e:
        raise PlotError("%s: %s" % (path, e))
    if shape is not None and a.shape != tuple(shape):
        raise PlotError("%s: shape %s, expected %s from geometry.json" % (path, a.shape, tuple(shape)))
    return a


def axis(g, a):
    """Coordinates (m) of the points along axis a (0 x, 1 y, 2 z)."""
    return g["origin"][a] + g["spacing"][a] * np.arange(g["shape"][a])


def extent(g, horizontal, vertical):
    """imshow extent so that each pixel is centred on its grid point; depth down."""
    h, v = axis(g, horizontal), axis(g, vertical)
    dh, dv = g["spacing"][horizontal], g["spacing"][vertical]
    return [h[0] - dh / 2, h[-1] + dh / 2, v[-1] + dv / 2, v[0] - dv / 2]


def clip_of(values, percentile):
    m = float(np.percentile(np.abs(values), percentile))
    return m if m > 0 else max(float(np.max(np.abs(values))), 1e-30)


def source_position(g):
    return [g["origin"][a] + g["spacing"][a] * g["source_index"][a] for a in range(3)]


def save(fig, path):
    fig.savefig(path, bbox_inches="tight")  # at --dpi (savefig.dpi)
    plt.close(fig)
    return path


def receiver_x(g):
    """x (m) of each receiver: a line along x, `count` points from index[0]."""
    r = g.get("receivers", {"index": [0, 0, 0], "count": g["shape"][0]})
    return g["origin"][0] + g["spacing"][0] * (r["index"][0] + np.arange(r["count"]))


def draw_velocity(g, v, title, path, sources, limits=None):
    """A model's x-z slice (nz, nx) in m/s, the sources (x, z in m) and receivers marked."""
    nx, ny, nz = g["shape"]
    fig, ax = plt.subplots(figsize=(7, 7 * nz / nx * 0.8 + 1))
    vmin, vmax = limits if limits else (None, None)
    im = ax.imshow(v, cmap="viridis", extent=extent(g, 0, 2), aspect="equal",
                   interpolation="nearest", vmin=vmin, vmax=vmax)
    ax.plot([x for x, z in sources], [z for x, z in sources], marker="*", markersize=14,
            color="red", markeredgecolor="white", linestyle="none",
            label="source" if len(sources) == 1 else "sources")
    sz = source_position(g)[2]
    rz = g["origin"][2] + g["spacing"][2] * g["receivers"]["index"][2] if "receivers" in g else sz
    rx = receiver_x(g)
    ax.plot(rx, np.full(len(rx), rz), color="white", linewidth=1, linestyle="--",
            label="receivers")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("depth z (m)")
    y = g["origin"][1] + g["spacing"][1] * g["slices"]["xz_y_index"]
    ax.set_title("%s, vertical slice at y = %.0f m" % (title, y))
    ax.legend(loc="lower right", fontsize=8, facecolor="0.6")  # grey: the white line shows
    fig.colorbar(im, ax=ax, label="velocity (m/s)", shrink=0.8)
    return save(fig, path)


def plot_velocity(g, run_dir, out):
    nx, ny, nz = g["shape"]
    v = load(os.path.join(run_dir, "velocity_xz.npy"), (nz, nx))
    sx, sy, sz = source_position(g)
    return draw_velocity(g, v, "Velocity model", os.path.join(out, "velocity.png"), [(sx, sz)])


def plot_snapshots(g, run_dir, out, percentile, what="Wavefield"):
    nx, ny, nz = g["shape"]
    written = []
    for path in sorted(glob.glob(os.path.join(run_dir, "snapshot_*_x[yz].npy"))):
        match = re.search(r"snapshot_(\d+)_(x[yz])\.npy$", path)
        if not match:
            continue
        step, plane = int(match.group(1)), match.group(2)
        vertical = plane == "xz"
        p = load(path, (nz, nx) if vertical else (ny, nx))
        clip = clip_of(p, percentile)
        sx, sy, sz = source_position(g)
        fig, ax = plt.subplots(figsize=(7, 7 * p.shape[0] / nx * 0.8 + 1))
        im = ax.imshow(p, cmap="seismic", vmin=-clip, vmax=clip, aspect="equal",
                       extent=extent(g, 0, 2 if vertical else 1), interpolation="bilinear")
        ax.plot([sx], [sz if vertical else sy], marker="*", markersize=10, color="black",
                linestyle="none")
        ax.set_xlabel("x (m)")
        if vertical:
            ax.set_ylabel("depth z (m)")
            where = "vertical slice at y = %.0f m" % sy
        else:
            ax.set_ylabel("y (m)")
            ax.invert_yaxis()  # y up, as on a map
            where = "horizontal slice at depth %.0f m" % sz
        ax.set_title("%s at t = %.3f s, %s" % (what, step * g["dt"], where))
        fig.colorbar(im, ax=ax, shrink=0.8,
                     label="pressure (arbitrary units), clipped at %g%%" % percentile)
        written.append(save(fig, os.path.join(out, os.path.basename(path)[:-4] + ".png")))
    return written


def plot_seismogram(g, run_dir, out, percentile):
    nx = g["shape"][0]
    d = load(os.path.join(run_dir, "seismogram.npy"))
    if d.ndim != 2 or d.shape[1] != nx:
        raise PlotError("seismogram.npy: shape %s, expected (samples, %d)" % (d.shape, nx))
    samples = d.shape[0]
    dt = g["dt"]
    x = axis(g, 0)
    clip = clip_of(d, percentile)
    fig, ax = plt.subplots(figsize=(7, 8))
    dx = g["spacing"][0]
    # Sample s is the field at t = s dt (docs/SEISMIC.md §Conventions).
    im = ax.imshow(d, cmap="gray_r", vmin=-clip, vmax=clip, aspect="auto",
                   extent=[x[0] - dx / 2, x[-1] + dx / 2, (samples - 0.5) * dt, -0.5 * dt],
                   interpolation="bilinear")
    sx = source_position(g)[0]
    ax.axvline(sx, color="red", linewidth=0.8, linestyle=":", label="source x")
    ax.set_xlabel("receiver x (m)")
    ax.set_ylabel("time (s)")
    ax.set_title("Shot gather, %d receivers, dt = %.3g ms" % (nx, dt * 1e3))
    ax.legend(loc="lower right", fontsize=8)
    fig.colorbar(im, ax=ax, shrink=0.8,
                 label="pressure (arbitrary units), clipped at %g%%" % percentile)
    return save(fig, os.path.join(out, "seismogram.png"))


def vertical_slice(g, a, name):
    """The xz slice through the source of a model-shaped array, (nz, nx)."""
    nx, ny, nz = g["shape"]
    axes = g.get("volume_axes", "zyx")
    j = g["slices"]["xz_y_index"]
    if axes == "zyx" and a.shape == (nz, ny, nx):
        return a[:, j, :]
    if axes == "xyz" and a.shape == (nx, ny, nz):
        return a[:, j, :].T
    raise PlotError("%s: shape %s is not the grid's %s (geometry.json volume_axes '%s')"
                    % (name, a.shape, (nz, ny, nx) if axes == "zyx" else (nx, ny, nz), axes))


def plot_image(g, run_dir, out, percentile):
    image_path = os.path.join(run_dir, "image.npy")
    model_path = os.path.join(run_dir, "model.npy")
    if not os.path.exists(image_path):
        return None
    if not os.path.exists(model_path):
        raise PlotError("%s: needs model.npy beside it" % image_path)
    image = vertical_slice(g, load(image_path), "image.npy")
    model = vertical_slice(g, load(model_path), "model.npy")
    clip = clip_of(image, percentile)
    nx, ny, nz = g["shape"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5 * nz / nx + 1.2), sharey=True,
                                      constrained_layout=True)
    ext = extent(g, 0, 2)
    vm = left.imshow(model, cmap="viridis", extent=ext, aspect="equal", interpolation="nearest")
    left.set_title("Velocity model")
    fig.colorbar(vm, ax=left, shrink=0.8, label="velocity (m/s)")
    im = right.imshow(image, cmap="gray_r", vmin=-clip, vmax=clip, extent=ext, aspect="equal",
                      interpolation="bilinear")
    right.set_title("Migrated image")
    fig.colorbar(im, ax=right, shrink=0.8,
                 label="image (arbitrary units), clipped at %g%%" % percentile)
    for ax in (left, right):
        ax.set_xlabel("x (m)")
    left.set_ylabel("depth z (m)")
    y = g["origin"][1] + g["spacing"][1] * g["slices"]["xz_y_index"]
    fig.suptitle("Vertical slice at y = %.0f m" % y)
    return save(fig, os.path.join(out, "image.png"))


def shot_positions(g):
    """(x, z) in m of every shot (rtm), or of the one source."""
    shots = g.get("shots_index", [g["source_index"]])
    return [(g["origin"][0] + g["spacing"][0] * i, g["origin"][2] + g["spacing"][2] * k)
            for i, j, k in shots]


def load_volume_slice(g, run_dir, name):
    return vertical_slice(g, load(os.path.join(run_dir, name)), name)


def plot_rtm_models(g, run_dir, out):
    true = load_volume_slice(g, run_dir, "model.npy")
    written = [draw_velocity(g, true, "True velocity model", os.path.join(out, "velocity.png"),
                             shot_positions(g))]
    if os.path.exists(os.path.join(run_dir, "migration_model.npy")):
        smooth = load_volume_slice(g, run_dir, "migration_model.npy")
        # The true model's colour range, so that the two compare at a glance.
        limits = (float(true.min()), float(true.max()))
        written.append(draw_velocity(g, smooth, "Migration velocity model (smoothed)",
                                     os.path.join(out, "migration_velocity.png"),
                                     shot_positions(g), limits))
    return written


def load_gather(g, run_dir, name):
    # One sample a step, and sample 0 at t = 0 (docs/SEISMIC.md §Conventions).
    samples, count = g["steps"] + 1, g["receivers"]["count"]
    return load(os.path.join(run_dir, name), (samples, count))


def plot_rtm_gathers(g, run_dir, out, percentile):
    panels = [("As recorded (true model)", load_gather(g, run_dir, "shot_gather.npy"))]
    if os.path.exists(os.path.join(run_dir, "shot_reflections.npy")):
        panels.append(("Reflections migrated (less the smoothed model's data)",
                       load_gather(g, run_dir, "shot_reflections.npy")))
    dt, samples = g["dt"], g["steps"] + 1
    x, dx = receiver_x(g), g["spacing"][0]
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 7), sharey=True,
                             squeeze=False, constrained_layout=True)
    sx = source_position(g)[0]
    for ax, (title, d) in zip(axes[0], panels):
        clip = clip_of(d, percentile)
        # Sample s is the field at t = s dt.
        im = ax.imshow(d, cmap="gray_r", vmin=-clip, vmax=clip, aspect="auto",
                       extent=[x[0] - dx / 2, x[-1] + dx / 2, (samples - 0.5) * dt, -0.5 * dt],
                       interpolation="bilinear")
        ax.axvline(sx, color="red", linewidth=0.8, linestyle=":", label="source x")
        ax.set_xlabel("receiver x (m)")
        ax.set_title(title, fontsize=10)
        ax.legend(loc="lower right", fontsize=8)
        fig.colorbar(im, ax=ax, shrink=0.8,
                     label="pressure (arbitrary units), clipped at %g%%" % percentile)
    axes[0][0].set_ylabel("time (s)")
    fig.suptitle("Shot gather at x = %.0f m, %d receivers, dt = %.3g ms"
                 % (sx, len(x), dt * 1e3))
    return save(fig, os.path.join(out, "shot_gather.png"))


def interfaces(g, model, every):
    """(x, z) in m of the steps up of more than 100 m/s between cells of every
    `every`-th column of an (nz, nx) model slice, at the boundary between the
    two cells (the rule of examples/rtm/ImageCheck.cpp)."""
    steps = np.zeros(model.shape, dtype=bool)
    steps[:-1, ::every] = np.diff(model, axis=0)[:, ::every] > 100
    k, i = np.nonzero(steps)
    return (g["origin"][0] + g["spacing"][0] * i,
            g["origin"][2] + g["spacing"][2] * (k + 0.5))


def plot_rtm_image(g, run_dir, out, percentile):
    image = load_volume_slice(g, run_dir, "image.npy")
    model = load_volume_slice(g, run_dir, "model.npy")
    clip = clip_of(image, percentile)
    nx, ny, nz = g["shape"]
    fig, ax = plt.subplots(figsize=(7, 7 * nz / nx * 0.8 + 1))
    im = ax.imshow(image, cmap="gray_r", vmin=-clip, vmax=clip, extent=extent(g, 0, 2),
                   aspect="equal", interpolation="bilinear")
    # Sparse dots, so that the image's own peaks stay visible between them.
    x, z = interfaces(g, model, max(1, nx // 25))
    if len(x):
        ax.plot(x, z, linestyle="none", marker=".", markersize=3, color="tab:orange",
                label="interfaces of the true model")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("depth z (m)")
    y = g["origin"][1] + g["spacing"][1] * g["slices"]["xz_y_index"]
    ax.set_title("Migrated image, %d shots, vertical slice at y = %.0f m"
                 % (len(shot_positions(g)), y))
    fig.colorbar(im, ax=ax, shrink=0.8,
                 label="image (arbitrary units), clipped at %g%%" % percentile)
    return save(fig, os.path.join(out, "image.png"))


def draw_rtm(g, run_dir, out, percentile):
    written = plot_rtm_models(g, run_dir, out)
    what = "Shot at x = %.0f m, true model" % source_position(g)[0]
    written += plot_snapshots(g, run_dir, out, percentile, what)
    written.append(plot_rtm_gathers(g, run_dir, out, percentile))
    written.append(plot_rtm_image(g, run_dir, out, percentile))
    return written


def draw_survey_positions(g, ax):
    """Every source and receiver of an rtm --model run (metres), seen along y."""
    r = np.array(g.get("receiver_positions", []), dtype=float).reshape(-1, 3)
    s = np.array(g.get("source_positions", []), dtype=float).reshape(-1, 3)
    ax.plot(r[:, 0], r[:, 2], linestyle="none", marker=".", markersize=2, color="white",
            label="receivers (%d)" % len(r))
    ax.plot(s[:, 0], s[:, 2], linestyle="none", marker="*", markersize=10, color="red",
            markeredgecolor="white", label="sources (%d)" % len(s))
    ax.legend(loc="lower right", fontsize=8, facecolor="0.6")


def draw_survey_slice(g, values, title, label, path, cmap, limits):
    nx, ny, nz = g["shape"]
    fig, ax = plt.subplots(figsize=(7, 7 * nz / nx * 0.8 + 1))
    im = ax.imshow(values, cmap=cmap, vmin=limits[0], vmax=limits[1], extent=extent(g, 0, 2),
                   aspect="equal", interpolation="bilinear")
    draw_survey_positions(g, ax)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("depth z (m)")
    y = g["origin"][1] + g["spacing"][1] * g["slices"]["xz_y_index"]
    ax.set_title("%s, vertical slice at y = %.0f m (sources and receivers of every y)"
                 % (title, y), fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.8, label=label)
    return save(fig, path)


def draw_rtm_survey(g, run_dir, out, percentile):
    """rtm --model: the migration model, the image and the illumination."""
    v = load_volume_slice(g, run_dir, "migration_model.npy")
    image = load_volume_slice(g, run_dir, "image.npy")
    light = load_volume_slice(g, run_dir, "illumination.npy")
    clip = clip_of(image, percentile)
    # Illumination in decibels below its largest value: it spans decades.
    top = max(float(light.max()), 1e-30)
    decibels = 10 * np.log10(np.maximum(light, top * 1e-6) / top)
    return [
        draw_survey_slice(g, v, "Migration velocity model", "velocity (m/s)",
                          os.path.join(out, "velocity.png"), "viridis",
                          (float(v.min()), float(v.max()))),
        draw_survey_slice(g, image, "Migrated image", "image (arbitrary units), clipped at "
                          "%g%%" % percentile, os.path.join(out, "image.png"), "gray_r",
                          (-clip, clip)),
        draw_survey_slice(g, decibels, "Source illumination", "dB below its largest value",
                          os.path.join(out, "illumination.png"), "magma", (-60, 0)),
    ]


def draw_wave(g, run_dir, out, percentile):
    written = [plot_velocity(g, run_dir, out)]
    written += plot_snapshots(g, run_dir, out, percentile)
    written.append(plot_seismogram(g, run_dir, out, percentile))
    image = plot_image(g, run_dir, out, percentile)
    if image:
        written.append(image)
    return written


COMPONENTS = ("u", "v", "w")
COMPONENT_NAMES = {"u": "U (x)", "v": "V (y)", "w": "W (z)"}


def plot_elastic_model(g, run_dir, out):
    nx, ny, nz = g["shape"]
    sx, _, sz = source_position(g)
    rz = g["origin"][2] + g["spacing"][2] * g["receivers"]["index"][2]
    fig, axes = plt.subplots(1, 2, figsize=(12, 6 * nz / nx * 0.8 + 1.5))
    for ax, name in zip(axes, ("vp", "vs")):
        v = load(os.path.join(run_dir, name + "_xz.npy"), (nz, nx))
        im = ax.imshow(v, cmap="viridis", extent=extent(g, 0, 2), aspect="equal",
                       interpolation="nearest")
        ax.plot([sx], [sz], marker="*", markersize=12, color="red", linestyle="none",
                label="source (vertical force)")
        ax.axhline(rz, color="white", linewidth=0.8, linestyle="--", label="receivers along x")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("depth z (m)")
        ax.set_title("%s, vertical slice through the source" % name)
        ax.legend(loc="lower right", fontsize=8)
        fig.colorbar(im, ax=ax, shrink=0.8, label="%s (m/s)" % name)
    return save(fig, os.path.join(out, "model.png"))


def plot_elastic_snapshots(g, run_dir, out, percentile):
    nx, ny, nz = g["shape"]
    sx, sy, sz = source_position(g)
    steps = sorted({int(m.group(1)) for m in (
        re.search(r"snapshot_(\d+)_xz_u\.npy$", p)
        for p in glob.glob(os.path.join(run_dir, "snapshot_*_xz_u.npy"))) if m})
    written = []
    for step in steps:
        fields = [load(os.path.join(run_dir, "snapshot_%05d_xz_%s.npy" % (step, c)), (nz, nx))
                  for c in COMPONENTS]
        clip = clip_of(np.stack(fields), percentile)  # one scale: the components compare
        fig, axes = plt.subplots(1, 3, figsize=(16, 5 * nz / nx * 0.8 + 1.5))
        for ax, c, p in zip(axes, COMPONENTS, fields):
            im = ax.imshow(p, cmap="seismic", vmin=-clip, vmax=clip, aspect="equal",
                           extent=extent(g, 0, 2), interpolation="bilinear")
            ax.plot([sx], [sz], marker="*", markersize=10, color="black", linestyle="none")
            ax.set_xlabel("x (m)")
            ax.set_ylabel("depth z (m)")
            ax.set_title(COMPONENT_NAMES[c])
        fig.suptitle("Displacement at t = %.3f s, vertical slice at y = %.0f m"
                     % (step * g["dt"], sy))
        fig.colorbar(im, ax=axes, shrink=0.8, label="m, clipped at %g%%" % percentile)
        written.append(save(fig, os.path.join(out, "snapshot_%05d_xz.png" % step)))
    return written


def plot_elastic_gathers(g, run_dir, out, percentile):
    nx, ny, nz = g["shape"]
    dt = g["dt"]
    written = []
    for name, a, what in (("seismogram", 0, "receivers along x at depth %.0f m"
                           % (g["origin"][2] + g["spacing"][2] * g["receivers"]["index"][2])),
                          ("crossline", 1, "receivers along y at the source's depth"),
                          ("vsp", 2, "receivers along z through the source")):
        count = g["shape"][a]
        traces = []
        for c in COMPONENTS:
            d = load(os.path.join(run_dir, "%s_%s.npy" % (name, c)))
            if d.ndim != 2 or d.shape[1] != count:
                raise PlotError("%s_%s.npy: shape %s, expected (samples, %d)"
                                % (name, c, d.shape, count))
            traces.append(d)
        clip = clip_of(np.stack(traces), percentile)
        position = axis(g, a)
        step = g["spacing"][a]
        samples = traces[0].shape[0]
        fig, axes = plt.subplots(1, 3, figsize=(16, 7))
        for ax, c, d in zip(axes, COMPONENTS, traces):
            # Sample s is the field at t = s dt (docs/SEISMIC.md §Conventions).
            im = ax.imshow(d, cmap="gray_r", vmin=-clip, vmax=clip, aspect="auto",
                           extent=[position[0] - step / 2, position[-1] + step / 2,
                                   (samples - 0.5) * dt, -0.5 * dt], interpolation="bilinear")
            ax.axvline(source_position(g)[a], color="red", linewidth=0.8, linestyle=":",
                       label="source")
            ax.set_xlabel("receiver %s (m)" % "xyz"[a])
            ax.set_ylabel("time (s)")
            ax.set_title(COMPONENT_NAMES[c])
        axes[0].legend(loc="lower right", fontsize=8)
        fig.suptitle("Vertical force, %s, dt = %.3g ms" % (what, dt * 1e3))
        fig.colorbar(im, ax=axes, shrink=0.8, label="m, clipped at %g%%" % percentile)
        written.append(save(fig, os.path.join(out, name + ".png")))
    return written


def draw_elastic(g, run_dir, out, percentile):
    written = [plot_elastic_model(g, run_dir, out)]
    written += plot_elastic_snapshots(g, run_dir, out, percentile)
    written += plot_elastic_gathers(g, run_dir, out, percentile)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", help="a wave, rtm or elastic run's --out directory")
    parser.add_argument("--figures", help="where the PNG files go (default RUN_DIR/figures)")
    parser.add_argument("--clip", type=float, default=99.0,
                        help="percentile of |value| at which wavefields, gathers and images "
                             "are clipped (default 99)")
    parser.add_argument("--dpi", type=int, default=120,
                        help="pixels per inch of the PNG files (default 120)")
    args = parser.parse_args()
    if not 0 < args.clip <= 100:
        parser.error("--clip %g: a percentile in (0, 100]" % args.clip)
    if not 20 <= args.dpi <= 600:
        parser.error("--dpi %d: expected 20 to 600" % args.dpi)
    plt.rcParams["savefig.dpi"] = args.dpi
    out = args.figures or os.path.join(args.run_dir, "figures")
    # Drawn into a scratch directory beside `out` and moved in only when all
    # succeed, so an error leaves no partial set of figures.
    try:
        g = load_geometry(args.run_dir)
        created = not os.path.isdir(out)
        os.makedirs(out, exist_ok=True)
        scratch = tempfile.mkdtemp(prefix=".plot-", dir=out)
    except (PlotError, OSError) as e:
        sys.stderr.write("plot.py: error: %s\n" % e)
        return 1
    try:
        program = g.get("program", "wave")
        draws = {"wave": draw_wave, "rtm": draw_rtm, "rtm-survey": draw_rtm_survey,
                 "elastic": draw_elastic}
        if program not in draws:
            raise PlotError("geometry.json: program '%s': expected %s"
                            % (program, ", ".join(sorted(draws))))
        draw = draws[program]
        written = draw(g, args.run_dir, scratch, args.clip)
        for path in written:
            os.replace(path, os.path.join(out, os.path.basename(path)))
    except (PlotError, OSError) as e:
        sys.stderr.write("plot.py: error: %s\n" % e)
        shutil.rmtree(scratch, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    print("plot.py: %d figures in %s/" % (len(written), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
