"""feed.md and geocoding.md from the raw feed: parsed with ElementTree, normalised and linked,
venues placed from the bundled table, local times from the system's IANA database (zoneinfo),
then compared with every published `events`, `venues` and `categories` record, the artists'
own fields, and the parse's rejects. Shares no code with the Swift parser or geocoder."""
import collections, datetime, gzip, json, math, os, re, subprocess, unicodedata
import xml.etree.ElementTree as ET
import zoneinfo

import pyzstd

from .affinity import compare_affinity
from .catalog import WHITE_SPACE
from .common import all_records, km, zip5

US = set("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR "
         "PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR AS GU MP VI UM".split())
CA = set("AB BC MB NB NL NS NT NU ON PE QC SK YT".split())
ABBREVIATIONS = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"}
DIGITS = re.compile(r"[0-9]+\Z")
HEX16 = re.compile(r"[0-9A-Fa-f]{16}\Z")
DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})\Z")
DECIMAL = re.compile(r"([0-9]*)(?:\.([0-9]*))?\Z")


def clean(text):
    """Trimmed of Unicode white space, NFC; None when empty."""
    if text is None:
        return None
    lo, hi = 0, len(text)
    while lo < hi and text[lo] in WHITE_SPACE:
        lo += 1
    while hi > lo and text[hi - 1] in WHITE_SPACE:
        hi -= 1
    return unicodedata.normalize("NFC", text[lo:hi]) if hi > lo else None


def integer(text, limit=2 ** 63 - 1):
    return int(text) if text is not None and DIGITS.match(text) and int(text) <= limit else None


def date(text):
    m = DATE.match(text or "")
    if not m:
        return None
    try:
        return datetime.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def time(text):
    m = TIME.match(text or "")
    if not m or int(m[1]) > 23 or int(m[2]) > 59 or int(m[3]) > 59:
        return None
    return datetime.time(int(m[1]), int(m[2]), int(m[3]))


def utc(d, t=None):
    t = t or datetime.time(0, 0, 0)
    return datetime.datetime.combine(d, t, tzinfo=datetime.timezone.utc)


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def cents(text):
    """A plain decimal (digits, an optional point and digits, not both empty) in cents,
    rounded half up at the third decimal."""
    m = DECIMAL.match(text)
    if not m or (not m[1] and not m[2]):
        return None
    whole, frac = int(m[1] or "0"), (m[2] or "")
    c = whole * 100 + int((frac + "00")[:2])
    if len(frac) > 2 and frac[2] >= "5":
        c += 1
    return c


def price(text):
    """feed.md: `min - max` or a single number; min > max swapped. (min, max, warning)."""
    parts = [p.strip(" ") for p in text.split("-")]
    if len(parts) == 1:
        c = cents(parts[0])
        return (c, c, None) if c is not None else (None, None, "bad-price")
    if len(parts) == 2:
        lo, hi = cents(parts[0]), cents(parts[1])
        if lo is not None and hi is not None:
            return (hi, lo, "swapped-price") if lo > hi else (lo, hi, None)
    return None, None, "bad-price"


def place_name(name):
    """geocoding.md: case folded, accents stripped, spaces and punctuation collapsed, the
    usual abbreviations expanded."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if unicodedata.category(c) != "Mn")
    words, word = [], ""
    for c in unicodedata.normalize("NFKC", folded):
        if c.isalpha() or c.isnumeric():
            word += c
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return " ".join(ABBREVIATIONS.get(w, w) for w in words)


def place_key(city, region):
    c = place_name(city)
    if region == "NY" and c == "new york":
        c = "new york city"
    return region + "|" + c


class Geocoder:
    def __init__(self, table):
        text = subprocess.run(["zstd", "-dc", table], check=True, capture_output=True).stdout.decode()
        zones, self.zips, self.places, regions, by_region = [], {}, {}, {}, collections.defaultdict(list)
        rows = [line.split("\t") for line in text.splitlines()]
        for f in rows:
            if f[0] == "T":
                zones.append(f[1])
        for f in rows:
            if f[0] == "Z":
                self.zips[f[1]] = (float(f[2]), float(f[3]), "postal", zones[int(f[5])])
            elif f[0] == "P":
                region, lat, lon, population, zone = f[2].upper(), float(f[4]), float(f[5]), int(f[6]), zones[int(f[7])]
                by_region[region].append((lat, lon, zone))
                for name in [f[3]] + [a for a in f[8].split("|") if a]:
                    key = place_key(name, region)
                    old = self.places.get(key)
                    if old is None or population > old[0]:
                        self.places[key] = (population, (lat, lon, "city", zone))
            elif f[0] == "R":
                regions[f[2].upper()] = (float(f[3]), float(f[4]))
        self.regions = {}
        for r, (lat, lon) in regions.items():
            near = min(by_region.get(r, []), key=lambda p: km(lat, lon, p[0], p[1]), default=None)
            self.regions[r] = (lat, lon, "region", near[2] if near else None)

    def place(self, country, city, state, zip_code):
        if country == "US" and zip_code is not None:
            z = zip5(zip_code)
            if z in self.zips:
                return self.zips[z]
        if city is not None and state is not None:
            hit = self.places.get(place_key(city, state.upper()))
            if hit:
                return hit[1]
        if state is not None and state.upper() in self.regions:
            return self.regions[state.upper()]
        return (None, None, "none", None)


def open_feed(inputs):
    for name, opener in (("feed.xml", open), ("feed.xml.gz", gzip.open), ("feed.xml.zst", pyzstd.open)):
        path = os.path.join(inputs, name)
        if os.path.exists(path):
            return opener(path, "rb")
    raise SystemExit(f"crosscheck: no feed in {inputs}")


def fields(elem):
    """Child element name → (text, attributes) of its first occurrence, and the ArtistIDs."""
    out = {}
    for child in elem:
        out.setdefault(child.tag, (child.text, child.attrib))
    return out


def typed(f, name):
    text, attrib = f.get(name, (None, {}))
    kind = clean(attrib.get("Type"))
    if kind == "NOW":
        return {"kind": "now"}, None
    d = clean(text)
    if kind == "DEF" and d is not None:
        day = date(d)
        t_text = clean(f.get(name.replace("Date", "Time"), (None, {}))[0])
        t = time(t_text) if t_text is not None else datetime.time(0, 0, 0)
        if day is None or t is None:
            return {"kind": "unknown"}, "bad-optional-date"
        return {"kind": "date", "at": iso(utc(day, t))}, None
    return {"kind": "unknown"}, None


class Feed:
    """The feed's four record kinds as feed.md keeps them, with rejects and warnings."""

    def __init__(self, inputs, camefrom=""):
        self.rejects, self.warnings = [], collections.Counter()
        raw = collections.defaultdict(list)
        with open_feed(inputs) as f:
            for _, elem in ET.iterparse(f, events=("end",)):
                if elem.tag in ("Artist", "Category", "Venue", "Event"):
                    raw[elem.tag].append((dict(elem.attrib), fields(elem), [dict(a.attrib) for a in elem.iter("ArtistID")]))
                    elem.clear()

        def url(text):
            u = clean(text)
            return u.replace("[=CAMEFROM=]", camefrom) if u is not None else None

        def keep(section, kind_ok, items, required):
            """Ids checked, duplicates refused (the first kept), required fields present."""
            kept = {}
            for attrib, f, refs in items:
                raw_id = clean(attrib.get("ID"))
                if raw_id is None:
                    self.rejects.append((section, None, "missing-id"))
                    continue
                key = kind_ok(raw_id)
                if key is None:
                    self.rejects.append((section, raw_id, "bad-id"))
                    continue
                if key in kept:
                    self.rejects.append((section, raw_id, "duplicate-id"))
                    continue
                if any((clean(f[r][1].get("ID")) if r == "VenueID" and r in f else clean(f.get(r, (None,))[0])) is None
                       for r in required):
                    self.rejects.append((section, raw_id, "missing-field"))
                    continue
                kept[key] = (f, refs)
            return kept

        categories = keep("categories", integer, raw["Category"], ["CategoryName"])
        self.categories = {}
        for cid, (f, _) in categories.items():
            c = {"key": str(cid), "id": cid, "name": clean(f["CategoryName"][0])}
            parent = integer(clean(f.get("ParentID", (None, {}))[1].get("ID")))
            if parent is not None and parent in categories:
                c["parent"] = parent
            self.categories[cid] = c
        self.artists = {}
        for aid, (f, _) in keep("artists", integer, raw["Artist"], ["ArtistName"]).items():
            a = {"key": str(aid), "id": aid, "name": clean(f["ArtistName"][0])}
            cat = f.get("ArtistCategory")
            if cat is not None:
                c = integer(clean(cat[1].get("ID")))
                if c in self.categories:
                    a["category"] = c
                else:
                    self.warnings["unknown-category"] += 1
            for name, field in (("url", "ArtistURL"), ("imageUrl", "ArtistImageURL")):
                u = url(f.get(field, (None,))[0])
                if u is not None:
                    a[name] = u
            self.artists[aid] = a
        self.venues = {}
        for vid, (f, _) in keep("venues", integer, raw["Venue"], ["VenueName"]).items():
            v = {"key": str(vid), "id": vid, "name": clean(f["VenueName"][0])}
            for name, field in (("street", "Street"), ("city", "City"), ("state", "State"), ("zip", "ZipCode")):
                t = clean(f.get(field, (None,))[0])
                if t is not None:
                    v[name] = t
            state = (v.get("state") or "").upper()
            if state in US:
                v["country"] = "US"
            elif state in CA:
                v["country"] = "CA"
            for name, field in (("url", "VenueURL"), ("imageUrl", "VenueImageURL")):
                u = url(f.get(field, (None,))[0])
                if u is not None:
                    v[name] = u
            self.venues[vid] = v
        self.events = {}
        events = keep("events", lambda t: t.upper() if HEX16.match(t) else None, raw["Event"],
                      ["EventDate", "PerformanceName", "VenueID"])
        for eid, (f, refs) in events.items():
            day = date(clean(f["EventDate"][0]))
            t_text = clean(f.get("EventTime", (None,))[0])
            t = time(t_text) if t_text is not None else None
            if day is None or (t_text is not None and t is None):
                self.rejects.append(("events", eid, "bad-date"))
                continue
            venue = integer(clean(f["VenueID"][1].get("ID")))
            if venue not in self.venues:
                self.rejects.append(("events", eid, "unknown-venue"))
                continue
            e = {"key": eid, "id": eid, "name": clean(f["PerformanceName"][0]), "artists": []}
            for r in refs:
                a = integer(clean(r.get("ID")))
                if a not in self.artists:
                    self.warnings["unknown-artist"] += 1
                elif a not in e["artists"]:
                    e["artists"].append(a)
            cat = clean(f.get("CategoryID", (None,))[0])
            if cat is not None:
                c = integer(cat)
                if c in self.categories:
                    e["category"] = c
                elif c is None:
                    self.warnings["bad-field"] += 1
                else:
                    self.warnings["unknown-category"] += 1
            e["venue"] = venue
            start = utc(day, t)
            e["startsAt"] = iso(start)
            e["_start"] = start
            if t is None:
                e["timeTBA"] = True
            # Optional integers: kept when they are one, else a field warning.
            for name, field in (("status", "EventStatus"), ("promoter", "PromoterID"), ("starReviews", "StarReviewCount")):
                text = clean(f.get(field, (None,))[0])
                if text is not None:
                    if integer(text) is not None:
                        e[name] = integer(text)
                    else:
                        self.warnings["bad-field"] += 1
            for name, field in (("onsale", "OnsaleDate"), ("presale", "PresaleDate")):
                e[name], warning = typed(f, field)
                if warning:
                    self.warnings[warning] += 1
            p = clean(f.get("PriceRange", (None,))[0])
            if p is not None:
                lo, hi, warning = price(p)
                if warning:
                    self.warnings[warning] += 1
                if lo is not None:
                    e["priceMin"], e["priceMax"] = lo / 100, hi / 100
            stars = clean(f.get("Stars", (None,))[0])
            if stars is not None:
                try:
                    s = float(stars)
                    ok = 0 <= s <= 5 and stars.isascii() and not any(c.isalpha() and c not in "eE" for c in stars)
                except ValueError:
                    ok = False
                if ok:
                    e["stars"] = s
                else:
                    self.warnings["bad-field"] += 1
            u = url(f.get("PurchaseRequestURL", (None,))[0])
            if u is not None:
                e["url"] = u
            self.events[eid] = e

    def place(self, geocoder):
        """Venues placed, events given their venue's place and local start."""
        for v in self.venues.values():
            lat, lon, precision, zone = geocoder.place(v.get("country"), v.get("city"), v.get("state"), v.get("zip"))
            if lat is not None:
                v["lat"], v["lon"] = lat, lon
            v["precision"] = precision
            if zone is not None:
                v["timeZone"] = zone
        for e in self.events.values():
            v = self.venues[e["venue"]]
            if "timeZone" in v:
                e["timeZone"] = v["timeZone"]
                if not e.get("timeTBA"):
                    local = e["_start"].astimezone(zoneinfo.ZoneInfo(v["timeZone"]))
                    e["localStart"] = local.strftime("%Y-%m-%dT%H:%M:%S")
            if "lat" in v:
                e["lat"], e["lon"] = v["lat"], v["lon"]


def same_record(published, mine):
    """Equal field by field; coordinates to their published 5 decimals."""
    if set(published) != set(mine):
        return False
    for k, m in mine.items():
        p = published[k]
        if k in ("lat", "lon"):
            if abs(p - m) > 0.5e-5 + 1e-9:
                return False
        elif isinstance(m, float) and not isinstance(m, bool):
            if not isinstance(p, (int, float)) or abs(p - m) > 1e-9 * max(1, abs(m)):
                return False
        elif p != m:
            return False
    return True


def compare_feed(snapshot, work, inputs, problems, tonight=None):
    """Every record of events, venues, categories and the artists' own fields against the
    feed as defined; the parse's rejects against the feed's; with `tonight` (for `runs
    dump`), the affinity stage's edges, counts and rejects too. Returns records checked."""
    here = os.path.dirname(os.path.abspath(__file__))
    geocoder = Geocoder(os.path.join(here, "..", "..", "Sources", "TonightGeo", "Resources", "geotable.tsv.zst"))
    feed = Feed(inputs)
    feed.place(geocoder)
    counts = {}
    strip = lambda r: {k: v for k, v in r.items() if not k.startswith("_")}
    for dataset, want in (("events", feed.events), ("venues", feed.venues), ("categories", feed.categories)):
        want = {str(k): strip(v) for k, v in want.items()}
        seen = set()
        for r in all_records(snapshot, dataset):
            seen.add(r["key"])
            mine = want.get(r["key"])
            if mine is None or not same_record(r, mine):
                problems.append(f"{dataset} {r['key']!r}: {json.dumps(r)[:400]} published, {json.dumps(mine)[:400]} by definition")
        for k in [k for k in want if k not in seen][:10]:
            problems.append(f"{dataset} {k!r}: no record published, {json.dumps(want[k])[:300]} by definition")
        counts[dataset] = len(seen)
    seen = 0
    for r in all_records(snapshot, "artists"):
        seen += 1
        own = {k: v for k, v in r.items() if k not in ("favorites", "upcomingEvents")}
        mine = feed.artists.get(r["id"])
        if mine is None or own != mine:
            problems.append(f"artists {r['key']!r}: {json.dumps(own)[:300]} published, {json.dumps(mine)[:300]} by definition")
    if seen != len(feed.artists):
        problems.append(f"artists: {seen} published, {len(feed.artists)} by definition")
    counts["artists (own fields)"] = seen
    manifest = json.load(open(os.path.join(snapshot, "manifest.json")))
    rejects_path = os.path.join(work, "runs", manifest["runId"], "parse-feed", "rejects.ndjson")
    if os.path.exists(rejects_path):
        theirs = sorted((r["section"], r.get("id"), r["reason"]) for r in map(json.loads, open(rejects_path)) if r)
        mine = sorted(feed.rejects, key=lambda r: (r[0], r[1] or "", r[2]))
        theirs = sorted(theirs, key=lambda r: (r[0], r[1] or "", r[2]))
        if theirs != mine:
            problems.append(f"parse-feed rejects: {theirs[:5]} ({len(theirs)}) in the run, {mine[:5]} ({len(mine)}) by definition")
        counts["rejects"] = len(mine)
    if tonight is not None:
        counts.update(compare_affinity(tonight, work, inputs, feed.artists, problems))
    return counts
