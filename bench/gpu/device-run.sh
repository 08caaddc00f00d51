#!/usr/bin/env bash
# device-run.sh - The prepared GPU run: every CUDA variant of every example
# checked against the reference evaluator and timed, with the device triad in
# the same program, in one command that fits a short GPU window (README.md).
#
#   device-run.sh package [BUILD_DIR]
#       here, on the development machine: builds the gpu-bench programs of
#       every dsl-examples/ stencil (float and double) into BUILD_DIR (default
#       build/) and packs them with the shared libraries they need, the
#       dynamic loader included, into gpu-run/ and its archive gpu-run.tar.xz
#       (both ignored by git; the archive, what a device call carries, under
#       64 MiB), so that a GPU machine with only the CUDA driver can run them; with
#       them rtm-gpu (the imaging example's CUDA path, examples/rtm) and
#       rtm-image-check. The examples of ahead0_examples are built a second
#       time with --load-ahead 0 (gpu-bench-<kernel>_ahead0), whose
#       `traditional` alone the run times, as rows "traditional:load-ahead-0".
#       For each of tune_examples (float), `stencilc tune --backend cuda
#       --arch sm_90 --prepare` builds the CUDA tuner's harness and its check
#       data into gpu-run/tune/<kernel>/ (H100 and H200 are sm_90).
#   device-run.sh run [PACKAGE] [--out DIR] [--size NX,NY,NZ] [--quick] [--only A,B] [--budget S]
#       on the GPU machine: PACKAGE is gpu-run.tar.xz (unpacked into a
#       temporary folder first) or an unpacked gpu-run/ (the default: gpu-run/,
#       else gpu-run.tar.xz). Runs every packed program (the table stencils with
#       a random and with a layered index) through the packed loader, then
#       writes OUT/gpu-run.json (results.py's input: one row per stencil,
#       type, index and variant with gpts_per_s and fraction_of_triad; also
#       traditional at each of row_counts rows per thread, "traditional:rows-R"),
#       OUT/gpu-run.log (every program's own table) and prints one table.
#       Then (not with --only) the prepared CUDA tuners, each on the grid the
#       programs time (OUT/tune-<kernel>.txt: what `stencilc tune --backend
#       cuda --result` records here; a row each in gpu-run.json's "tune"
#       list, with the tuner's own seconds), and rtm-gpu once per operator, 100x24x90, 8 shots,
#       memory and revolve storages, each image checked by rtm-image-check:
#       their output in gpu-run.log, a row each in gpu-run.json's "rtm" list.
#       OUT defaults to $OUT where the device tool sets it, else gpu-run-out/.
#       The grids are 512 x 512 x 400 (16384^2 in 2D) unless --size says
#       otherwise: at least 4x the L2 of an H100 or H200 for every example.
#       --only runs the named examples alone (a second run after a change to
#       some kernels); --quick times fewer steps. The runs go in order of
#       what matters most: every float program, float traditional at the other
#       rows per thread, the tuners, then double, the --load-ahead 0 programs
#       and rtm-gpu; none starts once --budget seconds have passed (default
#       420, 0 for no limit), so that a device call of 10 minutes ends with
#       the results of what ran (those left out listed on stderr and in
#       gpu-run.json's "skipped").
#   device-run.sh --dry-run [BUILD_DIR] [--out DIR] [--budget S]
#       here: the same run through the CUDA emulator (the programs tests/
#       builds against it) on tiny grids, and rtm (the emulator build) on
#       one 21-step shot per operator without the image check, and the tuner
#       of each of tune_examples prepared with --emulate, run on 24^3 and
#       recorded with --result into OUT/tuning.json: what CI runs,
#       so that the script, the checks and the JSON are exercised without a GPU.
#
# Exits non-zero if any program fails: a variant that does not match the
# reference evaluator fails its program, and its timings are not reported.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
examples=(acoustic_iso8 ete37 ete73 heat2d laplacian7 lwc_elastic tti)
# Also built with --load-ahead 0 (programs gpu-bench-<kernel>_ahead0), whose traditional alone
# is timed in the same run as rows "traditional:load-ahead-0": where the sweep plan loads
# traditional's queues a plane ahead, the kernel before that change beside it.
ahead0_examples=(acoustic_iso8 ete37 laplacian7)
# traditional is also timed at these output rows per thread (LaunchOptions::rows), as rows
# "traditional:rows-R" beside its one row per thread: blocks of 32 x 8/R threads, so that a
# block covers the 32 x 8 points of the defaults' block with the same shared planes.
row_counts=(2 4)
# `stencilc tune --backend cuda` on the device (float): its search of variant, block, nw and rows,
# the pick confirmed against the launch defaults in the same run.
tune_examples=(acoustic_iso8 ete37)

die() {
  echo "device-run.sh: $*" >&2
  exit 2
}

# The stencils whose kernels read an index field: timed with both index fills.
has_index() { grep -q ':[[:space:]]*index' "$root/dsl-examples/$1.stencil"; }

package() {
  local build=${1:-$root/build} pkg=$root/gpu-run
  [[ -x $(command -v nvcc || echo /usr/local/cuda/bin/nvcc) ]] ||
    die "package needs nvcc (the CUDA toolkit) on this machine"
  local list ahead0
  list=$(
    IFS=';'
    echo "${examples[*]}"
  )
  ahead0=$(
    IFS=';'
    echo "${ahead0_examples[*]}"
  )
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSTENCILC_GPU_BENCH_EXAMPLES="$list" -DSTENCILC_GPU_BENCH_LOAD_AHEAD_0="$ahead0" \
    -DCMAKE_CUDA_ARCHITECTURES="80;90" \
    -DSTENCILC_BUILD_RTM_GPU=ON >/dev/null ||
    die "cmake failed in $build"
  local targets=()
  for e in "${examples[@]}"; do
    targets+=("gpu-bench-${e}_f32" "gpu-bench-${e}_f64")
  done
  for e in "${ahead0_examples[@]}"; do
    targets+=("gpu-bench-${e}_f32_ahead0" "gpu-bench-${e}_f64_ahead0")
  done
  cmake --build "$build" --target "${targets[@]}" rtm-gpu rtm-image-check ||
    die "the gpu-bench programs or rtm-gpu did not build"
  rm -rf "$pkg"
  mkdir -p "$pkg/bin" "$pkg/lib" "$pkg/tune"
  for e in "${tune_examples[@]}"; do
    "$build/compiler/stencilc" tune "$root/dsl-examples/$e.stencil" --backend cuda --arch sm_90 \
      --type float --prepare "$pkg/tune/${e}_f32" >/dev/null || die "cannot prepare the tuner of $e"
    strip "$pkg/tune/${e}_f32/tune-harness"
    rm -f "$pkg/tune/${e}_f32"/*.cu "$pkg/tune/${e}_f32"/*.h
  done
  for t in "${targets[@]}"; do
    strip -o "$pkg/bin/$t" "$build/bench/gpu/$t" || die "cannot copy $t"
  done
  for t in rtm-gpu rtm-image-check; do
    strip -o "$pkg/bin/$t" "$build/examples/rtm/$t" || die "cannot copy $t"
  done
  # Every shared library the programs load, except the driver's (libcuda comes with the GPU
  # machine's driver and must match it), and the loader that goes with this machine's libc:
  # the programs run through it, so the GPU machine's own libc version does not matter.
  ldd "$pkg"/bin/* "$pkg"/tune/*/tune-harness | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u |
    grep -v -e 'libcuda\.so' -e 'linux-vdso' | while read -r lib; do
    cp -L "$lib" "$pkg/lib/"
  done
  # A device call carries at most 64 MiB; the folder is about twice that (rtm-gpu's MPI
  # library alone is 40 MiB), its archive about a fifth.
  local archive=$root/gpu-run.tar.xz size packed
  rm -f "$archive"
  if ! tar -C "$(dirname "$pkg")" -cf - "$(basename "$pkg")" | xz -T0 -6 >"$archive.part"; then
    rm -f "$archive.part"
    die "cannot write $archive"
  fi
  mv "$archive.part" "$archive" || die "cannot write $archive"
  size=$(du -sm "$pkg" | cut -f1)
  packed=$(du -sm "$archive" | cut -f1)
  echo "device-run.sh: packed ${#targets[@]} programs and $(ls "$pkg/lib" | wc -l) libraries" \
    "into $pkg (${size} MiB) and $archive (${packed} MiB, what to carry)"
  if ((packed >= 64)); then
    rm -f "$archive"
    die "the archive is ${packed} MiB, over the 64 MiB a device call carries"
  fi
}

# unpacked PACKAGE: the package folder of PACKAGE, a folder or a .tar.xz archive of one
# (unpacked into a temporary folder).
unpacked() {
  local package=$1
  if [[ -d $package ]]; then
    echo "$package"
    return
  fi
  [[ -f $package && $package == *.tar.xz ]] || die "no package at $package (run 'device-run.sh package' first)"
  local dir
  dir=$(mktemp -d) || die "cannot make a temporary folder"
  xz -dc "$package" | tar -C "$dir" -xf - || die "cannot unpack $package"
  local top=("$dir"/*)
  [[ ${#top[@]} -eq 1 && -d ${top[0]} ]] || die "$package holds no single package folder"
  echo "${top[0]}"
}

# The runs so far: how many ran, those that failed, those not started because the budget was
# spent (`deadline`: SECONDS by which the last run must have started; 0: none).
ran=0
failed=()
skipped=()
deadline=0

# in_budget WHAT: whether a run may start now; if not, WHAT joins `skipped`.
in_budget() {
  if ((deadline > 0 && SECONDS >= deadline)); then
    skipped+=("$1")
    return 1
  fi
}

# run_programs PROGRAM_DIR OUT_DIR LAUNCHER SIZE3D SIZE2D ONLY PHASE EXTRA...: the program runs
# of one phase (of the comma-separated examples ONLY, where it is not empty), both index fills
# where the stencil has an index; each writes its JSON into OUT_DIR/parts. PHASE is f32 or f64
# (every variant at one row per thread), f32-rows or f64-rows (traditional at each of
# row_counts rows per thread, as rows "traditional:rows-R"), or ahead0 (the --load-ahead 0
# programs' traditional, as rows "traditional:load-ahead-0").
run_programs() {
  local bin=$1 out=$2 launcher=$3 size3=$4 size2=$5 only=$6 phase=$7
  shift 7
  mkdir -p "$out/parts"
  shopt -s nullglob
  for program in "$bin"/gpu-bench-*; do
    local kernel=${program##*/gpu-bench-} ahead0=false
    local example=${kernel%_ahead0} type
    [[ $example != "$kernel" ]] && ahead0=true
    type=${example##*_}
    example=${example%_f32}
    example=${example%_f64}
    case $phase in
    ahead0) $ahead0 || continue ;;
    *) ! $ahead0 && [[ $type == "${phase%-rows}" ]] || continue ;;
    esac
    local stencil=$root/dsl-examples/$example.stencil
    [[ -f $stencil ]] || continue
    [[ -z $only || ,$only, == *,$example,* ]] || continue
    local size=$size3
    grep -q 'grid 2d' "$stencil" && size=$size2
    local fills=(random)
    has_index "$example" && fills=(random layered)
    local passes=("")
    [[ $phase == *-rows ]] && passes=("${row_counts[@]}")
    for rows in "${passes[@]}"; do
      local pass_variants=() part=$kernel
      $ahead0 && pass_variants=(--variants=traditional --row-tag=load-ahead-0)
      if [[ -n $rows ]]; then
        pass_variants=(--variants=traditional --rows="$rows" --block-y=$((8 / rows))
          --row-tag="rows-$rows")
        part=$kernel-rows$rows
      fi
      for index in "${fills[@]}"; do
        in_budget "$part/$index" || continue
        echo "== $kernel --index=$index --size=$size ${pass_variants[*]} $*" |
          tee -a "$out/gpu-run.log"
        local start=$SECONDS
        if $launcher "$program" "$stencil" --size="$size" --index="$index" \
          --json="$out/parts/$part-$index.json" "${pass_variants[@]}" "$@" \
          >>"$out/gpu-run.log" 2>&1; then
          echo "   ok in $((SECONDS - start)) s"
        else
          echo "   FAILED (see gpu-run.log)"
          tail -5 "$out/gpu-run.log"
          failed+=("$part/$index")
        fi
        ran=$((ran + 1))
      done
    done
  done
}

# merge_programs OUT_DIR: the programs' JSON into OUT_DIR/gpu-run.json (with the runs the
# budget left out, "skipped", and the lists run_tune and run_rtm wrote) and its table.
merge_programs() {
  local out=$1
  ((ran > 0)) || die "no gpu-bench programs ran"
  # The tuners' and rtm's lists, written before the merge, are kept.
  local before=$out/gpu-run.before.json
  rm -f "$before"
  [[ -f $out/gpu-run.json ]] && mv "$out/gpu-run.json" "$before"
  python3 "$root/bench/gpu/results.py" merge "$out/parts" -o "$out/gpu-run.json" \
    --driver "${DRIVER_VERSION:-}" &&
    python3 - "$out/gpu-run.json" "$before" "${skipped[@]}" <<'PY' &&
import json, pathlib, sys
path, before = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
run = json.loads(path.read_text())
if before.exists():
    for key, value in json.loads(before.read_text()).items():
        if key in ("tune", "rtm"):
            run[key] = value
run["skipped"] = sys.argv[3:]
path.write_text(json.dumps(run, indent=1) + "\n")
PY
    python3 "$root/bench/gpu/results.py" table "$out/gpu-run.json" || failed+=("merge")
  rm -f "$before"
}

# report: what failed and what the budget left out; non-zero if anything failed.
report() {
  if ((${#skipped[@]})); then
    echo "device-run.sh: not started, the budget spent: ${skipped[*]}" >&2
  fi
  if ((${#failed[@]})); then
    echo "device-run.sh: failed: ${failed[*]}" >&2
    return 1
  fi
  echo "device-run.sh: $ran runs, every variant matched the reference evaluator"
}

# run_rtm RTM IMAGE_CHECK OUT_DIR LAUNCHER SIZE SHOTS EXTRA...: the imaging example on the CUDA path
# (docs/SEISMIC.md §The CUDA path), once per operator with the memory and revolve storages
# (rtm fails unless their images are bit-identical), each image then checked by rtm-image-check
# (the reflectors where the model has them) unless IMAGE_CHECK is empty (the dry run's grid is
# too small to image them). Their output goes to OUT_DIR/gpu-run.log, and a
# row per operator to the "rtm" list of OUT_DIR/gpu-run.json (a key of its own: results.py's
# rows are the gpu-bench programs'), with the storages' seconds per shot.
run_rtm() {
  local rtm=$1 check=$2 out=$3 launcher=$4 size=$5 shots=$6 failed=()
  shift 6
  local rows=$out/rtm-rows.txt
  : >"$rows"
  for op in fd8 ete37; do
    in_budget "rtm-$op" || continue
    local dir=$out/rtm-$op
    echo "== rtm --backend cuda --operator $op --size $size --shots $shots" | tee -a "$out/gpu-run.log"
    local start=$SECONDS status=ok
    if $launcher "$rtm" --backend=cuda --operator="$op" --size="$size" --shots="$shots" \
      --frequency=20 --storage=memory,revolve --snapshots=0 \
      --stencil-dir="$root/examples/wave" --out="$dir" "$@" >"$dir.log" 2>&1 &&
      { [[ -z $check ]] || $launcher "$check" "$dir" >>"$dir.log" 2>&1; }; then
      echo "   ok in $((SECONDS - start)) s"
    else
      status=failed
      echo "   FAILED (see gpu-run.log)"
      tail -5 "$dir.log"
      failed+=("rtm-$op")
    fi
    cat "$dir.log" >>"$out/gpu-run.log"
    echo "$op $status $((SECONDS - start)) $dir.log" >>"$rows"
  done
  python3 - "$out/gpu-run.json" "$rows" "$size" "$shots" <<'PY' || failed+=("rtm-json")
import json, pathlib, re, sys
path, rows, size, shots = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
run = json.loads(pathlib.Path(path).read_text()) if pathlib.Path(path).exists() else {}
run["rtm"] = []
for line in pathlib.Path(rows).read_text().splitlines():
    op, status, seconds, log = line.split(maxsplit=3)
    text = pathlib.Path(log).read_text()
    # rtm's storage table: "memory  s/shot  fwd steps ..." rows.
    per_shot = {m.group(1): float(m.group(2))
                for m in re.finditer(r"^(memory|revolve)\s+([0-9.]+)\s", text, re.M)}
    run["rtm"].append({"operator": op, "size": size, "shots": shots,
                       "ok": status == "ok", "seconds": int(seconds),
                       "seconds_per_shot": per_shot,
                       "device": (re.findall(r"cuda backend on ([^(\n]*[^ (\n])", text) or [""])[0]})
pathlib.Path(path).write_text(json.dumps(run, indent=1) + "\n")
PY
  rm -f "$rows"
  if ((${#failed[@]})); then
    echo "device-run.sh: failed: ${failed[*]}" >&2
    return 1
  fi
  echo "device-run.sh: rtm on the CUDA path, both operators: memory and revolve bit-identical" \
    "$([[ -n $check ]] && echo ", the reflectors imaged")"
}

# run_tune TUNE_DIR OUT_DIR LAUNCHER NX NY NZ BUDGET: each prepared tuner (TUNE_DIR/<kernel>/,
# `stencilc tune --prepare`) on an NX x NY x NZ grid, random index, 10 steps a timing: its
# output in OUT_DIR/tune-<kernel>.txt (what `stencilc tune --result` records) and a row per
# tuner in gpu-run.json's "tune" list: the launch picked, GPts/s of the pick and of the defaults
# in the same run, and the tuner's seconds on the device.
run_tune() {
  local dir=$1 out=$2 launcher=$3 nx=$4 ny=$5 nz=$6 budget=$7 failed=()
  local rows=$out/tune-rows.txt
  : >"$rows"
  shopt -s nullglob
  for tuner in "$dir"/*/; do
    local kernel
    kernel=$(basename "$tuner")
    in_budget "tune-$kernel" || continue
    echo "== tune $kernel --size $nx,$ny,$nz --budget $budget" | tee -a "$out/gpu-run.log"
    local start=$SECONDS status=ok
    if $launcher "$tuner/tune-harness" tune "$tuner/check" "$nx" "$ny" "$nz" 902 random 10 \
      "$budget" >"$out/tune-$kernel.txt" 2>>"$out/gpu-run.log"; then
      echo "   ok in $((SECONDS - start)) s"
    else
      status=failed
      echo "   FAILED (see gpu-run.log)"
      failed+=("tune-$kernel")
    fi
    echo "$kernel $status $((SECONDS - start)) $out/tune-$kernel.txt" >>"$rows"
  done
  python3 - "$out/gpu-run.json" "$rows" <<'PY' || failed+=("tune-json")
import json, pathlib, sys
path, rows = sys.argv[1], sys.argv[2]
run = json.loads(pathlib.Path(path).read_text()) if pathlib.Path(path).exists() else {}
run["tune"] = []
for line in pathlib.Path(rows).read_text().splitlines():
    kernel, status, seconds, result = line.split(maxsplit=3)
    launches, grid, pick = {}, None, None
    for words in (l.split() for l in pathlib.Path(result).read_text().splitlines()):
        if words and words[0] in ("checked", "refused"):
            launches[int(words[1])] = " ".join(words[2:7])  # variant, block x, y, nw, rows
        elif words and words[0] == "grid":
            grid = [int(w) for w in words[1:4]]
        elif words and words[0] == "pick":
            pick = (int(words[1]), float(words[2]), float(words[3]), words[4] == "1")
    row = {"kernel": kernel, "ok": status == "ok" and pick is not None, "seconds": int(seconds),
           "result": pathlib.Path(result).name}
    if pick and grid:
        points = grid[0] * grid[1] * grid[2]
        row.update({"size": grid, "pick": launches[pick[0]], "defaults": launches[0],
                    "gpts_per_s": points / pick[1] / 1e9,
                    "default_gpts_per_s": points / pick[2] / 1e9, "kept_defaults": pick[3]})
    run["tune"].append(row)
    print(f"tune {kernel}: {row.get('pick', 'no pick')}"
          f" {row.get('gpts_per_s', 0):.1f} GPts/s, defaults ({row.get('defaults', '?')})"
          f" {row.get('default_gpts_per_s', 0):.1f}, {seconds} s on the device")
pathlib.Path(path).write_text(json.dumps(run, indent=1) + "\n")
PY
  rm -f "$rows"
  if ((${#failed[@]})); then
    echo "device-run.sh: failed: ${failed[*]}" >&2
    return 1
  fi
}

run_packed() {
  local pkg=$root/gpu-run out=${OUT:-$root/gpu-run-out} size3=512,512,400 size2=16384,16384,1 only=
  local budget=420
  [[ -d $pkg || ! -f $root/gpu-run.tar.xz ]] || pkg=$root/gpu-run.tar.xz
  local extra=(--repeats=5 --steps=10)
  if [[ $# -gt 0 && $1 != -* ]]; then
    pkg=$1
    shift
  fi
  while [[ $# -gt 0 ]]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    --size) size3=$2; shift 2 ;;
    --quick) extra=(--repeats=3 --steps=4); shift ;;
    --only) only=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    *) die "unknown option '$1'" ;;
    esac
  done
  [[ $budget =~ ^[0-9]+$ ]] || die "--budget $budget: give whole seconds (0: no limit)"
  if [[ ! -d $pkg ]]; then
    pkg=$(unpacked "$pkg") || exit 2
    # shellcheck disable=SC2064 # the folder is known now
    trap "rm -rf '$(dirname "$pkg")'" EXIT
  fi
  [[ -d $pkg/bin && -d $pkg/lib ]] || die "no package in $pkg (run 'device-run.sh package' first)"
  local loader
  loader=$(ls "$pkg"/lib/ld-linux-*.so.* 2>/dev/null | head -1)
  [[ -n $loader ]] || die "no dynamic loader in $pkg/lib"
  mkdir -p "$out"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 |
    tee "$out/gpu-run.log.head"
  DRIVER_VERSION=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
  # The packed libraries first, then the machine's own (the driver's libcuda).
  local path="$pkg/lib:${LD_LIBRARY_PATH:-}:/usr/local/nvidia/lib64:/usr/lib/x86_64-linux-gnu"
  launch() { "$loader" --library-path "$path" "$@"; }
  local first
  first=$(ls "$pkg"/bin/gpu-bench-* | head -1)
  if ! launch "$first" --help >/dev/null 2>&1; then
    echo "device-run.sh: the packed loader cannot start $first; trying the machine's own" >&2
    launch() { LD_LIBRARY_PATH="$path" "$@"; }
    launch "$first" --help >/dev/null || die "neither loader starts $first"
  fi
  # What matters most first, so that a run cut short by the budget has it: the float kernels,
  # their rows per thread, the tuners, then double, the --load-ahead 0 kernels and rtm.
  ((budget > 0)) && deadline=$((SECONDS + budget))
  : >"$out/gpu-run.log"
  local status=0 phase
  rm -rf "$out/parts" "$out/gpu-run.json" # a run cut short before leaves its parts
  for phase in f32 f32-rows tune f64 f64-rows ahead0; do
    if [[ $phase == tune ]]; then
      [[ -n $only ]] && continue
      IFS=, read -r nx ny nz <<<"$size3"
      run_tune "$pkg/tune" "$out" launch "$nx" "$ny" "$nz" 60 || status=1
      continue
    fi
    run_programs "$pkg/bin" "$out" launch "$size3" "$size2" "$only" "$phase" "${extra[@]}"
  done
  if [[ -z $only ]]; then
    run_rtm "$pkg/bin/rtm-gpu" "$pkg/bin/rtm-image-check" "$out" launch 100x24x90 8 \
      --time=0.8 --sponge=8 --smoothing=2 || status=1
  fi
  merge_programs "$out"
  report || status=1
  cat "$out/gpu-run.log.head" "$out/gpu-run.log" >"$out/gpu-run.log.all" &&
    mv "$out/gpu-run.log.all" "$out/gpu-run.log" && rm -f "$out/gpu-run.log.head"
  rm -rf "$out/parts"
  return $status
}

dry_run() {
  local build=$root/build out
  out=$(mktemp -d)
  if [[ $# -gt 0 && $1 != -* ]]; then
    build=$1
    shift
  fi
  while [[ $# -ge 2 ]]; do
    case $1 in
    --out) out=$2; shift 2 ;;
    --budget) [[ $2 =~ ^[0-9]+$ ]] || die "--budget $2: give whole seconds (0: no limit)"
      (($2 > 0)) && deadline=$((SECONDS + $2))
      shift 2 ;;
    *) break ;;
    esac
  done
  [[ $# -eq 0 ]] || die "unknown option '$1'"
  direct() { "$@"; }
  : >"$out/gpu-run.log"
  rm -rf "$out/parts" "$out/gpu-run.json"
  local phase
  for phase in f32 f32-rows f64 f64-rows ahead0; do
    run_programs "$build/bench/gpu/emulated" "$out" direct 40,24,20 96,64,1 "" "$phase" \
      --repeats=1 --steps=2 --triad-elements=65536
  done
  # rtm on the emulator, 21 steps of one shot: the script's rtm path, not the image's quality.
  OMP_NUM_THREADS=1 run_rtm "$build/examples/rtm/rtm" "" "$out" direct 48x24x56 1 --time=0.03 \
    --sponge=8 || return 1
  # The tuners, prepared for the emulator, run and recorded as on a GPU.
  local tune=$out/tune-prepared
  for e in "${tune_examples[@]}"; do
    "$build/compiler/stencilc" tune "$root/dsl-examples/$e.stencil" --backend cuda --emulate \
      --type float --prepare "$tune/${e}_f32" >/dev/null || return 1
  done
  run_tune "$tune" "$out" direct 24 24 24 5 || return 1
  merge_programs "$out"
  report || return 1
  for e in "${tune_examples[@]}"; do
    [[ -s $out/tune-${e}_f32.txt ]] || continue # left out by the budget
    "$build/compiler/stencilc" tune "$root/dsl-examples/$e.stencil" --backend cuda --emulate \
      --type float --result "$out/tune-${e}_f32.txt" -o "$out/tuning.json" || return 1
  done
}

case ${1:-} in
package) shift; package "$@" ;;
run) shift; run_packed "$@" ;;
--dry-run) shift; dry_run "$@" ;;
*) die "usage: device-run.sh package [BUILD_DIR] | run [PACKAGE] [--out DIR] [--size NX,NY,NZ] [--quick] [--only A,B] [--budget S] | --dry-run [BUILD_DIR] [--out DIR] [--budget S]" ;;
esac
