#!/usr/bin/env bash
# setup.sh - Install the dependencies (scripts/install-deps.sh), then configure
# and build Stencilc into build/ (Ninja, RelWithDebInfo). Safe to re-run: it
# rebuilds only what changed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-$(nproc)}

bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs"
