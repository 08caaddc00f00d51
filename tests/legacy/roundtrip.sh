#!/usr/bin/env bash
# roundtrip.sh - Lifts and rewrites one legacy program and checks that the
# rewritten program computes what the original does.
#
#   roundtrip.sh STENCILC SOURCE RUNTIME_INCLUDE WORK_DIR CXX
#
# Steps: `stencilc lift` (the .stencil), `stencilc gen` (the CPU kernel),
# `stencilc rewrite` (the program calling the kernel), then both programs are
# compiled, run, and their outputs compared within float tolerance.
set -euo pipefail

if [[ $# -ne 5 ]]; then
  echo "usage: $0 STENCILC SOURCE RUNTIME_INCLUDE WORK_DIR CXX" >&2
  exit 2
fi
stencilc=$1 source=$2 runtime_include=$3 work=$4 cxx=$5
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$source" .cpp)
flags=(-std=c++20)

rm -rf "$work"
mkdir -p "$work/gen"
set -x
"$stencilc" lift "$source" -o "$work/$name.stencil" -- "${flags[@]}"
"$stencilc" gen "$work/$name.stencil" --backend cpu -o "$work/gen"
"$stencilc" rewrite "$source" -o "$work/$name.rewritten.cpp" -- "${flags[@]}"
"$cxx" "${flags[@]}" -O1 "$source" -o "$work/original"
"$cxx" "${flags[@]}" -O1 -fopenmp -I"$work/gen" -I"$runtime_include" \
  "$work/$name.rewritten.cpp" "$work"/gen/*.cpp -o "$work/rewritten"
"$work/original" "$work/original.out"
OMP_NUM_THREADS=2 "$work/rewritten" "$work/rewritten.out"
python3 "$here/compare_outputs.py" "$work/original.out" "$work/rewritten.out" 1e-5
