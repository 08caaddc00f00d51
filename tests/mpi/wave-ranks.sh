#!/usr/bin/env bash
# wave-ranks.sh MPIEXEC WAVE DIR RANKS [wave options...]
# Runs the wave example in one process and under `MPIEXEC -n RANKS`, then
# compares every file the two wrote, byte for byte (docs/DISTRIBUTED.md).
set -euo pipefail
mpiexec=$1 wave=$2 dir=$3 ranks=$4
shift 4
rm -rf "$dir"
mkdir -p "$dir"
export OMP_NUM_THREADS=1
# The one-process run gets the same options but the rank grid.
single=()
for option in "$@"; do
  [[ $option == --ranks=* ]] || single+=("$option")
done
"$wave" --out="$dir/one" "${single[@]}" > "$dir/one.log"
# shellcheck disable=SC2086 # $mpiexec carries its flags
$mpiexec -n "$ranks" "$wave" --out="$dir/many" "$@" > "$dir/many.log"
cat "$dir/many.log"
files=0
for f in "$dir"/one/*; do
  name=$(basename "$f")
  if ! cmp -s "$f" "$dir/many/$name"; then
    echo "wave-ranks.sh: $name differs between 1 and $ranks ranks" >&2
    exit 1
  fi
  files=$((files + 1))
done
if [[ $(find "$dir/many" -type f | wc -l) -ne $files || $files -eq 0 ]]; then
  echo "wave-ranks.sh: the runs wrote different sets of files" >&2
  exit 1
fi
echo "wave-ranks.sh: all $files files identical with 1 and $ranks ranks"
