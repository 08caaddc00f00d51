#!/usr/bin/env bash
# wave-time-tile.sh WAVE OPERATOR VARIANT DEPTH WORK_DIR
#
# Temporal blocking in the wave example (--time-tile, stencilc/timeloop/TimeTiling.h)
# must not change a bit: the same run with one sweep a step and with DEPTH
# steps a pass writes the same seismogram, snapshots and final wavefield
# (byte-identical .npy files). 31 steps with snapshots every 10: passes end
# early at each snapshot, and the last pass is shorter; the layered model puts
# the source below the sponge, receivers on its line.
set -euo pipefail
wave=$1 op=$2 variant=$3 depth=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
args=(--operator="$op" --variant="$variant" --model=layered --size=45x39x51 --steps=31
      --snapshot-every=10 --volume-every=31 --png=false --sponge=6)
"$wave" "${args[@]}" --out="$work/single" > "$work/single.log"
"$wave" "${args[@]}" --time-tile="$depth" --out="$work/tiled" > "$work/tiled.log"
count=0
for f in "$work"/single/*.npy; do
  cmp "$f" "$work/tiled/$(basename "$f")"
  count=$((count + 1))
done
[[ -e "$work/tiled/seismogram.npy" && -e "$work/tiled/wavefield_00031.npy" ]]
echo "$count files byte-identical with --time-tile=$depth ($op, $variant)"
