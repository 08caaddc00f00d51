#!/usr/bin/env bash
# quickstart.sh - Set up and build stencilc and the wave example
# (scripts/setup.sh), then run stencilc on the shipped examples: check every
# one of them, print the IR of ETE-37, generate its CPU kernels and benchmark
# them (checked against the reference evaluator), then run a short
# wave-propagation demo and say where its pictures are.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}

# Only what this script runs: the compiler and the wave example (with the
# runtime libraries they link), not the tests; scripts/test.sh builds those.
bash "$root/scripts/setup.sh" stencilc wave
stencilc=$build/compiler/stencilc
cd "$root"

echo "== stencilc check dsl-examples/*.stencil"
"$stencilc" check dsl-examples/*.stencil
echo "every example parses and verifies"
echo "== stencilc dump-ir dsl-examples/ete37.stencil"
"$stencilc" dump-ir dsl-examples/ete37.stencil
echo "== stencilc gen dsl-examples/ete37.stencil --backend cpu -o build/quickstart-kernels"
"$stencilc" gen dsl-examples/ete37.stencil --backend cpu -o "$build/quickstart-kernels"
echo "generated: $build/quickstart-kernels/ete37.h and ete37.cpp"
echo "== stencilc bench dsl-examples/ete37.stencil --size 128 (every variant checked, then timed)"
"$stencilc" bench dsl-examples/ete37.stencil --size 128 --repeats 3
echo "== a short seismic forward-modelling run (scripts/wave-demo.sh, docs/SEISMIC.md)"
STENCILC_BUILD_DIR=$build bash "$root/scripts/wave-demo.sh"
