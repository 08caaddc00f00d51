#!/usr/bin/env bash
# test.sh - Set up and build everything (scripts/setup.sh, warnings as
# errors), fuzz the frontend for a bounded time (scripts/fuzz.sh;
# STENCILC_FUZZ_SECONDS, default 60), then run every ctest test (unit tests,
# the lit suite). This is what CI runs; ctest goes last so that its summary
# closes the log.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
jobs=${STENCILC_JOBS:-2}

# Warnings are errors here (STENCILC_WERROR), so CI keeps the build warning-free.
STENCILC_WERROR=ON bash "$root/scripts/setup.sh"
bash "$root/scripts/fuzz.sh" "${STENCILC_FUZZ_SECONDS:-60}"
# ctest runs $jobs tests at once and each OpenMP test starts a thread per core:
# threads that spin at barriers (the default) take the core another test needs
# and slowed CI's short kernel tests from tens of milliseconds to seconds.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
ctest --test-dir "$build" --output-on-failure -j "$jobs"
