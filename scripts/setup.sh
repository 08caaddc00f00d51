#!/usr/bin/env bash
# setup.sh - Install the dependencies (scripts/install-deps.sh), then configure
# and build Stencilc into build/ (Ninja, RelWithDebInfo). Safe to re-run: it
# rebuilds only what changed.
#
#   setup.sh [TARGET...]   build only these targets (default: everything)
#
# STENCILC_BUILD_DIR: the build directory (default build/).
# STENCILC_JOBS: parallel build jobs (default: all cores).
# STENCILC_WERROR=ON: treat warnings in Stencilc's own targets as errors
#   (scripts/test.sh sets it; default OFF).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-$(nproc)}

bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSTENCILC_WERROR="${STENCILC_WERROR:-OFF}" >/dev/null
targets=()
if [[ $# -gt 0 ]]; then
  targets=(--target "$@")
fi
cmake --build "$build" -j "$jobs" "${targets[@]}"
