#!/usr/bin/env bash
# roundtrip.sh - Lifts and rewrites one legacy program and checks that the
# rewritten program computes what the original does.
#
#   roundtrip.sh STENCILC SOURCE RUNTIME_INCLUDE WORK_DIR CXX TOLERANCE
#
# Steps: `stencilc lift` (the .stencil), `stencilc check` on it, `stencilc gen`
# (the CPU kernels), `stencilc rewrite` (the program calling them); then both
# programs are compiled with the same flags (the rewritten one also sees the
# runtime's and the kernels' headers), run, and their outputs compared:
# TOLERANCE is the largest difference allowed, relative to the largest value
# (0 asks for bit equality).
set -euo pipefail

if [[ $# -ne 6 ]]; then
  echo "usage: $0 STENCILC SOURCE RUNTIME_INCLUDE WORK_DIR CXX TOLERANCE" >&2
  exit 2
fi
stencilc=$1 source=$2 runtime_include=$3 work=$4 cxx=$5 tolerance=$6
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$source" .cpp)
flags=(-std=c++20 -fopenmp)

rm -rf "$work"
mkdir -p "$work/gen"
set -x
"$stencilc" lift "$source" -o "$work/$name.stencil" -- "${flags[@]}"
"$stencilc" check "$work/$name.stencil"
"$stencilc" gen "$work/$name.stencil" --backend cpu -o "$work/gen"
"$stencilc" rewrite "$source" -o "$work/$name.rewritten.cpp" -- "${flags[@]}"
"$cxx" "${flags[@]}" -O1 "$source" -o "$work/original"
"$cxx" "${flags[@]}" -O1 -I"$work/gen" -I"$runtime_include" \
  "$work/$name.rewritten.cpp" "$work"/gen/*.cpp -o "$work/rewritten"
OMP_NUM_THREADS=2 "$work/original" "$work/original.out"
OMP_NUM_THREADS=2 "$work/rewritten" "$work/rewritten.out"
python3 "$here/compare_outputs.py" "$work/original.out" "$work/rewritten.out" "$tolerance"
