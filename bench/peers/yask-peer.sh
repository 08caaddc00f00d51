#!/usr/bin/env bash
# yask-peer.sh YASK_CHECKOUT [--size N|NX,NY,NZ]... [--trials R] [--steps S] [--arch avx512|avx2]
#              [--build-dir DIR] [--stencilc PATH] [--devito|--devito-tuned] [--json]
# In one run: `stencilc bench` on acoustic_iso8 and YASK's iso3dfd at radius 4 (the same 25-point
# 8th-order wave equation with a velocity per point), built from a YASK checkout the user gives for
# this machine's ISA and timed after YASK's own auto-tuner, at the same grids; then one table per
# grid with stencilc's best rows, YASK's figure and their ratio, and with --devito Devito's too
# (bench/peers/README.md). Nothing of
# YASK is downloaded or committed: the build goes to a folder outside the repository.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
peers=$root/bench/peers
command_line="$0 $*"

usage() {
  echo "usage: yask-peer.sh YASK_CHECKOUT [--size N|NX,NY,NZ]... [--trials R] [--steps S]" \
    "[--arch avx512|avx2] [--build-dir DIR] [--stencilc PATH] [--devito|--devito-tuned] [--json]" >&2
  exit 2
}
fail() {
  echo "yask-peer.sh: $*" >&2
  exit 2
}
positive() { # NAME VALUE
  [[ $2 =~ ^[1-9][0-9]*$ ]] || fail "$1: '$2' is not a positive integer"
}
# A grid as stencilc's --size takes it, x first: N (a cube) or NX,NY,NZ. Prints "NX NY NZ".
grid() {
  local text=$1 n
  if [[ $text =~ ^[0-9]+$ ]]; then
    set -- "$text" "$text" "$text"
  elif [[ $text =~ ^[0-9]+,[0-9]+,[0-9]+$ ]]; then
    IFS=, read -r -a n <<<"$text"
    set -- "${n[@]}"
  else
    fail "--size: '$text' is not N or NX,NY,NZ (x first)"
  fi
  for n in "$@"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || fail "--size $text: '$n' is not a positive number of points"
    # iso3dfd and acoustic_iso8 reach 4 points each way: 9 points along every axis at least.
    ((n >= 9)) || fail "--size $text: $n points is fewer than the stencils need (9: 4 each way and the point)"
  done
  echo "$@"
}

(($#)) || { echo "yask-peer.sh: give the path of a YASK checkout (https://github.com/intel/yask)" >&2; usage; }
checkout=$1
shift
[[ $checkout != -* ]] || { echo "yask-peer.sh: the first argument is the YASK checkout, not '$checkout'" >&2; usage; }
[[ -f $checkout/src/kernel/Makefile && -f $checkout/src/stencils/Iso3dfdStencil.cpp ]] ||
  fail "'$checkout' is not a YASK checkout (no src/kernel/Makefile and src/stencils/Iso3dfdStencil.cpp)"
checkout=$(cd "$checkout" && pwd)

sizes=() trials=5 steps=20 arch="" build_dir=${TMPDIR:-/tmp}/stencilc-yask-peer
stencilc=$root/build/compiler/stencilc json="" devito=""
while (($#)); do
  case $1 in
  --size) (($# >= 2)) || usage; grid "$2" >/dev/null; sizes+=("$2"); shift 2 ;;
  --trials) (($# >= 2)) || usage; positive --trials "$2"; trials=$2; shift 2 ;;
  --steps) (($# >= 2)) || usage; positive --steps "$2"; steps=$2; shift 2 ;;
  --arch) (($# >= 2)) || usage; arch=$2; shift 2 ;;
  --build-dir) (($# >= 2)) || usage; build_dir=$2; shift 2 ;;
  --stencilc) (($# >= 2)) || usage; stencilc=$2; shift 2 ;;
  --json) json=--json; shift ;;
  # Devito's acoustic operator at the same grids too (the venv devito-peer.sh makes): untuned,
  # or after its autotuner at level aggressive.
  --devito) devito=off; shift ;;
  --devito-tuned) devito=aggressive; shift ;;
  *) echo "yask-peer.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
# The issue's production shapes (x first): a cube and a long-x box.
((${#sizes[@]})) || sizes=("512" "1024,512,256")

# YASK's target for this machine: avx512 where the CPU has the AVX-512 subsets YASK's avx512
# target compiles for (F, VL, CD, BW), else avx2.
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { [[ $flags == *" $1 "* ]]; }
if [[ -z $arch ]]; then
  if has avx512f && has avx512vl && has avx512cd && has avx512bw; then
    arch=avx512
  elif has avx2; then
    arch=avx2
  else
    fail "this CPU has neither AVX-512 (F, VL, CD, BW) nor AVX2 (/proc/cpuinfo), YASK's targets here"
  fi
fi
case $arch in
avx512) has avx512f || fail "--arch avx512: this CPU has no avx512f (/proc/cpuinfo)" ;;
avx2) has avx2 || fail "--arch avx2: this CPU has no avx2 (/proc/cpuinfo)" ;;
*) fail "--arch: '$arch' is neither avx512 nor avx2" ;;
esac

build_dir=$(realpath -m "$build_dir")
case $build_dir/ in
"$root"/*) fail "--build-dir: '$build_dir' is inside the repository; YASK builds outside it" ;;
esac
venv_python=$root/build/peers-venv/bin/python
if [[ -n $devito ]] && ! "$venv_python" -c "import devito" 2>/dev/null; then
  fail "--devito: no Devito in $root/build/peers-venv; bench/peers/devito-peer.sh makes it (from PyPI)"
fi
[[ -x $stencilc ]] || {
  echo "yask-peer.sh: --stencilc: '$stencilc' is not an executable (build it: ninja -C build stencilc)" >&2
  exit 1
}

# Build: YASK's own Makefile, every output under $build_dir (YASK_OUTPUT_DIR), one process (mpi=0),
# at low priority and two jobs by default (YASK_JOBS): the machine may be shared. make is
# incremental, so a second run reuses the build.
exe=$build_dir/bin/yask_kernel.iso3dfd.$arch.exe
log=$build_dir/make-iso3dfd-r4-$arch.log
mkdir -p "$build_dir"
echo "yask-peer.sh: building YASK iso3dfd radius 4 for $arch in $build_dir (log: $log)" >&2
if ! nice -n 19 make -C "$checkout" -j"${YASK_JOBS:-2}" stencil=iso3dfd radius=4 arch="$arch" mpi=0 \
  YASK_OUTPUT_DIR="$build_dir" default >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "yask-peer.sh: the YASK build failed (the whole log: $log)" >&2
  exit 1
fi
[[ -x $exe ]] || { echo "yask-peer.sh: the YASK build made no $exe (log: $log)" >&2; exit 1; }
yask_version=$(git -C "$checkout" describe --tags --always 2>/dev/null || echo unknown)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
reports=()
i=0
# Devito's operator is checked against NumPy once before it is timed (devito_peer.py check).
[[ -z $devito ]] || "$venv_python" "$peers/devito_peer.py" check acoustic
for size in "${sizes[@]}"; do
  read -r nx ny nz <<<"$(grid "$size")"
  i=$((i + 1))
  "$stencilc" bench "$root/dsl-examples/acoustic_iso8.stencil" --json --repeats "$trials" \
    --size "$nx,$ny,$nz" >"$work/$i.stencilc.json"
  # YASK's last domain dimension, z, is its unit-stride one: stencilc's x (fastest) is YASK's z.
  threads=()
  [[ -z ${OMP_NUM_THREADS:-} ]] || threads=(-max_threads "$OMP_NUM_THREADS")
  echo "yask-peer.sh: YASK at -gx $nz -gy $ny -gz $nx (stencilc's $nx x $ny x $nz):" \
    "its auto-tuner, then $trials trials of $steps steps" >&2
  "$exe" -gx "$nz" -gy "$ny" -gz "$nx" -pre_auto_tune -no-auto_tune -num_trials "$trials" \
    -trial_steps "$steps" -no-print_suffixes "${threads[@]}" >"$work/$i.yask.log" 2>&1 || {
    tail -n 20 "$work/$i.yask.log" >&2
    echo "yask-peer.sh: YASK failed at $nx,$ny,$nz" >&2
    exit 1
  }
  /usr/bin/python3 "$peers/yask_log.py" "$work/$i.yask.log" --size "$nx,$ny,$nz" --arch "$arch" \
    --trials "$trials" --steps "$steps" --version "$yask_version" >"$work/$i.yask.json"
  reports+=("$work/$i.stencilc.json" "$work/$i.yask.json")
  if [[ -n $devito ]]; then
    echo "yask-peer.sh: Devito at $nx,$ny,$nz, $trials runs of $steps steps" >&2
    "$venv_python" "$peers/devito_peer.py" time acoustic --size "$nx,$ny,$nz" --steps "$steps" \
      --repeats "$trials" --autotune "$devito" >"$work/$i.devito.json"
    reports+=("$work/$i.devito.json")
  fi
done
/usr/bin/python3 "$peers/report.py" $json --command "$command_line" "${reports[@]}"
