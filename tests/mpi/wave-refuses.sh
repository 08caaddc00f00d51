#!/usr/bin/env bash
# wave-refuses.sh MPIEXEC WAVE DIR RANKS MESSAGE [wave options...]
# The wave example under `MPIEXEC -n RANKS` must fail on every rank, print
# MESSAGE (an extended regular expression) exactly once, and write nothing.
set -uo pipefail
mpiexec=$1 wave=$2 dir=$3 ranks=$4 message=$5
shift 5
rm -rf "$dir"
export OMP_NUM_THREADS=1
# shellcheck disable=SC2086 # $mpiexec carries its flags
$mpiexec -n "$ranks" "$wave" --out="$dir/out" "$@" > "$dir.log" 2>&1
status=$?
cat "$dir.log"
if [[ $status -eq 0 ]]; then
  echo "wave-refuses.sh: the run succeeded" >&2
  exit 1
fi
count=$(grep -cE -e "$message" "$dir.log")
if [[ $count -ne 1 ]]; then
  echo "wave-refuses.sh: expected the message once, saw it $count times" >&2
  exit 1
fi
if [[ -e "$dir/out" ]]; then
  echo "wave-refuses.sh: $dir/out was created" >&2
  exit 1
fi
echo "wave-refuses.sh: refused on $ranks ranks with one message, nothing written"
