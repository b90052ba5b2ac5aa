#!/usr/bin/env bash
# Builds and runs one libFuzzer target (Fuzz/TARGET) for SECONDS, from the target's seeds
# (made from Fixtures/ and the test resources by `fuzz-TARGET --write-seeds`); findings
# (crashes, leaks, timeouts) are written to .fuzz/TARGET/.
#
#   scripts/fuzz.sh feed|affinity|csv|playmate|config|snapshot SECONDS [extra libFuzzer flags...]
#
# Every crash found becomes a regression test (see Docs/FUZZING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz.sh TARGET SECONDS}
seconds=${2:?usage: fuzz.sh TARGET SECONDS}
shift 2
out=.fuzz/$target
mkdir -p "$out/corpus" "$out/findings"
case "$target" in
  feed|affinity|csv|playmate|config|snapshot) ;;
  *) echo "unknown target $target (feed, affinity, csv, playmate, config, snapshot)" >&2; exit 2 ;;
esac
# Coverage and AddressSanitizer on every Swift module; libFuzzer linked as a library (its
# `main` would clash with the one SwiftPM gives each executable).
libfuzzer=$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(uname -m).a
TONIGHT_FUZZ=1 swift build -c debug --scratch-path .build-fuzz --product "fuzz-$target" \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker $libfuzzer -Xlinker -lstdc++ >&2
exe=.build-fuzz/debug/fuzz-$target
# The seeds are the target's own (FuzzTarget.seeds, which FuzzTargetsTests holds to what each
# must reach), made from Fixtures/ and the test resources. Without leak detection: Foundation's
# Process (the feed's seeds run gzip and zstd) leaks a weak reference of its own, 32 bytes,
# which would end the script; the fuzz run itself keeps it.
seeds=$out/seeds
rm -rf "$seeds"
ASAN_OPTIONS=detect_leaks=0 "$exe" --write-seeds "$seeds" >&2
"$exe" "$out/corpus" "$seeds" -max_total_time="$seconds" -artifact_prefix="$out/findings/" \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@" 2>&1 | tee "$out/last-run.log" | tail -n 30
