#!/usr/bin/env bash
# wave-demo.sh - A short seismic forward-modelling run (examples/wave,
# docs/SEISMIC.md): fit an ETE-37 coefficient table, then propagate a Ricker
# source through a layered model with a high-velocity body on a small grid,
# once with the ETE 37-point operator and once with the 8th-order FD operator,
# draw the figures with scripts/plot.py (axes in metres and seconds, colour
# bars) and say where they are. Builds the example first if needed (into
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
  echo "wave-demo.sh: no Python with numpy and matplotlib (Debian: apt-get install python3-matplotlib, or scripts/install-deps.sh)" >&2
  exit 1
fi

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
    --courant 0.4 --time 0.6 --sponge 16 --frequency 15 --png=false --out "$out/$op"
  "$python" "$root/scripts/plot.py" "$out/$op"
done

echo
echo "Figures (scripts/plot.py, from the .npy files and geometry.json beside them):"
echo "  $out/ete37/figures/velocity.png          the velocity model, vertical slice through the source"
echo "  $out/ete37/figures/snapshot_*_xz.png     wavefield snapshots, vertical slices (_xy: horizontal)"
echo "  $out/ete37/figures/seismogram.png        the shot gather: receivers across, time down"
echo "  $out/ete37/seismogram.segy               the same gather in SEG-Y"
echo "  $out/fd8/...                             the same with the 8th-order FD operator"
