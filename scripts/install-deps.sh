#!/usr/bin/env bash
# install-deps.sh - Install, with apt-get, the Debian 12 packages that building
# and testing Stencilc need (docs/DEPENDENCIES.md says what each one is for).
# Installs only what is missing, so a second run does nothing and needs no
# network. Runs apt-get as root, or through sudo when not root.
set -euo pipefail

packages=(
  # Build tools and the compilers: GCC builds the product, clang-14 the fuzzer.
  cmake ninja-build g++ clang-14 python3
  # LLVM 14 support library + its CMake package; it pulls in libffi-dev,
  # libtinfo-dev (via libncurses-dev), libz3-dev and libxml2-dev, which
  # LLVMConfig.cmake looks for. zlib is LLVMSupport's own link dependency.
  llvm-14-dev zlib1g-dev
  # lit, FileCheck and not for the golden tests.
  llvm-14-tools
  # Text formatting and unit tests.
  libfmt-dev libgtest-dev
  # libFuzzer and the sanitizer runtimes (compiler-rt) for scripts/fuzz.sh.
  libclang-rt-14-dev
  # Clang LibTooling for `stencilc lift` and `stencilc rewrite` (headers, CMake
  # package and the shared libclang-cpp).
  libclang-14-dev libclang-cpp14-dev
  # Used by the generated CPU kernels, the coefficient fit and image output.
  libomp-14-dev libeigen3-dev libpng-dev
  # Fibers for the CUDA emulator (runtime/src/emulator): one per emulated GPU thread.
  libboost-context-dev
  # MPI for distributed runs (runtime/src/mpi, docs/DISTRIBUTED.md): MPICH's
  # library, headers and mpiexec.
  libmpich-dev mpich
  # SEG-Y velocity models and shot gathers (examples/seismic-io).
  libsegyio-dev
  # Figures from the seismic examples' .npy files (scripts/plot.py).
  python3-matplotlib
  # segyio for Python: the tests that write and read SEG-Y files as another
  # program would (tests/rtm-survey/heldout.py, tests/seismic/check_conventions.py).
  python3-segyio
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
