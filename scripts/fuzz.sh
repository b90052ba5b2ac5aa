#!/usr/bin/env bash
# Builds and runs one libFuzzer target (Fuzz/TARGET) for SECONDS, seeded from Fixtures/ and the
# test resources; findings (crashes, leaks, timeouts) are written to .fuzz/TARGET/.
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
seeds=$out/seeds
rm -rf "$seeds" && mkdir -p "$seeds"
case "$target" in
  feed) cp Fixtures/tiny/input/feed.xml Tests/TonightFeedTests/Resources/*.xml "$seeds/" 2>/dev/null || true
        gzip -c Fixtures/tiny/input/feed.xml > "$seeds/feed.xml.gz"; zstd -q -c Fixtures/tiny/input/feed.xml > "$seeds/feed.xml.zst" ;;
  affinity) cp Fixtures/tiny/input/affinity.txt "$seeds/"
        printf 'Recommended artists for Battle At the Boat\n2,Showtime Boxing,0.5\n900333,Guns N Hoses,0.25\n-----\n' > "$seeds/2012-names" ;;
  csv) t=Fixtures/tiny/input/tickets; { cat $t/users.csv; printf '\377'; cat $t/favorites.csv; } > "$seeds/favorites"
       { cat $t/users.csv; printf '\377'; cat $t/favorites.csv; printf '\377'; cat $t/follows.csv; } > "$seeds/with-follows" ;;
  config) cp Pipelines/nightly.yaml "$seeds/" ;;
  playmate) d=Fixtures/tiny/input/playmate
        { for f in players quiz sessions session_players friends; do cat "$d/$f.csv"; printf '\377'; done; cat "$d/feedback.csv"; } > "$seeds/all"
        { for f in players quiz sessions session_players; do cat "$d/$f.csv"; printf '\377'; done; cat "$d/friends.csv"; } > "$seeds/no-feedback" ;;
  snapshot)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    swift run -c release tonight run --work "$tmp/w" --out "$tmp/o" >/dev/null 2>&1 || true
    snap=$(ls -d "$tmp"/o/snapshots/2*/ 2>/dev/null | head -1)
    if [ -n "$snap" ]; then
      { printf '\000'; cat "$snap/manifest.json"; } > "$seeds/manifest"
      { printf '\001'; zstd -dc "$snap/explore.index.ndjson.zst"; } > "$seeds/index"
      { printf '\002'; cat "$snap/explore.ndjson.zst"; } > "$seeds/explore"
      { printf '\002'; cat "$snap/alerts.ndjson.zst"; } > "$seeds/alerts"
      { printf '\003'; cat "$snap/explore.keys"; } > "$seeds/keys"
    fi ;;
  *) echo "unknown target $target (feed, affinity, csv, playmate, config, snapshot)" >&2; exit 2 ;;
esac
# Coverage and AddressSanitizer on every Swift module; libFuzzer linked as a library (its
# `main` would clash with the one SwiftPM gives each executable).
libfuzzer=$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(uname -m).a
TONIGHT_FUZZ=1 swift build -c debug --scratch-path .build-fuzz --product "fuzz-$target" \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker $libfuzzer -Xlinker -lstdc++ >&2
exe=.build-fuzz/debug/fuzz-$target
"$exe" "$out/corpus" "$seeds" -max_total_time="$seconds" -artifact_prefix="$out/findings/" \
  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@" 2>&1 | tee "$out/last-run.log" | tail -n 30
