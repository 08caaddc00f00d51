#!/usr/bin/env bash
# fuzz.sh [SECONDS] - Build the parser fuzzer with clang-14, ASan and UBSan in
# build-fuzz/ and run it for SECONDS (default 60) on the seed corpus
# (tests/fuzz/seed-corpus.sh) with the DSL dictionary. Fails on any crash,
# sanitizer report, leak, input slower than 5 s, or RSS above 2 GiB; the
# offending input is left in build-fuzz/artifacts/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
build=${STENCILC_FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${STENCILC_JOBS:-$(nproc)}

bash "$root/scripts/install-deps.sh"
# -O1 without NDEBUG: the project's assertions stay on while fuzzing.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DSTENCILC_BUILD_FUZZER=ON >/dev/null
cmake --build "$build" -j "$jobs" --target stencilc_parser_fuzzer

fuzzer=$build/tests/fuzz/stencilc_parser_fuzzer
seeds=$build/fuzz-seeds
corpus=$build/fuzz-corpus # grows across runs; new inputs are written here
artifacts=$build/artifacts
bash "$root/tests/fuzz/seed-corpus.sh" "$seeds"
rm -rf "$artifacts" && mkdir -p "$corpus" "$artifacts"

# libFuzzer's progress goes to a log; only its summary, or the report of a
# failure, is shown.
log=$build/fuzz.log
export UBSAN_OPTIONS=print_stacktrace=1
echo "fuzz.sh: fuzzing the frontend for $seconds s (log: $log)"
status=0
"$fuzzer" "$corpus" "$seeds" \
  -dict="$root/tests/fuzz/stencil.dict" \
  -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=8192 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 || status=$?
if [[ $status -ne 0 ]]; then
  tail -n 80 "$log" >&2
  echo "fuzz.sh: the fuzzer failed (exit $status); inputs that reproduce it:" >&2
  ls -1 "$artifacts" >&2
  echo "reproduce with: $fuzzer $artifacts/FILE" >&2
  exit 1
fi
grep -E '^(Done|stat::)' "$log"
echo "fuzz.sh: no failures in $seconds s"
