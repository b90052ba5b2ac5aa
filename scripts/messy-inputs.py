#!/usr/bin/env python3
"""Copy a generated inputs directory with the mess of real feeds, for the cross-check.

The generator writes venues with their ZIP code and the table's own spelling of the city, so
geocoding's city and region steps, its name normalisation and the "New York" rule are never
taken at scale, and some of feed.md's repairs (swapped prices, unknown references, repeated
performers, lower-case ids, Unicode white space, spacing accents) never happen. This copy
makes them happen, deterministically (--seed), on a generated feed (one element per line):

- a tenth of the US venues lose their ZIP code (the city step, New York City among them);
- cities are respelt as people write them: upper case, accents dropped, Saint/Sainte/Fort/
  Mount abbreviated (St., Ste-, Ft., Mt.), hyphens as spaces, doubled spaces;
- one venue in a hundred is in a city no table knows, in a known state (the region step),
  and so are the first two venues of each state whose region's zone tells geocoding.md's
  rule (the zone of the place nearest the centroid) from its likely misreadings (the zone of
  the table's first place, of its most populous place, of most places): IN, KY, ND, NU;
- names carry a no-break or an em space at their ends, or a spacing acute accent (´) for an
  apostrophe;
- one price range in fifty is written high to low; one event in fifty names an unknown
  performer, one in a hundred a performer twice, one in a hundred has a lower-case id and
  one in a hundred an unknown category.

Artists' names are left alone in the feed. The affinity file gets what affinity.md accepts
or counts: a byte order mark, CRLF line ends on some lines, blank lines, trailing spaces;
source names in upper case, decomposed (NFD), with doubled or no-break spaces; targets under
another name; repeated pairs (with a lower and a higher score); self-recommendations; a few
bad scores and bad lines; the last block without its terminator; and a few names as a
Latin-1 exporter writes them (one source in 40, one recommendation in 300: `bad-utf8`).

The app exports are rewritten as other CSV writers write them, with the same content: a
byte order mark, CRLF line ends, the columns in another order with an unknown one among them
(quoted text holding commas, quotes and a line break), fields quoted at random, and the
sessions' `occurs_at` as other exporters write the same instant (JavaScript's `.000Z`,
Python's `+00:00`, PostgreSQL's space and `+00`, a -05:00 offset: `occurs-at-forms`), and one
quiz row in three with its lists as JSON arrays (`["Tennis","Golf"]`: `json-lists`), the empty
optional fields of one row in three as a null marker (`\\N`, `NULL`, `NA`, `None`, …:
`null-markers`), one session in four with its integers, one user in six with a home ZIP and one favourite in
seven as pandas' floats (`4.0`, `10007.0`, `123.0`: `integers-as-floats`, `zips-as-floats`,
`ids-as-floats`), and the genders and age groups of one player and quiz row in five
in upper or lower case with en dashes (`NON–BINARY`, `12–17`: `respelt-values`), and one
row in nine without coordinates at 0, 0 (`null-island`), and one quiz row in seven with its lists
separated by `, ` or `;` (`list-separators`), and favorites.csv, friends.csv and
session_players.csv with the rows a left join adds: every user, player or session without a
pair, with an empty value (`left-join-rows`), and one user in eight with a budget as
PostgreSQL's `money` writes it (`$1,025.00`: `money-budgets`), and one player in six with a
birthday as a date column exported as a timestamp writes it (`1990-01-05 00:00:00`,
`…T00:00:00.000Z`, `… 00:00:00+00`, `…T00:00:00+02:00`: `birthdays-as-timestamps`), and one
session in ten with `occurs_at` as seconds or milliseconds since 1970 (`occurs-at-epochs`). No published
byte may change for that alone: with --csv-only the feed and the affinity file are copied
as they are, and the night's content hash must be the clean night's. Without --csv-only, a
few rows are also written as a Latin-1 exporter would: one session in 211 with its
location_name, one quiz row in 197 with a sport, holding a Latin-1 é (those rows are
`bad-utf8` rejects, user-data.md: UTF-8), and the unknown column of one row in 13 holding one
(an unknown column is ignored, whatever its bytes); and one users.csv row in 173, one
players.csv row in 157, one sessions.csv and quiz.csv row in 241 and one feedback.csv row in
97 break a rule of user-data.md and
INPUTS.md (ids that are not printable, coordinates, radii, budgets, birthdays, instants,
capacities and durations out of range or not numbers and dates) or stand at its edges
(HOSTILE_ROWS); six feedback.csv rows answer a session the player is shown, so that the
answer and reason rules change a list (TELLING_FEEDBACK).

Usage: scripts/messy-inputs.py IN_DIR OUT_DIR [--seed N] [--csv-only]
  copies IN_DIR (a generated inputs directory) to OUT_DIR with feed.xml, affinity.txt and
  the CSV exports made messy.
"""
import argparse, calendar, collections, csv, datetime, json, os, random, re, shutil, sys, unicodedata

ABBREVIATE = [("Saint ", "St. "), ("Sainte-", "Ste-"), ("Fort ", "Ft. "), ("Mount ", "Mt. "), ("Saint-", "St-")]
SPACES = ["\u00a0", "\u2003", "\u3000"]


def respell(city, rng):
    choice = rng.randrange(5)
    if choice == 0:
        return city.upper()
    if choice == 1:
        return "".join(c for c in unicodedata.normalize("NFD", city) if unicodedata.category(c) != "Mn")
    if choice == 2:
        for long, short in ABBREVIATE:
            if long in city:
                return city.replace(long, short)
        return city.lower()
    if choice == 3:
        return city.replace("-", " ")
    return city.replace(" ", "  ")


def text_of(line, tag):
    m = re.match(r"(\s*<%s>)(.*)(</%s>\s*)$" % (tag, tag), line)
    return m


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source")
    p.add_argument("dest")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--csv-only", action="store_true", help="copy the feed and the affinity file as they are")
    args = p.parse_args()
    rng = random.Random(args.seed)
    if args.csv_only:
        shutil.copytree(args.source, args.dest, ignore=shutil.ignore_patterns("faults"))
        print(" ".join(f"{k} {v}" for k, v in mess_csv(args.dest, rng).items()))
        return
    shutil.copytree(args.source, args.dest, ignore=shutil.ignore_patterns("feed.xml", "affinity.txt", "faults"))
    out = open(f"{args.dest}/feed.xml", "w", encoding="utf-8")
    record, buffered = None, []
    telling = collections.Counter()
    counts = {k: 0 for k in ("no-zip", "respelt", "unknown-city", "spaces", "accent", "swapped", "unknown-artist",
                             "repeated-artist", "lower-id", "unknown-category")}

    def flush_venue(lines):
        state = next((text_of(l, "State").group(2) for l in lines if text_of(l, "State")), None)
        us = state is not None and state.upper() not in ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")
        drop_zip = us and rng.random() < 0.1
        unknown = state is not None and rng.random() < 0.01
        if state is not None and state.upper() in TELLING_REGIONS and telling[state.upper()] < 2:
            telling[state.upper()] += 1
            unknown = True
        kept = []
        for l in lines:
            m = text_of(l, "City")
            if m and unknown:
                l = m.group(1) + "Qqxville Flats" + m.group(3)
                counts["unknown-city"] += 1
            elif m and (drop_zip or not us or rng.random() < 0.05):
                l = m.group(1) + respell(m.group(2), rng) + m.group(3)
                counts["respelt"] += 1
            if text_of(l, "ZipCode") and (drop_zip or unknown):
                counts["no-zip"] += drop_zip
                continue
            m = text_of(l, "VenueName")
            if m and rng.random() < 0.02:
                l = m.group(1) + rng.choice(SPACES) + m.group(2) + rng.choice(SPACES) + m.group(3)
                counts["spaces"] += 1
            kept.append(l)
        return kept

    def flush_event(lines):
        kept = []
        for l in lines:
            m = re.match(r'(\s*<Event ID=")([0-9A-F]{16})(".*)$', l)
            if m and rng.random() < 0.01:
                l = m.group(1) + m.group(2).lower() + m.group(3) + "\n"
                counts["lower-id"] += 1
            m = text_of(l, "PriceRange")
            if m and " - " in m.group(2) and rng.random() < 0.02:
                lo, hi = m.group(2).split(" - ")
                if lo != hi:
                    l = m.group(1) + hi + " - " + lo + m.group(3)
                    counts["swapped"] += 1
            m = text_of(l, "PerformanceName")
            if m:
                name = m.group(2)
                if "'" in name or "&apos;" in name or "\u2019" in name:
                    if rng.random() < 0.3:
                        name = name.replace("&apos;", "\u00b4").replace("'", "\u00b4").replace("\u2019", "\u00b4")
                        counts["accent"] += 1
                if rng.random() < 0.02:
                    name = rng.choice(SPACES) + name + rng.choice(SPACES)
                    counts["spaces"] += 1
                l = m.group(1) + name + m.group(3)
            m = text_of(l, "CategoryID")
            if m and rng.random() < 0.01:
                l = m.group(1) + "999999" + m.group(3)
                counts["unknown-category"] += 1
            kept.append(l)
            m = re.match(r'(\s*)<ArtistID ID="([0-9]+)"', l)
            if m and rng.random() < 0.02:
                kept.append(f'{m.group(1)}<ArtistID ID="999999999" Type="Secondary" />\n')
                counts["unknown-artist"] += 1
            elif m and rng.random() < 0.01:
                kept.append(l.replace('Type="Primary"', 'Type="Secondary"'))
                counts["repeated-artist"] += 1
        return kept

    with open(f"{args.source}/feed.xml", encoding="utf-8") as f:
        for line in f:
            if re.match(r"\s*<Venue ID=", line):
                record, buffered = "venue", [line]
            elif re.match(r"\s*<Event ID=", line):
                record, buffered = "event", [line]
            elif record is not None:
                buffered.append(line)
                if re.match(r"\s*</(Venue|Event)>", line):
                    out.writelines(flush_venue(buffered) if record == "venue" else flush_event(buffered))
                    record, buffered = None, []
            else:
                out.write(line)
    out.close()
    counts.update(mess_affinity(args.source, args.dest, rng))
    counts.update(mess_csv(args.dest, rng, latin1=True))
    counts.update(telling_feedback(args.dest))
    print(" ".join(f"{k} {v}" for k, v in counts.items()))


# Regions whose zone differs by rule: the place nearest the centroid (geocoding.md) against the
# table's first place (IN, KY, ND, NU), its most populous (KY, NU) or most places' (KY, NU).
TELLING_REGIONS = ("IN", "KY", "ND", "NU")

LATIN1_E = "\ue000"  # written as the single byte 0xE9 (Latin-1 é), which is not UTF-8


# Rows that break user-data.md's and INPUTS.md's rules (rejected by the stage and the
# definitions alike: their users do not exist) and rows at the edges of them (kept), written
# into one users.csv row in 173, one players.csv row in 157, one sessions.csv and quiz.csv row
# in 241 and one feedback.csv row in 97 in turn: {column: text}, where
# "{}" is the row's own value.
HOSTILE_ROWS = {
    "users.csv": [
        {"lat": "91.5", "lon": "10"}, {"lat": "10", "lon": "-180.5"}, {"lat": "40.7", "lon": ""}, {"radius_km": "0"},
        {"radius_km": "-12"}, {"radius_km": "40076"}, {"max_price": "-1"}, {"max_price": "1000000.5"},
        {"lat": "nan", "lon": "1"}, {"radius_km": "0x10"}, {"radius_km": "1_0"}, {"max_price": "25\u00a0"},
        {"user_id": "\u202e{}"}, {"user_id": "{}\u0085"}, {"user_id": "{}\u00a0x"}, {"user_id": "{}" + "x" * 64},
        {"user_id": "{}\u200b"}, {"user_id": "{}\ue000"},
        # kept:
        {"radius_km": "20015"}, {"max_price": "0"}, {"lat": "-90", "lon": "180"}, {"radius_km": " 25 "},
        {"radius_km": "1e2"}, {"lat": "+40.5", "lon": "-73.25"}, {"user_id": " {}\t"},
    ],
    "players.csv": [
        {"user_id": "\u202e{}"}, {"user_id": "{}\u2028"}, {"lat": "95", "lon": "0"}, {"lat": "", "lon": "10"},
        {"birthday": "1990-02-30"}, {"birthday": "1899-12-31"}, {"birthday": "2099-01-01"}, {"lat": "nan", "lon": "1"},
        {"birthday": "1990-1-5"}, {"birthday": "19900105"}, {"birthday": "{}T05:00:00Z"}, {"birthday": "{} 00:00:00.5"},
        # kept:
        {"lat": "-90", "lon": "-180"}, {"birthday": "1900-01-01"}, {"lat": " 40.5 ", "lon": "+10"},
        {"birthday": "1990-01-05T00:00:00,000-03:30"},
    ],
    "sessions.csv": [
        {"session_id": "\u202e{}"}, {"occurs_at": "2026-02-30T18:00:00Z"}, {"capacity": "4.5"}, {"creator_id": "{}\u0085"},
        {"occurs_at": "2026-01-20 18:00:00"}, {"occurs_at": "2026-01-20T18:00:00+15:00"}, {"occurs_at": "1999-12-31T23:59:59Z"},
        {"occurs_at": "2026-01-20T18:00:60Z"}, {"occurs_at": "2026-1-20T18:00:00Z"}, {"capacity": "0"}, {"capacity": "1001"},
        {"duration_min": "1441"}, {"duration_min": "-5"}, {"lat": ""}, {"sport": " "}, {"sport": "x" * 201},
        # kept:
        {"capacity": "1000"}, {"duration_min": "0"}, {"occurs_at": "2099-12-31T23:59:59Z"}, {"capacity": " 4 "},
        {"sport": "{}" + "x" * 180}, {"occurs_at": "2026-01-20T18:00:00.25Z"}, {"occurs_at": "2026-01-20T19:00:00+01:00"},
        {"capacity": "4.00"}, {"duration_min": "NULL", "skill_level": "\\N"},
    ],
}
HOSTILE_ROWS["quiz.csv"] = [
    {"lat": "91", "lon": "0"}, {"lat": "", "lon": "5"}, {"lat": "-90", "lon": "180"}, {"user_id": "\u202e{}"},
    {"lat": "nan", "lon": "1"}, {"lat": " 40.5 ", "lon": "+10"}, {"lat": "0x1", "lon": "1"},
]
# (The kept ones first: `small` has 434 feedback rows, so it takes the first five, and its
# rejects, with TELLING_FEEDBACK's, must stay within the exports' 1 %.)
HOSTILE_ROWS["feedback.csv"] = [
    {"answer": "NO", "reason": "Sport"}, {"answer": " Yes "}, {"answer": "no", "reason": " time "}, {"answer": "maybe"},
    {"user_id": "\u202e{}"}, {"answer": "no", "reason": "because"},
]
HOSTILE_EVERY = {"users.csv": (173, 50), "players.csv": (157, 40), "sessions.csv": (241, 100), "quiz.csv": (241, 120),
                 "feedback.csv": (97, 30)}


def another_exporters_instant(text, form):
    """`YYYY-MM-DDTHH:MM:SSZ` as another exporter writes the same instant: 1 JavaScript's
    toISOString, 2 Python's isoformat, 3 PostgreSQL's timestamptz, 4 at a -05:00 offset."""
    t = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    if form == 1:
        return text[:-1] + ".000Z"
    if form == 2:
        return t.isoformat()
    if form == 3:
        return text[:10] + " " + text[11:19] + "+00"
    return t.astimezone(datetime.timezone(datetime.timedelta(hours=-5))).isoformat()


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from definitions.common import NULL_MARKERS, NULLABLE  # noqa: E402

NULL_WORDS = sorted(NULL_MARKERS)


def left_join_rows(directory):
    """The rows a left join adds to each pair file of an export folder: {file: (the keys
    without a pair, in their own file's order; the key column)}."""
    def column(name, c):
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            return []
        with open(path, newline="", encoding="utf-8") as f:
            return [r[c] for r in csv.DictReader(f)]
    out = {}
    for pairs, key, keys_file, keys_column in (("favorites.csv", "user_id", "users.csv", "user_id"),
                                                ("friends.csv", "user_id", "players.csv", "user_id"),
                                                ("session_players.csv", "session_id", "sessions.csv", "session_id")):
        if os.path.exists(os.path.join(directory, pairs)):
            having = set(column(pairs, key))
            out[pairs] = ([k for k in column(keys_file, keys_column) if k not in having], key)
    return out


def mess_csv(dest, rng, latin1=False):
    """Every CSV export rewritten with the same rows: a BOM, CRLF, reversed columns with an
    unknown one in the middle, fields quoted at random; with `latin1`, the Latin-1 rows."""
    counts = {"csv-files": 0, "quoted": 0}
    if latin1:
        counts.update({"latin1-rejected": 0, "latin1-ignored": 0})
    for folder in ("tickets", "playmate"):
        directory = os.path.join(dest, folder)
        if not os.path.isdir(directory):
            continue
        left_joins = left_join_rows(directory)
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".csv"):
                continue
            path = os.path.join(directory, name)
            with open(path, newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
            if not rows:
                continue
            header, body = rows[0], rows[1:]
            if name in left_joins:
                # As a left join from users, players or sessions exports them: every key,
                # those without a pair with an empty value (`empty-value`, not a reject).
                extra = left_joins[name]
                body = body + [[key if c == extra[1] else "" for c in header] for key in extra[0]]
                counts["left-join-rows"] = counts.get("left-join-rows", 0) + len(extra[0])
            order = list(reversed(range(len(header))))

            def field(text):
                if rng.random() < 0.3 or any(c in text for c in ',"\r\n'):
                    counts["quoted"] += 1
                    return '"' + text.replace('"', '""') + '"'
                return text

            def line(values, note):
                cells = [field(values[k]) if k < len(values) else "" for k in order]
                cells.insert(len(cells) // 2, field(note))
                return ",".join(cells)

            hostile = HOSTILE_ROWS.get(name) if latin1 else None
            when = header.index("occurs_at") if name == "sessions.csv" else None
            lists = [header.index(c) for c in ("play_sports", "avoid_sports", "genders", "age_groups")] if name == "quiz.csv" else []
            column = {"sessions.csv": "location_name", "quiz.csv": "play_sports"}.get(name) if latin1 else None
            every = {"sessions.csv": 211, "quiz.csv": 197}.get(name)
            out = [line(header, "note")]
            for k, r in enumerate(body):
                note = f'row {k}, "as exported"\nsecond line' if k % 7 == 0 else ""
                if latin1 and k % 13 == 3:
                    note, counts["latin1-ignored"] = f"caf{LATIN1_E} note", counts["latin1-ignored"] + 1
                if when is not None and k % 5 != 0:
                    r = list(r)
                    r[when] = another_exporters_instant(r[when], k % 5)
                    counts["occurs-at-forms"] = counts.get("occurs-at-forms", 0) + 1
                elif when is not None and k % 10 == 5:
                    # As an integer column's export, `time.time()` or `Date.now()` writes it:
                    # seconds (whole, or a float's `.0`) or milliseconds since 1970.
                    r = list(r)
                    t = calendar.timegm(datetime.datetime.strptime(r[when], "%Y-%m-%dT%H:%M:%SZ").timetuple())
                    r[when] = (str(t) if k % 40 == 5 else f"{t}.0") if k % 20 == 5 else str(t * 1000)
                    counts["occurs-at-epochs"] = counts.get("occurs-at-epochs", 0) + 1
                if name in ("players.csv", "quiz.csv") and k % 5 == 4:
                    # As an enum column's export or a spreadsheet's autocorrect writes the
                    # app's values: another case, an en dash.
                    r = list(r)
                    for c in ("gender", "genders", "age_groups"):
                        if c in header:
                            r[header.index(c)] = (r[header.index(c)].upper() if k % 2 else r[header.index(c)].lower()).replace("-", "\u2013")
                    counts["respelt-values"] = counts.get("respelt-values", 0) + 1
                if lists and k % 7 == 6 and k % 3 != 1:
                    # A list typed in a spreadsheet: `Tennis, Golf` or `Tennis;Golf`.
                    r = list(r)
                    for c in lists:
                        r[c] = r[c].replace("|", ", " if k % 2 else ";")
                    counts["list-separators"] = counts.get("list-separators", 0) + 1
                if lists and k % 3 == 1:
                    # As Parse's array columns export: a JSON array of strings for `a|b`.
                    r = list(r)
                    for c in lists:
                        r[c] = json.dumps([x for x in r[c].split("|")] if r[c] else [])
                    counts["json-lists"] = counts.get("json-lists", 0) + 1
                if "lat" in header and "lon" in header and k % 9 == 4 and not r[header.index("lat")] and not r[header.index("lon")]:
                    # As an exporter whose coordinate columns turned nulls into zeros writes no place.
                    r = list(r)
                    r[header.index("lat")], r[header.index("lon")] = "0", "0.0"
                    counts["null-island"] = counts.get("null-island", 0) + 1
                empty = [c for c in NULLABLE.get(name, ()) if c in header and r[header.index(c)] == ""]
                if empty and k % 3 == 2:
                    # As MySQL, SQL Server, R, pandas or a script write an absent value.
                    r = list(r)
                    for j, c in enumerate(empty):
                        r[header.index(c)] = NULL_WORDS[(k + j) % len(NULL_WORDS)]
                    counts["null-markers"] = counts.get("null-markers", 0) + len(empty)
                if name == "favorites.csv" and k % 7 == 3:
                    r = list(r)
                    r[header.index("artist_id")] += ".0"
                    counts["ids-as-floats"] = counts.get("ids-as-floats", 0) + 1
                if name == "users.csv" and k % 6 == 5 and r[header.index("home_zip")].isdigit():
                    # As pandas writes a ZIP column that has a blank: a float.
                    r = list(r)
                    r[header.index("home_zip")] += ".0"
                    counts["zips-as-floats"] = counts.get("zips-as-floats", 0) + 1
                if name == "users.csv" and k % 8 == 6 and re.fullmatch(r"[0-9]+(\.[0-9]+)?", r[header.index("max_price")]):
                    # As PostgreSQL writes a `money` column: `$1,025.00`.
                    r = list(r)
                    whole, _, fraction = r[header.index("max_price")].partition(".")
                    r[header.index("max_price")] = "$" + f"{int(whole):,}" + ("." + fraction if fraction else ".00")
                    counts["money-budgets"] = counts.get("money-budgets", 0) + 1
                if name == "players.csv" and k % 6 == 1 and r[header.index("birthday")]:
                    # As an export of a date column typed DATETIME or timestamp writes it.
                    r = list(r)
                    b = header.index("birthday")
                    r[b] += (" 00:00:00", "T00:00:00.000Z", " 00:00:00+00", "T00:00:00+02:00")[(k // 6) % 4]
                    counts["birthdays-as-timestamps"] = counts.get("birthdays-as-timestamps", 0) + 1
                if name == "sessions.csv" and k % 4 == 3:
                    # As pandas writes an int column that has a blank: floats.
                    r = list(r)
                    for c in ("capacity", "duration_min"):
                        if r[header.index(c)]:
                            r[header.index(c)] += ".0"
                    counts["integers-as-floats"] = counts.get("integers-as-floats", 0) + 1
                if hostile and k % HOSTILE_EVERY[name][0] == HOSTILE_EVERY[name][1]:
                    r = list(r)
                    n = k // HOSTILE_EVERY[name][0]
                    for c, text in hostile[n % len(hostile)].items():
                        r[header.index(c)] = text.replace("{}", r[header.index(c)])
                    counts["hostile-rows"] = counts.get("hostile-rows", 0) + 1
                if column and k % every == 5:
                    r = list(r)
                    c = header.index(column)
                    r[c] = (r[c] + " caf" if name == "sessions.csv" else r[c] + "|P") + LATIN1_E + ("" if name == "sessions.csv" else "tanque")
                    counts["latin1-rejected"] += 1
                out.append(line(r, note))
            with open(path, "wb") as f:
                f.write(("\ufeff" + "\r\n".join(out) + "\r\n").encode("utf-8").replace(LATIN1_E.encode("utf-8"), b"\xe9"))
            counts["csv-files"] += 1
    return counts


# Answers on sessions the player is shown (by the Playmate definition, on the messy exports
# before these rows), so that feedback.csv's rules change a list either way: (answer,
# reason). Rejected (the session stays): a reason that is not one, and one that ends in
# U+001F (not white space, though Python's `str.strip` takes it). Kept (the session declined;
# for `sport`, its sport avoided): Unicode's white space at the ends, the ASCII vertical tab
# and form feed among it, in any case.
TELLING_FEEDBACK = [("no", "because"), ("no\x0c", "\x0bSPORT"), ("No\u00a0", "time\u3000"), ("no", "sport\x1f"),
                    (" no\t", "\x0cSport"), ("NO", "sport\x0b")]


def telling_feedback(dest):
    """Appends TELLING_FEEDBACK's rows to the messy feedback.csv, each for the first session of
    a player of its own (players taken evenly through the id order, those without a list
    skipped), in the file's column order."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from definitions.playmate import Playmate
    path = os.path.join(dest, "playmate", "feedback.csv")
    if not os.path.exists(path):
        return {}
    as_of = json.load(open(os.path.join(dest, "generated.json")))["asOf"]
    playmate = Playmate(dest, int(datetime.datetime.strptime(as_of, "%Y-%m-%dT%H:%M:%SZ")
                                  .replace(tzinfo=datetime.timezone.utc).timestamp()))
    players = sorted(playmate.players)
    step = max(1, len(players) // (4 * len(TELLING_FEEDBACK)))
    chosen = []
    for uid in players[::step]:
        listed = playmate.suggestions(uid)
        if listed:
            chosen.append((uid, listed[0]["session"]))
        if len(chosen) == len(TELLING_FEEDBACK):
            break
    with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as f:
        header = next(csv.reader(f))
    lines = []
    for (uid, session), (answer, reason) in zip(chosen, TELLING_FEEDBACK):
        row = {"user_id": uid, "session_id": session, "answer": answer, "reason": reason}
        lines.append(",".join('"' + row.get(c, "").replace('"', '""') + '"' for c in header))
    with open(path, "ab") as f:
        f.write("".join(line + "\r\n" for line in lines).encode("utf-8"))
    return {"telling-feedback": len(lines)}


def mess_affinity(source, dest, rng):
    """affinity.md's accepted and counted mess, and names as a Latin-1 exporter writes them:
    the 8th source name in every 40 and the 100th recommendation's name in every 300 end in a
    Latin-1 é (bad-utf8 notes; the block is skipped, the line kept), chosen by count, not by
    `rng`, so that the rest of the mess is as before."""
    ids = {}
    with open(f"{source}/feed.xml", encoding="utf-8") as f:
        current = None
        for line in f:
            m = re.match(r'\s*<Artist ID="([0-9]+)"', line)
            if m:
                current = int(m.group(1))
            m = text_of(line, "ArtistName")
            if m and current is not None:
                ids.setdefault(m.group(2), current)
                current = None
    counts = {k: 0 for k in ("crlf", "blank", "respelt-source", "renamed-target", "repeated-pair", "self", "bad-score",
                             "bad-line", "unterminated", "latin1-source", "latin1-name")}
    lines = open(f"{source}/affinity.txt", encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and lines[-1] == "-----":
        lines.pop()
        counts["unterminated"] += 1
    out, source_id, headers, recommendations = [], None, 0, 0
    for line in lines:
        if line.startswith("Recommended artists for "):
            name = line[len("Recommended artists for "):]
            source_id = ids.get(name.replace("&", "&amp;"), ids.get(name))
            r = rng.random()
            if r < 0.2:
                name = name.upper()
            elif r < 0.3:
                name = unicodedata.normalize("NFD", name)
            elif r < 0.4:
                name = name.replace(" ", "  ") + "  "
            elif r < 0.45:
                name = "\u00a0" + name + "\u00a0"
            if r < 0.45:
                counts["respelt-source"] += 1
            headers += 1
            if headers % 40 == 8:
                name += " caf" + LATIN1_E
                counts["latin1-source"] += 1
            line = "Recommended artists for " + name
        elif line != "-----" and line.count(",") >= 2:
            first, last = line.index(","), line.rindex(",")
            r = rng.random()
            if r < 0.01:
                line = line[:first + 1] + "Somebody Else" + line[last:]
                counts["renamed-target"] += 1
            elif r < 0.02:
                # The pair first with a lower score, then as it was (the highest is kept).
                out.append(line[:last + 1] + repr(float(line[last + 1:]) / 2))
                counts["repeated-pair"] += 1
            elif r < 0.025 and source_id is not None:
                out.append(f"{source_id},Myself,0.5")
                counts["self"] += 1
            elif r < 0.027:
                out.append(line[:last + 1] + rng.choice(["1.5", "-0.25", "n/a"]))
                counts["bad-score"] += 1
            elif r < 0.028:
                out.append("x" + line)
                counts["bad-line"] += 1
            recommendations += 1
            if recommendations % 300 == 100:
                first, last = line.index(","), line.rindex(",")
                line = line[:last] + " caf" + LATIN1_E + line[last:]
                counts["latin1-name"] += 1
            if rng.random() < 0.05:
                line += "  "
        if rng.random() < 0.1:
            line += "\r"
            counts["crlf"] += 1
        out.append(line)
        if rng.random() < 0.03:
            out.append("")
            counts["blank"] += 1
    with open(f"{dest}/affinity.txt", "wb") as f:
        f.write(("\ufeff" + "\n".join(out) + "\n").encode("utf-8").replace(LATIN1_E.encode("utf-8"), b"\xe9"))
    return counts


if __name__ == "__main__":
    main()
