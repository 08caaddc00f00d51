#!/usr/bin/env bash
# Rewrites the expected outputs of the `stencilc dump-kernel` golden tests,
# tests/lit/dump-kernel/Inputs/*.txt, with what a built stencilc prints now.
#
# The kernel IR's text still changes; when it changes on purpose, run this and
# review the result with `git diff tests/lit/dump-kernel` before committing it.
#
# The tests are the one list of goldens: each names its command and its
# expected file on two RUN lines,
#   RUN: %stencilc dump-kernel ARGS > %t
#   RUN: diff -u %S/Inputs/NAME.txt %t
# so adding a golden is adding such a test and running this script once.
#
# Usage: scripts/update-kernel-goldens.sh [STENCILC]   (default: build/compiler/stencilc)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
stencilc=${1:-$root/build/compiler/stencilc}
if [[ ! -x $stencilc ]]; then
  echo "error: no stencilc at '$stencilc': build it, or pass its path" >&2
  exit 2
fi
dir=$root/tests/lit/dump-kernel
# As lit runs the tests (lit.cfg.py): the text must not depend on the locale.
export LC_ALL=C

for test in "$dir"/*.test; do
  command=$(sed -n 's/^RUN: %stencilc dump-kernel \(.*\) > %t$/\1/p' "$test")
  expected=$(sed -n 's|^RUN: diff -u %S/\(Inputs/[A-Za-z0-9_.-]*\.txt\) %t$|\1|p' "$test")
  if [[ -z $command && -z $expected ]]; then
    continue # an error test: no golden
  fi
  if [[ -z $command || -z $expected || $command == *$'\n'* || $expected == *$'\n'* ]]; then
    echo "error: $test: expected one dump-kernel RUN line and one diff RUN line" >&2
    exit 1
  fi
  read -ra args <<<"${command//%examples/$root/dsl-examples}"
  # Into a temporary file first, so a failing command leaves the golden as it was.
  tmp=$(mktemp)
  if ! "$stencilc" dump-kernel "${args[@]}" >"$tmp"; then
    rm -f "$tmp"
    echo "error: $test: stencilc dump-kernel ${args[*]} failed" >&2
    exit 1
  fi
  if cmp -s "$tmp" "$dir/$expected"; then
    rm -f "$tmp"
  else
    cat "$tmp" >"$dir/$expected" # not mv: keep the file's mode, not mktemp's 0600
    rm -f "$tmp"
    echo "updated tests/lit/dump-kernel/$expected"
  fi
done
