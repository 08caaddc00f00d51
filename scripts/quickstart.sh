#!/usr/bin/env bash
# quickstart.sh - Set up and build (scripts/setup.sh), then run stencilc on the
# shipped examples: check every one of them, and print the IR of ETE-37.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}

bash "$root/scripts/setup.sh"
stencilc=$build/compiler/stencilc
cd "$root"

echo "== stencilc check dsl-examples/*.stencil"
"$stencilc" check dsl-examples/*.stencil
echo "every example parses and verifies"
echo "== stencilc dump-ir dsl-examples/ete37.stencil"
"$stencilc" dump-ir dsl-examples/ete37.stencil
