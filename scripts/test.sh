#!/usr/bin/env bash
# test.sh - Set up and build (scripts/setup.sh), run every ctest test (unit
# tests and the lit suite), then fuzz the frontend for a bounded time
# (scripts/fuzz.sh; STENCILC_FUZZ_SECONDS, default 60). This is what CI runs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-2}

bash "$root/scripts/setup.sh"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
bash "$root/scripts/fuzz.sh" "${STENCILC_FUZZ_SECONDS:-60}"
