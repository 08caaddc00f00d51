#!/usr/bin/env bash
# run-all.sh - Every CUDA variant of every kernel bench/gpu built, checked and
# timed on this machine's GPU, with one command (README.md):
#
#   bench/gpu/run-all.sh [BUILD_DIR] [gpu-bench options...]
#
# Runs each build/bench/gpu/gpu-bench-KERNEL on its dsl-examples/ stencil and
# prints their tables one after another. Configure with
# -DSTENCILC_GPU_BENCH_EXAMPLES="ete37;ete73;acoustic_iso8;..." for more than
# the default two stencils. Exits non-zero when no program is built or any
# program fails (a variant that does not match the reference evaluator).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build
if [[ $# -gt 0 && $1 != -* ]]; then
  build=$1
  shift
fi

shopt -s nullglob
programs=("$build"/bench/gpu/gpu-bench-*)
if [[ ${#programs[@]} -eq 0 ]]; then
  echo "run-all.sh: no gpu-bench programs in $build/bench/gpu (bench/gpu is built only where" \
    "CMake finds a CUDA compiler)" >&2
  exit 1
fi

failed=()
for program in "${programs[@]}"; do
  kernel=${program##*/gpu-bench-}
  example=${kernel%_f32}
  example=${example%_f64}
  stencil=$root/dsl-examples/$example.stencil
  echo "== ${program##*/} $stencil $*"
  "$program" "$stencil" "$@" || failed+=("${program##*/}")
  echo
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "run-all.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "run-all.sh: ${#programs[@]} programs, every variant matched the reference evaluator"
