#!/usr/bin/env bash
# wave-demo.sh - A short seismic forward-modelling run (examples/wave,
# docs/SEISMIC.md): fit an ETE-37 coefficient table, then propagate a Ricker
# source through a layered model with a high-velocity body on a small grid,
# once with the ETE 37-point operator and once with the 8th-order FD operator,
# and say where the pictures are. Builds the example first if needed (into
# $STENCILC_BUILD_DIR, default build/). A minute or two on two cores.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
out=${WAVE_DEMO_OUT:-$build/wave-demo}
jobs=${JOBS:-2}

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
ninja -C "$build" -j "$jobs" stencilc wave

mkdir -p "$out"
# The fit the wave program makes at run time: Courant 0.4 at 4500 m/s with
# h = 10 m is dt = 0.4 * 10 / 4500 s.
echo "== stencilc fit-ete: an ETE-37 table for h = 10 m, dt = 0.889 ms, 1500..4500 m/s"
"$build/compiler/stencilc" fit-ete "$root/examples/wave/ete37_sponge.stencil" \
  --spacing 10 --dt 0.000888889 --vmin 1500 --vmax 4500 --nd 7 -o "$out/ete37_table.npy"

for op in ete37 fd8; do
  echo "== wave --operator $op (96x96x120 points, 0.6 s)"
  mkdir -p "$out/$op"
  "$build/examples/wave/wave" --operator "$op" --model layered --size 96x96x120 --h 10 \
    --courant 0.4 --time 0.6 --sponge 16 --frequency 15 --out "$out/$op"
done

echo
echo "Pictures (PNG, with a .npy of the same values beside each):"
echo "  $out/ete37/velocity_xz.png        the velocity model, vertical slice through the source"
echo "  $out/ete37/snapshot_*_xz.png      wavefield snapshots (blue negative, red positive)"
echo "  $out/ete37/seismogram.png         receivers across, time down"
echo "  $out/fd8/...                      the same with the 8th-order FD operator"
