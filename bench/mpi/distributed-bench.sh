#!/usr/bin/env bash
# distributed-bench.sh [SIZE] [ROUNDS] - On this machine's cores, N ranks x 1
# thread against 1 rank x N threads (N = the cores), for acoustic_iso8 and
# ete37, each with its halo exchange overlapped and not; alternating runs,
# JSON lines from build/bench/mpi/distributed-bench (docs/DISTRIBUTED.md).
# SIZE defaults to 256 (fields of 64 MiB each in float: with three levels
# and a coefficient field, at least 4x a 32-64 MiB last-level cache).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${STENCILC_BUILD_DIR:-$root/build}
bench=$build/bench/mpi/distributed-bench
size=${1:-256}
rounds=${2:-3}
cores=$(nproc)
if [[ ! -x $bench ]]; then
  echo "distributed-bench.sh: $bench is missing: build with MPI (scripts/setup.sh)" >&2
  exit 1
fi
echo "# $(date -u +%FT%TZ) $(lscpu | sed -n 's/^Model name: *//p'), $cores cores; L3 $(lscpu | sed -n 's/^L3 cache: *//p')"
for _ in $(seq "$rounds"); do
  for kernel in acoustic_iso8 ete37; do
    OMP_NUM_THREADS=$cores mpiexec -n 1 "$bench" --kernel "$kernel" --size "$size" --rounds 1
    OMP_NUM_THREADS=1 mpiexec -n "$cores" "$bench" --kernel "$kernel" --size "$size" --rounds 1
  done
done
