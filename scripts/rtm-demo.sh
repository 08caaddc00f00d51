#!/usr/bin/env bash
# rtm-demo.sh - Reverse-time migration end to end (examples/rtm,
# docs/SEISMIC.md §Reverse-time migration): eight shots modelled in a model
# with two flat reflectors and a dipping one, migrated in a smoothed copy of
# it with the adjoint kernels stencilc derives from the wave example's
# stencils; then a check that the image's peaks sit at the reflectors, and
# the figures (scripts/plot.py: the models, a shot gather, wavefield
# snapshots and the image, axes in metres and seconds). Builds what it runs
# first if needed (into $STENCILC_BUILD_DIR, default build/). About 4
# minutes on two cores.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
out=${RTM_DEMO_OUT:-$build/rtm-demo}
jobs=${JOBS:-2}

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
ninja -C "$build" -j "$jobs" stencilc rtm rtm-image-check

# plot.py needs numpy and matplotlib (Debian: python3-matplotlib); a Python
# first on PATH (a pyenv, say) may lack them where Debian's has them.
python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import numpy, matplotlib' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [[ -z "$python" ]]; then
  echo "rtm-demo.sh: no Python with numpy and matplotlib (Debian: apt-get install python3-matplotlib, or scripts/install-deps.sh)" >&2
  exit 1
fi

echo "== rtm: 100x24x90 points (h = 10 m), 8 shots, 0.8 s, wavefield kept in memory"
"$build/examples/rtm/rtm" --size 100x24x90 --time 0.8 --shots 8 --sponge 8 --frequency 24 \
  --smoothing 2 --storage memory --out "$out"
echo "== rtm-image-check: the image's peak at each reflector, column by column (3x its background at least)"
"$build/examples/rtm/rtm-image-check" "$out"
echo "== plot.py: the figures"
"$python" "$root/scripts/plot.py" "$out"
echo
echo "Figures (x-z slices at the receivers' y; axes in metres and seconds):"
echo "  $out/figures/velocity.png            the true model, shots and receivers marked"
echo "  $out/figures/migration_velocity.png  the smoothed model the data are migrated in"
echo "  $out/figures/snapshot_*_xz.png       the middle shot's wavefield in the true model"
echo "  $out/figures/shot_gather.png         its data as recorded, and the reflections migrated"
echo "  $out/figures/image.png               the image, the model's interfaces dotted over it"
echo "Arrays (shape (nz, ny, nx): numpy.load(path)[k, j, i] is grid point (i, j, k)):"
echo "  $out/model.npy   the true velocity (m/s)"
echo "  $out/image.npy   the migrated image (source-illumination normalised, -laplacian filtered)"
