#!/bin/sh
# Stands in for nvcc in the --resource-usage tests, which must not need the CUDA toolkit: it
# prints its arguments and reports one kernel for the architecture of its -gencode, as
# `nvcc -Xptxas -v` would.
code=unknown
for arg in "$@"; do
  case "$arg" in
  arch=*) code=${arg##*code=} ;;
  esac
done
echo "fake-nvcc $*"
echo "ptxas info    : Compiling entry function '_ZN4test13sweep0_gmemENS_4ArgsE' for '$code'"
echo "ptxas info    : Used 42 registers"
