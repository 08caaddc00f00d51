#!/usr/bin/env bash
# devito-peer.sh [--size N|NX,NY,NZ] [--steps S] [--repeats R] [--tuned] [--stencilc PATH] [--json]
# In one run: `stencilc bench` and Devito on the same problems (acoustic_iso8, and ete37
# with its 11 class coefficients as per-point fields), each Devito operator first checked
# against NumPy, then a table of stencilc's best rows, Devito's figure and their ratios
# (bench/peers/README.md). Devito comes from PyPI into build/peers-venv, made on first use:
# test tooling, never a dependency of stencilc.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
peers=$root/bench/peers
venv=$root/build/peers-venv
devito_pin=devito==4.8.23
command_line="$0 $*"

usage() {
  echo "usage: devito-peer.sh [--size N|NX,NY,NZ] [--steps S] [--repeats R] [--tuned] [--stencilc PATH] [--json]" >&2
  exit 2
}
positive() { # NAME VALUE
  [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "devito-peer.sh: $1: '$2' is not a positive integer" >&2; exit 2; }
}

size="" steps=20 repeats=5 stencilc=$root/build/compiler/stencilc json=""
# --tuned: both tools search their own tile shapes on this machine first (stencilc bench --search;
# Devito's autotuner, level aggressive), so the ratio compares tuned against tuned.
bench_search=() devito_autotune=off
while (($#)); do
  case $1 in
  --size) (($# >= 2)) || usage; size=$2; shift 2 ;;
  --steps) (($# >= 2)) || usage; positive --steps "$2"; steps=$2; shift 2 ;;
  --repeats) (($# >= 2)) || usage; positive --repeats "$2"; repeats=$2; shift 2 ;;
  --stencilc) (($# >= 2)) || usage; stencilc=$2; shift 2 ;;
  --tuned) bench_search=(--search) devito_autotune=aggressive; shift ;;
  --json) json=--json; shift ;;
  *) echo "devito-peer.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
# --size as stencilc bench reads it: N (a cube) or NX,NY,NZ, x first.
if [[ -n $size ]]; then
  [[ $size =~ ^[0-9]+(,[0-9]+,[0-9]+)?$ ]] || {
    echo "devito-peer.sh: --size: '$size' is not N or NX,NY,NZ" >&2
    exit 2
  }
  IFS=, read -r -a extents <<<"$size"
  for n in "${extents[@]}"; do
    positive --size "$n"
    if ((n < 9)); then
      echo "devito-peer.sh: --size: $n is smaller than the stencils (9 points across)" >&2
      exit 2
    fi
  done
fi
if [[ ! -x $stencilc ]]; then
  echo "devito-peer.sh: --stencilc: '$stencilc' is not an executable (build it: ninja -C build stencilc)" >&2
  exit 1
fi

# The venv: made once, kept; a failed install removes it so the next run starts clean.
python=$venv/bin/python
if ! "$python" -c "import devito, sys; sys.exit(devito.__version__ != '${devito_pin#devito==}')" 2>/dev/null; then
  echo "devito-peer.sh: installing $devito_pin into $venv" >&2
  rm -rf "$venv"
  if ! { /usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install --quiet "$devito_pin" >&2; }; then
    rm -rf "$venv"
    echo "devito-peer.sh: could not install $devito_pin from PyPI into $venv" >&2
    exit 1
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
reports=()
for pair in acoustic:acoustic_iso8 ete37:ete37; do
  peer=${pair%%:*} stencil=${pair#*:}
  "$python" "$peers/devito_peer.py" check "$peer"
  # Without --size, stencilc chooses (4x the last-level cache, then a production cube) and
  # Devito takes its first grid; report.py compares the rows at Devito's grid.
  "$stencilc" bench "$root/dsl-examples/$stencil.stencil" --json --repeats "$repeats" \
    ${size:+--size "$size"} "${bench_search[@]}" >"$work/$stencil.stencilc.json"
  n=$(/usr/bin/python3 -c 'import json, sys; print(",".join(map(str, json.load(open(sys.argv[1]))["size"])))' \
    "$work/$stencil.stencilc.json")
  echo "devito-peer.sh: Devito $peer at $n (x first), $repeats runs of $steps steps" >&2
  "$python" "$peers/devito_peer.py" time "$peer" --size "$n" --steps "$steps" \
    --repeats "$repeats" --autotune "$devito_autotune" >"$work/$stencil.devito.json"
  reports+=("$work/$stencil.stencilc.json" "$work/$stencil.devito.json")
done
/usr/bin/python3 "$peers/report.py" $json --command "$command_line" "${reports[@]}"
