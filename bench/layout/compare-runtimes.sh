#!/bin/bash
# Times the kernels of one `stencilc bench --keep` directory against two
# versions of the runtime (the grid layout, the harness), in turn, so that a
# runtime change is measured on the same generated code in the same sitting.
#
#   bench/layout/compare-runtimes.sh REV KEPT_DIR STENCIL SIZE ROUNDS [random|layered]
#
# REV is a git revision of this repository for the "old" runtime; the "new" one
# is the working tree's. Environment: DEPTHS (default 0: single sweeps; "4" adds
# 4 steps per pass), BYTES (compulsory bytes per point for the "of triad"
# column; default 14, acoustic_iso8 has 16), OMP_NUM_THREADS as usual.
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n 2,12p "$0" >&2
  exit 2
fi
rev=$1 dir=$2 name=$3 n=$4 rounds=$5 index=${6:-random}
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$dir/$name.cpp" ] || { echo "compare-runtimes: no $dir/$name.cpp (run stencilc bench --keep)" >&2; exit 1; }
old=$(mktemp -d)
trap 'rm -rf "$old" "$dir/harness-old" "$dir/harness-new"' EXIT
git -C "$repo" archive "$rev" runtime | tar -x -C "$old"
for v in old new; do
  runtime=$([ $v = old ] && echo "$old/runtime" || echo "$repo/runtime")
  # The harness moved to src/bench/; an older REV has it in src/.
  harness=$runtime/src/bench/BenchHarness.cpp
  [ -f "$harness" ] || harness=$runtime/src/BenchHarness.cpp
  ${CXX:-c++} -std=c++20 -O3 -march=native -fopenmp -I"$runtime/include" -I"$dir" "$dir/$name.cpp" \
    "$harness" -o "$dir/harness-$v"
done
cd "$dir"
for r in $(seq "$rounds"); do
  for v in old new; do
    OMP_WAIT_POLICY=passive ./harness-$v run "$n" "$n" "$n" 902 9 0 1 "${DEPTHS:-0}" "$index" 2>/dev/null |
      awk -v r="$r" -v v=$v -v n="$n" -v bytes="${BYTES:-14}" '
        /^triad/ { triad = $2 }
        /^(variant|temporal)/ {
          g = n ^ 3 / $NF / 1e9
          row = row sprintf("%s/T%s %.3f (%.3f)  ", $2, ($1 == "temporal" ? $4 : 1), g, g / (triad / bytes))
        }
        END { printf "round %s %s: triad %.1f GB/s  %s\n", r, v, triad, row }'
  done
done
