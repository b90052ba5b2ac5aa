#!/usr/bin/env bash
# ThreadSanitizer over the reader's concurrent tests and whole nights (Docs/TESTING.md):
# builds into .build-tsan, fails on any report and prints it.
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
: >"$log"
# A report makes the command exit 66: show the reports (or the end of the log) before failing.
failed() {
  grep -A30 "WARNING: ThreadSanitizer" "$log" | head -120 || tail -30 "$log"
  echo "tsan: $1 failed (above)" >&2
  exit 1
}
run() { "$tonight" "$@" >>"$log" 2>&1 || failed "tonight $1"; }
run generate --scale small --out "$tmp/small"
run run --inputs Fixtures/tiny/input --work "$tmp/tiny" --out "$tmp/tiny/out"
run run --inputs "$tmp/small" --work "$tmp/w" --out "$tmp/w/out"
"$tonight" run --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shard 0/2 >>"$log" 2>&1 &
shard0=$!
run run --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shard 1/2
wait "$shard0" || failed "tonight run --shard 0/2"
run merge --inputs "$tmp/small" --work "$tmp/s" --out "$tmp/s/out" --shards 2
run snapshot verify --out "$tmp/s/out" --references
# `small` ranks its 10,000 users in two blocks and its 2,000 players in one, so the writer
# thread barely overlaps the rankers: a world of 60,000 users (8 blocks) and 20,000 players
# (2 blocks), on more workers than cores (4), makes them overlap block after block.
run generate --scale small --users 60000 --players 20000 --out "$tmp/many"
run run --inputs "$tmp/many" --work "$tmp/m" --out "$tmp/m/out" --threads 4
run snapshot verify --out "$tmp/m/out" --references
# A second night a day later, over the first one's store, with the feed changed over the day
# (scripts/next-night.py: events dropped, moved, retimed, given another status): alerts read
# the first night's snapshot as their baseline.
next=$(python3 scripts/next-night.py "$tmp/many" "$tmp/many2" 2>>"$log") || failed "scripts/next-night.py"
run run --inputs "$tmp/many2" --work "$tmp/m" --out "$tmp/m/out" --threads 4 --as-of "$next"
grep -q "alerts=[1-9]" "$log" || failed "the second night (no alerts written)"
run snapshot verify --out "$tmp/m/out" --references
if grep -q "WARNING: ThreadSanitizer" "$log"; then failed "a run"; fi
echo "tsan: no ThreadSanitizer report; small published $(cat "$tmp/w/out/snapshots/CURRENT"), sharded $(cat "$tmp/s/out/snapshots/CURRENT"), 60,000 users on 4 workers two nights, the second $(cat "$tmp/m/out/snapshots/CURRENT")"
