#!/usr/bin/env bash
# rewritten-vs-original.sh - The legacy acoustic and ETE-37 programs against
# their rewritten versions (docs/LIFT.md "Speed of the rewritten programs"):
# both compiled with -O3 -march=native -fopenmp, run alternately in the same
# run; each prints its time loop's duration to stderr, which is what is timed
# (not the set-up and the output file).
#
#   bench/lift/rewritten-vs-original.sh [ROUNDS] [STEPS] [BUILD]
#
# Needs a build whose `ctest -R legacy` has run (it writes
# BUILD/tests/legacy/NAME/{gen,NAME.rewritten.cpp}). Prints one line per run,
# then the medians and their ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-9} steps=${2:-100} build=${3:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in iso3dfd_legacy ete37_radius_legacy; do
  d=$build/tests/legacy/$name
  if [[ ! -f $d/$name.rewritten.cpp ]]; then
    echo "error: no $d/$name.rewritten.cpp: run ctest -R legacy.$name first" >&2
    exit 1
  fi
  g++ -std=c++20 -O3 -march=native -fopenmp "$root/tests/legacy/$name.cpp" -o "$work/original"
  g++ -std=c++20 -O3 -march=native -fopenmp -I"$d/gen" -I"$root/runtime/include" \
    "$d/$name.rewritten.cpp" "$d"/gen/*.cpp -o "$work/rewritten"
  for _ in $(seq "$rounds"); do
    for kind in original rewritten; do
      t=$(OMP_NUM_THREADS=2 "$work/$kind" /dev/null 208 208 208 "$steps" 2>&1 >/dev/null |
        sed -n 's/time loop: \([0-9.]*\) s/\1/p')
      echo "$name $kind $t"
    done
  done
done | tee "$work/runs"
python3 - "$work/runs" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, kind, t = line.split()
    runs.setdefault(name, {}).setdefault(kind, []).append(float(t))
for name, r in runs.items():
    o, w = statistics.median(r["original"]), statistics.median(r["rewritten"])
    faster = sum(b < a for a, b in zip(r["original"], r["rewritten"]))
    print(f"{name}: original {o:.3f} s, rewritten {w:.3f} s (medians), rewritten/original "
          f"{w / o:.3f}, rewritten faster in {faster} of {len(r['original'])} pairs")
PY
