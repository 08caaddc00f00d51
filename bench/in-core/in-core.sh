#!/bin/bash
# How far the caches and memory slow a stencil's single-sweep kernels: each
# variant timed on one thread on an NX x NY x NZ grid, and again with every
# field's rows overlapping within a few kilobytes so that all of them stay in
# L1 (the kernel's in-core rate; `harness incore` in runtime/src/bench/BenchHarness.cpp).
# A row near 1.0 in the last column is bound in the core at that size.
#
#   bench/in-core/in-core.sh STENCIL [NX NY NZ [ND [REPEATS]]]
#
# Defaults: 216 16 16 (about 2 MB: the last-level cache of most machines, not
# L1), ND 902 table columns, 21 timings of each layout, taken in turn.
# Environment: STENCILC (default build/compiler/stencilc).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 6 ] || { [ $# -gt 1 ] && [ $# -lt 4 ]; }; then
  sed -n 2,12p "$0" >&2
  exit 2
fi
stencil=$1 nx=${2:-216} ny=${3:-16} nz=${4:-16} nd=${5:-902} repeats=${6:-21}
for value in "$nx" "$ny" "$nz" "$nd" "$repeats"; do
  if ! [[ $value =~ ^[0-9]+$ ]] || [ "$value" -lt 1 ]; then
    echo "in-core.sh: '$value' is not a positive whole number (NX NY NZ ND REPEATS)" >&2
    exit 2
  fi
done
repo=$(cd "$(dirname "$0")/../.." && pwd)
stencilc=${STENCILC:-$repo/build/compiler/stencilc}
log=$(mktemp)
dir=
trap 'rm -f "$log"; [ -z "$dir" ] || rm -rf "$dir"' EXIT
# The smallest bench that builds and checks the harness; its timings are not used.
"$stencilc" bench "$stencil" --keep --size 24 --time-depths=0 --repeats 1 --nd "$nd" \
  >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
dir=$(sed -n 's/^bench: kept //p' "$log")
"$dir/harness" incore "$nx" "$ny" "$nz" "$nd" "$repeats"
