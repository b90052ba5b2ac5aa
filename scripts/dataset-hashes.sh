#!/usr/bin/env bash
# Prints the SHA-256 of every dataset (decompressed NDJSON) of the snapshot a run publishes,
# so that a refactor can be checked byte for byte: run it before and after, then diff.
#
#   scripts/dataset-hashes.sh INPUTS [TONIGHT_BINARY] [extra `tonight run` flags...]
set -euo pipefail
inputs=${1:?usage: dataset-hashes.sh INPUTS [TONIGHT] [flags...]}
tonight=${2:-.build/release/tonight}
shift $(( $# >= 2 ? 2 : 1 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tonight" run --inputs "$inputs" --work "$tmp/work" --out "$tmp/out" "$@" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
snap="$tmp/out/snapshots/$(cat "$tmp/out/snapshots/CURRENT")"
for f in "$snap"/*.ndjson.zst; do
  name=$(basename "$f" .ndjson.zst)
  case "$name" in *.index) continue ;; esac
  dict=(); [ -f "$snap/$name.dict" ] && dict=(-D "$snap/$name.dict")  # layout 2 with a trained dictionary
  printf '%s  %s\n' "$(zstd -dc "${dict[@]}" "$f" | sha256sum | cut -c1-64)" "$name"
done
