#!/usr/bin/env bash
# ThreadSanitizer over the reader's concurrent tests and whole nights (Docs/TESTING.md):
# builds into .build-tsan, fails on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch=.build-tsan
export TSAN_OPTIONS="halt_on_error=0 exitcode=66"
$swift build --build-tests --sanitize=thread --scratch-path "$scratch"
$swift test --skip-build --sanitize=thread --scratch-path "$scratch" \
  --filter "SnapshotReaderTests|MapLookupTests|KeyTable|CorruptionTests|VerifyPiecesTests"
tonight="$scratch/debug/tonight"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log="$tmp/log"
"$tonight" generate --scale small --out "$tmp/small" >"$log" 2>&1
"$tonight" run --inputs Fixtures/tiny/input --work "$tmp/tiny" --out "$tmp/tiny/out" >>"$log" 2>&1
"$tonight" run --inputs "$tmp/small" --work "$tmp/w" --out "$tmp/w/out" >>"$log" 2>&1
"$tonight" run --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shard 0/2 >>"$log" 2>&1 &
"$tonight" run --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shard 1/2 >>"$log" 2>&1
wait
"$tonight" merge --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shards 2 >>"$log" 2>&1
"$tonight" snapshot verify --out "$tmp/s/out" --references >>"$log" 2>&1
if grep -q "WARNING: ThreadSanitizer" "$log"; then
  grep -A30 "WARNING: ThreadSanitizer" "$log" | head -120
  echo "tsan: data races reported (above)" >&2
  exit 1
fi
echo "tsan: no ThreadSanitizer report; small published $(cat "$tmp/w/out/snapshots/CURRENT"), sharded $(cat "$tmp/s/out/snapshots/CURRENT")"
