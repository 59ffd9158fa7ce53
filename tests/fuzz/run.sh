#!/usr/bin/env bash
# Run one libFuzzer harness: tests/fuzz/run.sh NAME SECONDS [BUILD_DIR]
# (BUILD_DIR configured with CC=clang -DHDDSCOPE_FUZZ=ON, default
# build-fuzz).  New inputs go to BUILD_DIR/fuzz-corpus/NAME; the seed
# corpus is read, never written; a crash leaves its input in
# BUILD_DIR/fuzz-artifacts/.  The final statistics are printed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:?usage: run.sh NAME SECONDS [BUILD_DIR]}"
secs="${2:?usage: run.sh NAME SECONDS [BUILD_DIR]}"
build="${3:-$here/../../build-fuzz}"
bin="$build/tests/fuzz/fuzz_$name"
[ -x "$bin" ] || { echo "run.sh: $bin missing: configure with CC=clang -DHDDSCOPE_FUZZ=ON" >&2; exit 2; }
work="$build/fuzz-corpus/$name"
mkdir -p "$work" "$build/fuzz-artifacts"
# Leaks count as failures (detect_leaks); the dictionary steers mutations.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
	-dict="$here/dict/$name.dict" -artifact_prefix="$build/fuzz-artifacts/$name-" \
	"$work" "$here/corpus/$name"
