#!/usr/bin/env bash
# fuzz-lift.sh [SECONDS] - Fuzz `stencilc lift` for SECONDS (default 300) with
# byte-mutated corpus programs (tests/fuzz/lift_fuzz.py): every run must end
# in a lifted, checked .stencil or in located errors, never in a crash, a
# hang or an unlocated error. Builds build/compiler/stencilc first; failing
# inputs are left in build/lift-fuzz-artifacts/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-300}
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-$(nproc)}

cmake --build "$build" -j "$jobs" --target stencilc
rm -rf "$build/lift-fuzz-artifacts"
python3 "$root/tests/fuzz/lift_fuzz.py" --stencilc "$build/compiler/stencilc" \
  --seconds "$seconds" --jobs "$jobs" --artifacts "$build/lift-fuzz-artifacts"
