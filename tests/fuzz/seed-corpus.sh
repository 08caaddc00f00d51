#!/usr/bin/env bash
# seed-corpus.sh DEST - Fill DEST with the parser fuzzer's seed inputs: every
# shipped example (dsl-examples/*.stencil) and every lit test input
# (tests/lit/**/*.stencil, most of them deliberately wrong). DEST is emptied
# first, so the seeds always match the tree.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 DEST" >&2
  exit 2
fi
dest=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

rm -rf "$dest"
mkdir -p "$dest"
count=0
while IFS= read -r -d '' file; do
  # Flatten the path into a unique file name: lit/check/bad.stencil -> lit_check_bad.stencil.
  rel=${file#"$root"/}
  cp "$file" "$dest/${rel//\//_}"
  count=$((count + 1))
done < <(find "$root/dsl-examples" "$root/tests/lit" -name '*.stencil' -type f -print0 2>/dev/null)

if [[ $count -eq 0 ]]; then
  echo "seed-corpus.sh: no .stencil files under dsl-examples/ or tests/lit/" >&2
  exit 1
fi
echo "seed-corpus.sh: $count seeds in $dest"
