"""What the checks share: distances, times, the run store's dumps, the geocoding table and
the published snapshot's records."""
import collections, datetime, json, math, os, re, subprocess

import pyzstd

EARTH_RADIUS_KM = 6371.0088
# Two ranked values closer than this (relative) are a near-tie: recommendations.md breaks
# them by the next key, and two correct programs may then differ in the last bits.
NEAR_TIE = 1e-9



def km(lat1, lon1, lat2, lon2):
    """geocoding.md: haversine on a sphere of radius 6371.0088 km."""
    r = math.pi / 180
    d_lat = (lat2 - lat1) * r
    d_lon = (lon2 - lon1) * r
    a = math.sin(d_lat / 2) * math.sin(d_lat / 2) + \
        math.cos(lat1 * r) * math.cos(lat2 * r) * math.sin(d_lon / 2) * math.sin(d_lon / 2)
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z", re.ASCII)


def instant(text):
    return int(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
               .replace(tzinfo=datetime.timezone.utc).timestamp())


# INPUTS.md: a timestamp as exporters write it, ISO 8601 / RFC 3339 with `T` or a space, a
# fraction of a second, and `Z` or an offset of ±HH, ±HHMM or ±HH:MM (the zone optional here).
EXPORTED_TIMESTAMP = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}:[0-9]{2}:[0-9]{2})(?:[.,]([0-9]+))?(Z|[+-][0-9]{2}(?::?[0-9]{2})?)?\Z", re.ASCII)


def exported_timestamp(text):
    """The parts of an EXPORTED_TIMESTAMP as written: (date, time of day, whether the fraction
    of a second is not zero, the zone's seconds east of UTC or None without a zone), or None
    when the text is not one, names no real date or time, or its offset passes 14 hours or
    its minutes 59."""
    m = EXPORTED_TIMESTAMP.match(text)
    if not m:
        return None
    day, clock, fraction, zone = m.groups()
    try:
        datetime.datetime.strptime(f"{day}T{clock}", "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    offset = None
    if zone == "Z":
        offset = 0
    elif zone:
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:] or "0")
        if hours > 14 or minutes >= 60:
            return None
        offset = (1 if zone[0] == "+" else -1) * (hours * 3600 + minutes * 60)
    return day, clock, bool(fraction and fraction.strip("0")), offset


def exported_instant(text):
    """An instant as exporters write it (INPUTS.md): an `exported_timestamp` with its zone, a
    fraction of a second rounded up to the next whole second; seconds since the epoch in UTC,
    or None."""
    parts = exported_timestamp(text)
    if parts is None or parts[3] is None:
        return None
    day, clock, fraction, offset = parts
    return instant(f"{day}T{clock}Z") - offset + (1 if fraction else 0)


# INPUTS.md: seconds since 1970-01-01 UTC (9 or 10 digits, a decimal fraction or not) or
# milliseconds (12 or 13 digits), as an integer column's export, `Date.now()` or `time.time()`
# write an instant.
EPOCH = re.compile(r"(?:([0-9]{9,10})(?:\.([0-9]+))?|([0-9]{12,13}))\Z", re.ASCII)


def session_instant(text):
    """`sessions.occurs_at`: `exported_instant`, else EPOCH (a fraction of a second rounded up
    to the next second); seconds since the epoch in UTC, or None."""
    t = exported_instant(text)
    if t is not None:
        return t
    m = EPOCH.match(text)
    if not m:
        return None
    if m.group(3):
        ms = int(m.group(3))
        return ms // 1000 + (1 if ms % 1000 else 0)
    return int(m.group(1)) + (1 if m.group(2) and m.group(2).strip("0") else 0)


# INPUTS.md: the words other exporters write for an absent value (pandas' default na_values,
# MySQL's \N, JavaScript's undefined), read as an empty field in every column but the ids.
NULL_MARKERS = frozenset([
    "\\N", "NULL", "null", "NA", "N/A", "n/a", "#N/A", "#N/A N/A", "#NA", "<NA>", "NaN", "nan", "-NaN", "-nan",
    "None", "1.#IND", "-1.#IND", "1.#QNAN", "-1.#QNAN", "undefined"])
NULLABLE = {
    "users.csv": ("home_zip", "lat", "lon", "radius_km", "max_price"),
    "players.csv": ("birthday", "gender", "lat", "lon"),
    "quiz.csv": ("lat", "lon", "play_sports", "avoid_sports", "genders", "age_groups"),
    "sessions.csv": ("skill_level", "duration_min", "location_name", "sport", "occurs_at", "lat", "lon", "capacity"),
    "feedback.csv": ("reason", "answer"),
}


def without_null_markers(name, row):
    """`row` (a csv.DictReader row of export file `name`) with its null markers made empty."""
    for column in NULLABLE.get(name, ()):
        if (row.get(column) or "").strip(" \t") in NULL_MARKERS:
            row[column] = ""
    return row


def dump(tonight, work, stage, table):
    out = subprocess.run([tonight, "runs", "dump", "--work", work, stage, table],
                         check=True, capture_output=True).stdout
    return [json.loads(line) for line in out.splitlines() if line]


def valid_id(raw):
    """user-data.md: an id is 1 to 64 printable characters (trimmed of spaces and tabs), as
    Python's `str.isprintable` has them; bytes that are not UTF-8 (read as lone surrogates)
    are not printable. The id, or None."""
    s = raw.strip(" \t")
    return s if 1 <= len(s) <= 64 and s.isprintable() else None


def id_or_empty(text):
    """`valid_id` as text, for the every-scalar test: the id, or "" for none."""
    return valid_id(text) or ""


def number(raw):
    """INPUTS.md: decimal text (a sign, digits with a point, an exponent; no hex, no inf or
    nan, no underscores), trimmed of spaces and tabs, shorter than 40 characters, finite.
    The value, or None."""
    s = raw.strip(" \t")
    if not s or len(s) >= 40 or not NUMBER.match(s):
        return None
    v = float(s)
    return v if math.isfinite(v) else None


def zip5(raw):
    """geocoding.md: trimmed; five digits, ZIP+4 or nine digits."""
    s = raw.strip(" \t")
    if len(s) < 5 or not s[:5].isdigit() or not s[:5].isascii():
        return None
    ok = len(s) == 5 or (len(s) == 9 and s[5:].isdigit() and s[5:].isascii()) or \
        (len(s) == 10 and s[5] == "-" and s[6:].isdigit() and s[6:].isascii())
    return s[:5] if ok else None


def geotable(path):
    """ZIP → (lat, lon), and every point of the table by its 1e-5 cell."""
    text = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout.decode()
    zips, cells = {}, collections.defaultdict(list)
    for line in text.splitlines():
        f = line.split("\t")
        if f[0] == "Z":
            point = (float(f[2]), float(f[3]))
            zips[f[1]] = point
        elif f[0] == "P":
            point = (float(f[4]), float(f[5]))
        elif f[0] == "R":
            point = (float(f[3]), float(f[4]))
        else:
            continue
        cells[(math.floor(point[0] * 1e5), math.floor(point[1] * 1e5))].append(point)
    return zips, cells


def exact_point(cells, lat, lon):
    """The table's point that `lat`/`lon` (published to 5 decimals) was rounded from."""
    found = set()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            for p in cells.get((math.floor(lat * 1e5) + dy, math.floor(lon * 1e5) + dx), ()):
                if abs(p[0] - lat) <= 5.0000001e-6 and abs(p[1] - lon) <= 5.0000001e-6:
                    found.add(p)
    if len(found) != 1:
        raise SystemExit(f"crosscheck: no single table point for venue coordinates {lat},{lon}: {found}")
    return found.pop()




def published(snapshot, dataset, keys, whole=False, others=None):
    """The records (or with `whole`, the whole objects) of `keys` in a published dataset,
    streamed once; the keys of the other records are appended to the list `others`, if any."""
    path = os.path.join(snapshot, dataset + ".ndjson.zst")
    d = os.path.join(snapshot, dataset + ".dict")
    zd = pyzstd.ZstdDict(open(d, "rb").read()) if os.path.exists(d) else None
    wanted, found = set(keys), {}
    with pyzstd.SeekableZstdFile(path, "r", zstd_dict=zd) as f:
        for line in f:
            # Every record starts {"key":"…", and user ids need no escapes.
            end = line.index(b'"', 8)
            key = line[8:end].decode()
            if key in wanted:
                record = json.loads(line)
                found[key] = record if whole else record["items"]
            elif others is not None:
                others.append(key)
    return found


def same_number(published_value, exact, digits=None, significant=None):
    if published_value is None or exact is None:
        return published_value is None and exact is None
    if digits is not None:
        # A half hundredth computed a few ulps apart may round either way.
        return abs(published_value - exact) <= 0.5 * 10 ** -digits + 1e-9
    return abs(published_value - exact) <= 0.5 * 10 ** (1 - significant) * abs(exact) * 1.0000001


def all_records(snapshot, dataset):
    path = os.path.join(snapshot, dataset + ".ndjson.zst")
    d = os.path.join(snapshot, dataset + ".dict")
    zd = pyzstd.ZstdDict(open(d, "rb").read()) if os.path.exists(d) else None
    with pyzstd.SeekableZstdFile(path, "r", zstd_dict=zd) as f:
        return [json.loads(line) for line in f]


def compare_records(snapshot, dataset, want, problems, value=lambda r: r["items"], equal=lambda got, mine: got == mine):
    """Every record of a published dataset against `want` (key → expected value): a record
    that differs, one that should not be there, and (the first ten) missing ones are
    problems. Returns the number of records read."""
    seen = set()
    for r in all_records(snapshot, dataset):
        key = r["key"]
        seen.add(key)
        got, mine = value(r), want.get(key)
        if mine is None or not equal(got, mine):
            problems.append(f"{dataset} {key!r}: {json.dumps(got)[:300]} published, {json.dumps(mine)[:300]} by definition")
    for k in [k for k in want if k not in seen][:10]:
        problems.append(f"{dataset} {k!r}: no record published, {json.dumps(want[k])[:300]} by definition")
    return len(seen)


def same(published, mine):
    """Equal, with numbers (popularity, score) to their published 6 significant digits."""
    if isinstance(mine, dict):
        return isinstance(published, dict) and set(published) == set(mine) and all(same(published[k], mine[k]) for k in mine)
    if isinstance(mine, list):
        return isinstance(published, list) and len(published) == len(mine) and all(same(p, m) for p, m in zip(published, mine))
    if isinstance(mine, float):
        return isinstance(published, (int, float)) and same_number(published, mine, significant=6)
    return published == mine
