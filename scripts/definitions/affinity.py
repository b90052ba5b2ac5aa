"""affinity.md from the raw file: blocks read, sources resolved by name key against the feed's
artists (parsed by `definitions.feed`), targets by id, bad lines rejected, self-recommendations
dropped, repeated pairs at their highest score; compared with the parse-affinity stage's edges
(`tonight runs dump`), its counts and its rejects."""
import collections, json, os, re

from .catalog import WHITE_SPACE, name_key
from .common import dump

HEADER = "Recommended artists for "
SCORE = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z")
DIGITS = re.compile(r"[0-9]+\Z")


def strip(text):
    lo, hi = 0, len(text)
    while lo < hi and text[lo] in WHITE_SPACE:
        lo += 1
    while hi > lo and text[hi - 1] in WHITE_SPACE:
        hi -= 1
    return text[lo:hi]


def not_utf8(text):
    return any("\udc80" <= c <= "\udcff" for c in text)


class Affinity:
    def __init__(self, path, artists):
        """`artists`: the feed's artists, id → record with `name`."""
        by_key = collections.defaultdict(list)
        for a in artists.values():
            by_key[name_key(a["name"])].append(a["id"])
        self.counts, self.rejects, self.unknown_sources = collections.Counter(), [], []
        self.edges = {}
        # Bytes that are not UTF-8 become lone surrogates: a name holding one is a `bad-utf8`
        # note where the stage reads it (a source always; a recommendation's name once its
        # block's source and its id are resolved), and matches no artist's name.
        text = open(path, "rb").read().decode("utf-8", errors="surrogateescape")
        if text.startswith("\ufeff"):
            text = text[1:]
        sources, in_block = None, False
        for number, raw in enumerate(text.split("\n"), start=1):
            line = raw[:-1] if raw.endswith("\r") else raw
            line = line.rstrip(" \t")
            if not line.strip():
                continue
            # The header alone (its space trimmed with the line's) is a header with an empty
            # name: a block of its own, whose source resolves to nothing.
            if line.startswith(HEADER) or line == HEADER.rstrip():
                if in_block:
                    self.counts["unterminated-block"] += 1
                name = line[len(HEADER):]
                if not_utf8(name):
                    self.rejects.append((number, "bad-utf8"))
                ids = [] if not_utf8(name) else by_key.get(name_key(name), [])
                if not ids:
                    self.counts["unknown-source"] += 1
                    self.unknown_sources.append(strip(name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")))
                elif len(ids) > 1:
                    self.counts["ambiguous-source"] += 1
                sources, in_block = ids, True
                self.counts["blocks"] += 1
                continue
            if line == "-----":
                in_block = False
                continue
            self.counts["lines"] += 1
            first, last = line.find(","), line.rfind(",")
            if first < 0 or last == first or not DIGITS.match(line[:first]):
                self.rejects.append((number, "bad-line"))
                continue
            score_text = line[last + 1:]
            if not SCORE.match(score_text) or not 0 <= float(score_text) <= 1:
                self.rejects.append((number, "bad-score"))
                continue
            target, score = int(line[:first]), float(score_text)
            if not sources:
                continue  # an unknown source skips its block: its targets are not resolved
            if target not in artists:
                self.counts["unknown-target"] += 1
                continue
            if not_utf8(line[first + 1:last]):
                self.rejects.append((number, "bad-utf8"))
            if not_utf8(line[first + 1:last]) or name_key(line[first + 1:last]) != name_key(artists[target]["name"]):
                self.counts["name-mismatch"] += 1
            for source in sources:
                if source == target:
                    self.counts["self-recommendation"] += 1
                    continue
                old = self.edges.get((source, target))
                if old is not None:
                    self.counts["duplicate-pair"] += 1
                if old is None or score > old:
                    self.edges[(source, target)] = score
        if in_block:
            self.counts["unterminated-block"] += 1


def compare_affinity(tonight, work, inputs, artists, problems):
    """The stage's edges, warning counts and rejects against the definition's."""
    mine = Affinity(os.path.join(inputs, "affinity.txt"), artists)
    theirs = {(e["source"], e["target"]): e["score"] for e in dump(tonight, work, "parse-affinity", "edges")}
    for pair in sorted(set(theirs) | set(mine.edges)):
        if theirs.get(pair) != mine.edges.get(pair):
            problems.append(f"affinity edge {pair}: {theirs.get(pair)} in the stage, {mine.edges.get(pair)} by definition")
            if len(problems) > 100:
                break
    runs = sorted(os.listdir(os.path.join(work, "runs")))
    record = None
    for run in reversed(runs):
        path = os.path.join(work, "runs", run, "parse-affinity", "stage.json")
        if os.path.exists(path):
            record, directory = json.load(open(path)), os.path.dirname(path)
            break
    if record is not None:
        warnings = record.get("warnings", {})
        for kind in ("unknown-source", "ambiguous-source", "unknown-target", "name-mismatch", "unterminated-block",
                     "self-recommendation", "duplicate-pair"):
            if warnings.get(kind, 0) != mine.counts.get(kind, 0):
                problems.append(f"parse-affinity {kind}: {warnings.get(kind, 0)} in the stage, {mine.counts.get(kind, 0)} by definition")
        if warnings.get("bad-utf8", 0) != sum(1 for _, reason in mine.rejects if reason == "bad-utf8"):
            problems.append(f"parse-affinity bad-utf8: {warnings.get('bad-utf8', 0)} in the stage, "
                            f"{sum(1 for _, reason in mine.rejects if reason == 'bad-utf8')} by definition")
        rows = record.get("rows", {})
        if rows.get("blocks") != mine.counts["blocks"] or rows.get("lines") != mine.counts["lines"]:
            problems.append(f"parse-affinity rows: {rows} in the stage, blocks {mine.counts['blocks']} lines {mine.counts['lines']} by definition")
        rejects_path = os.path.join(directory, "rejects.ndjson")
        got = sorted((r["line"], r["reason"]) for r in map(json.loads, open(rejects_path)) if r) if os.path.exists(rejects_path) else []
        if got != sorted(mine.rejects):
            problems.append(f"parse-affinity rejects: {got[:5]} ({len(got)}) in the stage, {sorted(mine.rejects)[:5]} ({len(mine.rejects)}) by definition")
    return {"affinity edges": len(mine.edges)}
