#!/usr/bin/env python3
"""An independent check of the published per-user lists and the catalog's indexes.

Recomputes, for a sample of users (or all of them), the lists explore, feed and tonight
straight from recommendations.md, in plain Python and in the most direct way (every
candidate collected and sorted, every upcoming event scored for the popular backfill), and
compares them with the published snapshot: the same events in the same order, and the same
published fields. Then every record of artists (favorites, upcomingEvents), artist_suggest,
category_artists and nearby, likewise (--no-catalog skips them), and sampled players'
Playmate sessions and player_stats (with ranking.md's skill-level tie-break and feedback;
--users also sets how many players). It shares no code with the Swift ranking, so the ranking's fast paths (band searches,
per-artist cuts, heaps, shared place orders, the published distances' shortcut) are
checked against the definition on data of any size and shape.

Inputs (what the pipeline read, and what its upstream stages made of it):
  - the run's inputs directory: tickets/*.csv and playmate/*.csv (raw CSV, read here),
    feed.xml (only for each event's performer types: the published events do not carry
    `Primary`);
  - `tonight runs dump` of parse-feed artists, geocode events and venues, parse-affinity
    edges (the feed's parse, the geocoding and the affinity resolution have tests of their
    own); venue coordinates are published to 5 decimals, so each venue's exact point is
    taken back from the bundled geocoding table (all of its points have 6 decimals);
  - the published snapshot (pyzstd with each dataset's dictionary).
The config must be the defaults (the run's config hash is not checked here).

Usage:
  scripts/crosscheck.py --tonight BIN --work WORK --inputs INPUTS [--snapshot DIR]
                        [--users N | --all] [--seed S]
Exit status 0 when every checked list matches, 1 otherwise (the differences are printed).
"""
import argparse, bisect, collections, csv, datetime, functools, json, math, os, random, subprocess, sys, unicodedata
import xml.etree.ElementTree as ET

import pyzstd

# recommendations.md defaults.
HORIZON_DAYS = 60
RADIUS_KM = 80.0
TIME_DECAY_DAYS = 21.0
DISTANCE_DECAY_KM = 40.0
PER_ARTIST = 2
EXPLORE_SIZE = 50
MIN_ITEMS = 10
POPULARITY_PRIOR = 50.0
FEED_SIZE = 100
TONIGHT_SIZE = 3
TONIGHT_FROM = "17:00:00"
TONIGHT_UNTIL = "04:00:00"
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


def instant(text):
    return int(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
               .replace(tzinfo=datetime.timezone.utc).timestamp())


def dump(tonight, work, stage, table):
    out = subprocess.run([tonight, "runs", "dump", "--work", work, stage, table],
                         check=True, capture_output=True).stdout
    return [json.loads(line) for line in out.splitlines() if line]


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


def performer_types(feed_path):
    """Event id → [(artist id, type)] in feed order."""
    types = {}
    for _, el in ET.iterparse(feed_path, events=("end",)):
        if el.tag == "Event":
            ids = el.find("ArtistIDs")
            refs = []
            if ids is not None:
                for ref in ids.findall("ArtistID"):
                    try:
                        refs.append((int(ref.get("ID", "").strip()), (ref.get("Type") or "").strip()))
                    except ValueError:
                        pass
            types[(el.get("ID") or "").strip().upper()] = refs
            el.clear()
        elif el.tag in ("Artist", "Venue", "Category"):
            el.clear()
    return types


class World:
    def __init__(self, args):
        manifest_dir = args.snapshot
        manifest = json.load(open(os.path.join(manifest_dir, "manifest.json")))
        self.as_of = instant(manifest["asOf"])
        self.date = datetime.datetime.fromtimestamp(self.as_of, datetime.timezone.utc).date()
        here = os.path.dirname(os.path.abspath(__file__))
        zips, cells = geotable(os.path.join(here, "..", "Sources", "TonightGeo", "Resources", "geotable.tsv.zst"))
        self.zips = zips
        self.artist_records = dump(args.tonight, args.work, "parse-feed", "artists")
        self.artists = {a["id"] for a in self.artist_records}
        self.venue_records = dump(args.tonight, args.work, "geocode", "venues")
        venues = {}
        for v in self.venue_records:
            if "lat" in v:
                venues[v["id"]] = exact_point(cells, v["lat"], v["lon"])
        types = performer_types(os.path.join(args.inputs, "feed.xml"))
        self.events = {}
        stars = []
        for e in dump(args.tonight, args.work, "geocode", "events"):
            e["start"] = instant(e["startsAt"])
            e["point"] = venues.get(e["venue"])
            perf = [(a, t) for (a, t) in types.get(e["id"], []) if a in self.artists]
            e["performers"] = [a for a in e.get("artists", [])]
            if [a for (a, _) in perf] != e["performers"]:
                raise SystemExit(f"crosscheck: event {e['id']}: performers {perf} against {e['performers']}")
            e["headliner"] = next((a for (a, t) in perf if t == "Primary"), None)
            if "stars" in e:
                stars.append(e["stars"])
            self.events[e["id"]] = e
        m = sum(stars) / len(stars) if stars else 0.0
        end = self.as_of + HORIZON_DAYS * 86400
        self.upcoming = []
        self.by_artist = collections.defaultdict(list)
        for e in self.events.values():
            n = e.get("starReviews", 0)
            s = e.get("stars", m)
            e["pop"] = (POPULARITY_PRIOR * m + n * s) / (POPULARITY_PRIOR + n) / 5
            e["timeFactor"] = math.exp(-((e["start"] - self.as_of) / 86400) / TIME_DECAY_DAYS)
            if self.as_of <= e["start"] < end:
                self.upcoming.append(e)
                for a in set(e["performers"]):
                    self.by_artist[a].append(e)
        # Upcoming events by latitude, for the popular backfill of located users (a band of
        # latitude a little wider than the radius: the reach test itself is exact).
        self.by_latitude = sorted((e for e in self.upcoming if e["point"] is not None), key=lambda e: e["point"][0])
        self.latitudes = [e["point"][0] for e in self.by_latitude]
        self.tonight_events = [e for e in self.events.values() if self.tonight_window(e) and self.on_sale(e)]
        self.edges = collections.defaultdict(list)
        for x in dump(args.tonight, args.work, "parse-affinity", "edges"):
            self.edges[x["source"]].append((x["target"], x["score"]))
        self.users = {}
        self.favored_by = collections.defaultdict(set)
        self.venue_points = venues
        with open(os.path.join(args.inputs, "tickets", "users.csv"), newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                lat, lon, place = row.get("lat", "").strip(), row.get("lon", "").strip(), None
                if lat and lon:
                    place = (float(lat), float(lon))
                elif row.get("home_zip"):
                    z = zip5(row["home_zip"])
                    place = zips.get(z) if z else None
                radius = row.get("radius_km", "").strip()
                price = row.get("max_price", "").strip()
                self.users[row["user_id"]] = {
                    "place": place, "radius": float(radius) if radius else RADIUS_KM,
                    "maxPrice": float(price) if price else None,
                    "favorites": [], "follows": set(), "dismissed": set()}
        for name, field, into in (("favorites.csv", "artist_id", "favorites"),
                                  ("follows.csv", "event_id", "follows"),
                                  ("dismissed.csv", "event_id", "dismissed")):
            path = os.path.join(args.inputs, "tickets", name)
            if not os.path.exists(path):
                continue
            with open(path, newline="", encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    u = self.users.get(row["user_id"])
                    if into == "favorites":
                        a = int(row[field])
                        if a in self.artists:
                            self.favored_by[a].add(row["user_id"])
                    if u is None:
                        continue
                    if into == "favorites":
                        a = int(row[field])
                        if a in self.artists and a not in u["favorites"]:
                            u["favorites"].append(a)
                    else:
                        u[into].add(row[field].strip().upper())

    # -- the lists, as recommendations.md defines them ------------------------------------------

    def distance(self, u, e):
        if u["place"] is None or e["point"] is None:
            return None
        return km(u["place"][0], u["place"][1], e["point"][0], e["point"][1])

    def in_reach(self, u, e):
        if u["place"] is None:
            return True, None
        d = self.distance(u, e)
        return (d is not None and d <= u["radius"]), d

    @staticmethod
    def affordable(u, e):
        return u["maxPrice"] is None or "priceMin" not in e or e["priceMin"] <= u["maxPrice"]

    def scores(self, u):
        favorites = set(u["favorites"])
        s, contributions = {}, collections.defaultdict(list)
        for f in u["favorites"]:
            s[f] = 1.0
        for f in u["favorites"]:
            for (a, w) in self.edges.get(f, ()):
                if a in favorites:
                    continue
                s[a] = s.get(a, 0.0) + w
                contributions[a].append((-w, f))
        return s, contributions, favorites

    @staticmethod
    def best(e, s):
        best = None
        for a in e["performers"]:
            v = s.get(a, 0.0)
            if v > 0 and (best is None or v > best[1] or (v == best[1] and a < best[0])):
                best = (a, v)
        return best

    def explore(self, u):
        s, contributions, favorites = self.scores(u)
        located = u["place"] is not None
        seen, ranked = set(), []
        for a, v in s.items():
            if v <= 0:
                continue
            for e in self.by_artist.get(a, ()):
                if e["id"] in seen:
                    continue
                seen.add(e["id"])
                if e["id"] in u["follows"] or e["id"] in u["dismissed"] or not self.affordable(u, e):
                    continue
                ok, d = self.in_reach(u, e)
                if not ok:
                    continue
                star, sv = self.best(e, s)
                r = sv * e["timeFactor"] * (math.exp(-d / DISTANCE_DECAY_KM) if located else 1.0)
                ranked.append((r, e, star, d))
        ranked.sort(key=lambda c: (-c[0], c[1]["start"], c[1]["id"]))
        per, items = collections.Counter(), []
        for (r, e, star, d) in ranked:
            if per[star] >= PER_ARTIST:
                continue
            per[star] += 1
            because = [star] if star in favorites else [f for (_, f) in sorted(contributions[star])[:3]]
            items.append({"event": e["id"], "score": r, "artist": star, "because": because,
                          "reason": "favorite" if star in favorites else "affinity", "distanceKm": d})
            if len(items) == EXPLORE_SIZE:
                break
        if len(items) < MIN_ITEMS:
            listed = {i["event"] for i in items}
            pool = []
            if located:
                band = u["radius"] / (EARTH_RADIUS_KM * math.pi / 180) + 0.01
                lo = bisect.bisect_left(self.latitudes, u["place"][0] - band)
                hi = bisect.bisect_right(self.latitudes, u["place"][0] + band)
                reachable = self.by_latitude[lo:hi]
            else:
                reachable = self.upcoming
            for e in reachable:
                if e["id"] in listed or e["id"] in u["follows"] or e["id"] in u["dismissed"]:
                    continue
                if not self.affordable(u, e):
                    continue
                ok, d = self.in_reach(u, e)
                if not ok:
                    continue
                p = e["pop"] * e["timeFactor"] * (math.exp(-d / DISTANCE_DECAY_KM) if located else 1.0)
                pool.append((p, e, d))
            pool.sort(key=lambda c: (-c[0], c[1]["start"], c[1]["id"]))
            for (p, e, d) in pool:
                if len(items) >= MIN_ITEMS:
                    break
                h = e["headliner"]
                if h is not None:
                    if per[h] >= PER_ARTIST:
                        continue
                    per[h] += 1
                items.append({"event": e["id"], "score": p, "artist": h, "reason": "popular", "distanceKm": d})
        return items

    def feed(self, u):
        favorites = set(u["favorites"])
        found = {}
        for f in favorites:
            for e in self.by_artist.get(f, ()):
                found[e["id"]] = e
        items = []
        for e in sorted(found.values(), key=lambda e: (e["start"], e["id"]))[:FEED_SIZE]:
            item = {"event": e["id"], "artists": [a for a in e["performers"] if a in favorites],
                    "distanceKm": self.distance(u, e)}
            if e["id"] in u["follows"]:
                item["following"] = True
            items.append(item)
        return items

    def tonight_window(self, e):
        if e.get("timeTBA") or "timeZone" not in e or "localStart" not in e or e["start"] < self.as_of:
            return False
        day, clock = e["localStart"].split("T")
        day = datetime.date.fromisoformat(day)
        return (day == self.date and clock >= TONIGHT_FROM) or \
            (day == self.date + datetime.timedelta(days=1) and clock < TONIGHT_UNTIL)

    def on_sale(self, e):
        o = e.get("onsale", {"kind": "unknown"})
        return o["kind"] in ("now", "unknown") or (o["kind"] == "date" and instant(o["at"]) <= self.as_of)

    def tonight(self, u):
        if u["place"] is None:
            return []
        s, _, _ = self.scores(u)
        picks = []
        for e in self.tonight_events:
            if e["id"] in u["dismissed"]:
                continue
            if not self.affordable(u, e):
                continue
            ok, d = self.in_reach(u, e)
            best = self.best(e, s) if ok else None
            if best is None:
                continue
            picks.append((best[1] * math.exp(-d / DISTANCE_DECAY_KM), e, best[0], d))
        picks.sort(key=lambda c: (-c[0], c[1]["start"], c[1]["id"]))
        return [{"event": e["id"], "score": v, "artist": a, "distanceKm": d} for (v, e, a, d) in picks[:TONIGHT_SIZE]]


# -- the catalog's indexes (recommendations.md, "Catalog and indexes") --------------------------

# Unicode's White_Space property (str.isspace() also takes U+001C–U+001F, which it lacks).
WHITE_SPACE = set("\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000"
                  + "".join(chr(c) for c in range(0x2000, 0x200B)))
GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz"


def name_key(name):
    """affinity.md: NFKC case folding, white space trimmed and runs collapsed to one space."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    words, word = [], ""
    for c in folded:
        if c in WHITE_SPACE:
            if word:
                words.append(word)
            word = ""
        else:
            word += c
    if word:
        words.append(word)
    return " ".join(words)


def geohash(lat, lon, length):
    lat_range, lon_range, bits, even, out = [-90.0, 90.0], [-180.0, 180.0], [], True, ""
    while len(out) < length:
        r, v = (lon_range, lon) if even else (lat_range, lat)
        mid = (r[0] + r[1]) / 2
        bits.append(1 if v >= mid else 0)
        r[0 if v >= mid else 1] = mid
        even = not even
        if len(bits) == 5:
            out += GEOHASH[int("".join(map(str, bits)), 2)]
            bits = []
    return out


def catalog(world):
    """The expected records of artists (favorites, upcomingEvents), artist_suggest,
    category_artists and nearby, every key of each."""
    upcoming = collections.Counter()
    for e in world.upcoming:
        for a in set(e["performers"]):
            upcoming[a] += 1
    favorites = {a: len(users) for a, users in world.favored_by.items()}
    artists = {}
    for a in world.artist_records:
        artists[a["id"]] = {"favorites": favorites.get(a["id"], 0), "upcomingEvents": upcoming[a["id"]]}
    rank = sorted(world.artist_records, key=lambda a: (-favorites.get(a["id"], 0), -upcoming[a["id"]], a["name"], a["id"]))
    suggest = collections.defaultdict(list)
    for a in rank:
        key = name_key(a["name"])
        for n in range(1, min(4, len(key)) + 1):
            lst = suggest[key[:n]]
            if len(lst) < 10 and (not lst or lst[-1]["id"] != a["id"]):
                lst.append({"id": a["id"], "name": a["name"], "favorites": favorites.get(a["id"], 0)})
    by_category = collections.defaultdict(list)
    for a in sorted(world.artist_records, key=lambda a: (-favorites.get(a["id"], 0), a["name"], a["id"])):
        if "category" in a and upcoming[a["id"]] > 0 and len(by_category[str(a["category"])]) < 200:
            by_category[str(a["category"])].append({"id": a["id"], "name": a["name"], "favorites": favorites.get(a["id"], 0),
                                                    "upcomingEvents": upcoming[a["id"]]})
    cells = {}
    for v in world.venue_records:
        if v["id"] in world.venue_points:
            cells[v["id"]] = geohash(*world.venue_points[v["id"]], 4)
    nearby = collections.defaultdict(list)
    for e in sorted(world.upcoming, key=lambda e: (e["start"], e["id"])):
        if e["venue"] in cells:
            nearby[cells[e["venue"]]].append({"event": e["id"], "startsAt": e["startsAt"], "venue": e["venue"]})
    return {"artists": artists, "artist_suggest": dict(suggest), "category_artists": dict(by_category), "nearby": dict(nearby)}


def compare_catalog(snapshot, expected, problems):
    counts = {}
    for dataset, want in expected.items():
        path = os.path.join(snapshot, dataset + ".ndjson.zst")
        d = os.path.join(snapshot, dataset + ".dict")
        zd = pyzstd.ZstdDict(open(d, "rb").read()) if os.path.exists(d) else None
        seen = set()
        with pyzstd.SeekableZstdFile(path, "r", zstd_dict=zd) as f:
            for line in f:
                r = json.loads(line)
                key = r["key"]
                seen.add(key)
                if dataset == "artists":
                    got = {"favorites": r.get("favorites"), "upcomingEvents": r.get("upcomingEvents")}
                    mine = want.get(int(key))
                else:
                    got, mine = r["items"], want.get(key)
                if got != mine:
                    problems.append(f"{dataset} {key!r}: {json.dumps(got)[:300]} published, {json.dumps(mine)[:300]} by definition")
        missing = [k for k in want if (str(k) if dataset == "artists" else k) not in seen]
        for k in missing[:10]:
            problems.append(f"{dataset} {k!r}: no record published, {json.dumps(want[k])[:300]} by definition")
        counts[dataset] = len(seen)
    return counts


# -- Playmate (recommendations.md "Playmate", ranking.md: skill level and feedback) ------------

SESSIONS_RADIUS_KM = 80.4672
SESSIONS_SIZE = 8
WEIGHTS = (5.2, 2.3, 1.2, 1.9)  # sportWeight, friends, genderMatches, ageMatches
AGE_GROUPS = ((12, "Under 12"), (18, "12-17"), (25, "18-24"), (35, "25-34"), (45, "35-44"), (55, "45-54"),
              (65, "55-64"), (75, "65-74"), (10 ** 9, "75+"))


def clean(text):
    """feed.md's text rule, as the exports use it: trimmed, NFC, empty is absent."""
    t = unicodedata.normalize("NFC", (text or "").strip())
    return t or None


def sport_key(text):
    return text.strip(" \t").lower()


class Playmate:
    def __init__(self, inputs, as_of):
        self.as_of = as_of
        day = datetime.datetime.fromtimestamp(as_of, datetime.timezone.utc).date()
        folder = os.path.join(inputs, "playmate")

        def rows(name):
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                return []
            with open(path, newline="", encoding="utf-8") as f:
                return list(csv.DictReader(f))

        def age_group(birthday):
            if not birthday:
                return None
            b = datetime.date.fromisoformat(birthday.strip())
            age = day.year - b.year - ((day.month, day.day) < (b.month, b.day))
            return next(name for (limit, name) in AGE_GROUPS if age < limit)

        self.players = {}
        for r in rows("players.csv"):
            lat, lon = (r.get("lat") or "").strip(), (r.get("lon") or "").strip()
            self.players[r["user_id"].strip()] = {
                "gender": clean(r.get("gender")), "age": age_group(r.get("birthday")),
                "origin": (float(lat), float(lon)) if lat and lon else None,
                "play": set(), "avoid": set(), "genders": set(), "ages": set(), "declined": set()}
        for r in rows("quiz.csv"):
            p = self.players.get(r["user_id"].strip())
            if p is None:
                continue
            items = lambda name: [c for c in (clean(x) for x in (clean(r.get(name)) or "").split("|")) if c]
            lat, lon = (r.get("lat") or "").strip(), (r.get("lon") or "").strip()
            if lat and lon:
                p["origin"] = (float(lat), float(lon))
            p["play"] = {sport_key(x) for x in items("play_sports")}
            p["avoid"] = {sport_key(x) for x in items("avoid_sports")}
            p["genders"] = set(items("genders"))
            p["ages"] = set(items("age_groups"))
        self.sessions = {}
        for r in rows("sessions.csv"):
            self.sessions[r["session_id"].strip()] = {
                "id": r["session_id"].strip(), "key": sport_key(clean(r["sport"])), "skill": clean(r.get("skill_level")),
                "creator": r["creator_id"].strip(), "occurs": instant(r["occurs_at"].strip()),
                "duration": int(r["duration_min"]) if (r.get("duration_min") or "").strip() else 0,
                "place": (float(r["lat"]), float(r["lon"])), "capacity": int(r["capacity"]),
                "members": {r["creator_id"].strip()}}
        for r in rows("session_players.csv"):
            s = self.sessions.get(r["session_id"].strip())
            if s is not None:
                s["members"].add(r["user_id"].strip())
        self.of_player = collections.defaultdict(list)
        for s in self.sessions.values():
            for m in s["members"]:
                self.of_player[m].append(s)
        self.friends = collections.defaultdict(set)
        for r in rows("friends.csv"):
            self.friends[r["user_id"].strip()].add(r["friend_id"].strip())
        standing = {}
        for r in rows("feedback.csv"):
            standing[(r["user_id"].strip(), r["session_id"].strip())] = (r["answer"].strip().lower(),
                                                                           (r.get("reason") or "").strip().lower())
        for (u, sid), (answer, reason) in standing.items():
            p, s = self.players.get(u), self.sessions.get(sid)
            if p is None or s is None or answer != "no":
                continue
            p["declined"].add(sid)
            if reason == "sport":
                p["avoid"].add(s["key"])
        self.open = sorted((s for s in self.sessions.values() if s["occurs"] > as_of and len(s["members"]) < s["capacity"]),
                           key=lambda s: s["id"])

    def suggestions(self, uid):
        p = self.players[uid]
        mine = self.of_player.get(uid, [])
        played_in = collections.Counter(s["key"] for s in mine)
        # A session without a level matches no level played.
        skills = {s["skill"] for s in mine if s["occurs"] <= self.as_of and s["skill"] is not None}
        friends = self.friends.get(uid, set())
        out = []
        for s in self.open:
            if uid in s["members"] or s["key"] in p["avoid"] or s["id"] in p["declined"]:
                continue
            d = None
            if p["origin"] is not None:
                d = km(p["origin"][0], p["origin"][1], s["place"][0], s["place"][1])
                if d > SESSIONS_RADIUS_KM:
                    continue
            sw = played_in[s["key"]] + (10 if s["key"] in p["play"] else 0)
            fr = sum(1 for m in s["members"] if m in friends)
            ge = sum(1 for m in s["members"] if m in self.players and self.players[m]["gender"] in p["genders"])
            ag = sum(1 for m in s["members"] if m in self.players and self.players[m]["age"] in p["ages"])
            score = WEIGHTS[0] * sw + WEIGHTS[1] * fr + WEIGHTS[2] * ge + WEIGHTS[3] * ag
            out.append({"session": s["id"], "score": score, "sportWeight": sw, "friends": fr, "genderMatches": ge,
                        "ageMatches": ag, "distanceKm": d, "_skill": s["skill"] in skills, "_occurs": s["occurs"]})

        def order(a, b):
            scale = max(abs(a["score"]), abs(b["score"]))
            if abs(a["score"] - b["score"]) > NEAR_TIE * scale:
                return -1 if a["score"] > b["score"] else 1
            for x, y in ((not a["_skill"], not b["_skill"]), (a["_occurs"], b["_occurs"]),
                         (a["session"].encode(), b["session"].encode())):
                if x != y:
                    return -1 if x < y else 1
            return 0
        out.sort(key=functools.cmp_to_key(order))
        for item in out:
            del item["_skill"], item["_occurs"]
        return out[:SESSIONS_SIZE]

    def stats(self, uid):
        mine = self.of_player.get(uid, [])
        played = [s for s in mine if s["occurs"] <= self.as_of]
        return {"played": len(played), "upcoming": len(mine) - len(played),
                "created": sum(1 for s in mine if s["creator"] == uid),
                "hoursPlayed": sum(s["duration"] for s in played) / 60,
                "bySport": dict(collections.Counter(s["key"] for s in played)), "friends": len(self.friends.get(uid, ()))}


def compare_playmate(snapshot, playmate, sample, problems):
    theirs = published(snapshot, "sessions", sample)
    stats = published(snapshot, "player_stats", sample, whole=True)
    items = 0
    for uid in sample:
        mine = playmate.suggestions(uid)
        items += len(mine)
        got = theirs.get(uid) or []
        if [i["session"] for i in got] != [i["session"] for i in mine]:
            problems.append(f"sessions {uid}: {[i['session'] for i in got]} published, {[i['session'] for i in mine]} by definition")
            continue
        for t, m in zip(got, mine):
            for field in set(m) | set(t):
                a, b = t.get(field), m.get(field)
                ok = same_number(a, b, significant=6) if field == "score" else \
                    same_number(a, b, digits=2) if field == "distanceKm" else a == b
                if not ok:
                    problems.append(f"sessions {uid} {t['session']}: {field} {a!r} published, {b!r} by definition")
        want, have = playmate.stats(uid), stats.get(uid)
        if have is None:
            problems.append(f"player_stats {uid}: no record published")
            continue
        have = {k: v for k, v in have.items() if k != "key"}
        if set(have) != set(want) or any(not same_number(have[k], want[k], significant=6) if k == "hoursPlayed" else have[k] != want[k]
                                         for k in want):
            problems.append(f"player_stats {uid}: {have} published, {want} by definition")
    return items


# -- alerts and following (recommendations.md "alerts for followed events") ------------------

def all_records(snapshot, dataset):
    path = os.path.join(snapshot, dataset + ".ndjson.zst")
    d = os.path.join(snapshot, dataset + ".dict")
    zd = pyzstd.ZstdDict(open(d, "rb").read()) if os.path.exists(d) else None
    with pyzstd.SeekableZstdFile(path, "r", zstd_dict=zd) as f:
        return [json.loads(line) for line in f]


def compare_alerts(snapshot, baseline, world, sample, problems):
    """This run's events against the baseline snapshot's `events`: every sampled user's
    `alerts` (removed, venue-, time-, status-changed; by old start, event id, kind) and
    `following` (followed events still in the feed, by start then id, `alert` when an alert
    speaks of the event). Without a baseline there are no alerts."""
    changed = {}
    if baseline is not None:
        for o in all_records(baseline, "events"):
            n = world.events.get(o["id"])
            kinds = []
            if n is None:
                kinds.append({"kind": "removed"})
            else:
                for kind, field in (("venue-changed", "venue"), ("time-changed", "startsAt"), ("status-changed", "status")):
                    if o.get(field) != n.get(field):
                        a = {"kind": kind}
                        if field in o:
                            a["old"] = o[field]
                        if field in n:
                            a["new"] = n[field]
                        kinds.append(a)
            if kinds:
                changed[o["id"]] = (o["startsAt"], kinds)
    theirs_alerts = published(snapshot, "alerts", sample)
    theirs_following = published(snapshot, "following", sample)
    counted = collections.Counter()
    for key in sample:
        follows = world.users[key]["follows"]
        mine = []
        for e in follows:
            if e in changed:
                start, kinds = changed[e]
                mine += [(start, e, a["kind"], dict(a, event=e)) for a in kinds]
        mine = [a for (_, _, _, a) in sorted(mine, key=lambda x: x[:3])]
        got = theirs_alerts.get(key) or []
        counted["alerts"] += len(mine)
        if got != mine:
            problems.append(f"alerts {key}: {json.dumps(got)[:300]} published, {json.dumps(mine)[:300]} by definition")
        kept = sorted((world.events[e] for e in follows if e in world.events), key=lambda e: (e["start"], e["id"]))
        want = []
        for e in kept:
            item = {"event": e["id"], "venue": e["venue"], "startsAt": e["startsAt"]}
            if "status" in e:
                item["status"] = e["status"]
            if e["id"] in changed:
                item["alert"] = True
            want.append(item)
        counted["following"] += len(want)
        if (theirs_following.get(key) or []) != want:
            problems.append(f"following {key}: {json.dumps(theirs_following.get(key))[:300]} published, {json.dumps(want)[:300]} by definition")
    return counted


# -- comparison ------------------------------------------------------------------------------

def published(snapshot, dataset, keys, whole=False):
    """The records (or with `whole`, the whole objects) of `keys` in a published dataset,
    streamed once."""
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
    return found


def same_number(published_value, exact, digits=None, significant=None):
    if published_value is None or exact is None:
        return published_value is None and exact is None
    if digits is not None:
        # A half hundredth computed a few ulps apart may round either way.
        return abs(published_value - exact) <= 0.5 * 10 ** -digits + 1e-9
    return abs(published_value - exact) <= 0.5 * 10 ** (1 - significant) * abs(exact) * 1.0000001


def near_ties_swapped(mine, ids_theirs):
    """The same events, where every one out of place has the score of the one in its place
    to within NEAR_TIE: an order of near-ties, which the spec leaves to the next key."""
    if sorted(i["event"] for i in mine) != sorted(ids_theirs) or not mine or "score" not in mine[0]:
        return False
    score = {i["event"]: i["score"] for i in mine}
    return all(abs(score[t] - m["score"]) <= NEAR_TIE * abs(m["score"]) for m, t in zip(mine, ids_theirs))


def compare(dataset, key, mine, theirs, problems):
    theirs = theirs or []
    ids_mine = [i["event"] for i in mine]
    ids_theirs = [i["event"] for i in theirs]
    if ids_mine != ids_theirs and not near_ties_swapped(mine, ids_theirs):
        problems.append(f"{dataset} {key}: events {ids_theirs} published, {ids_mine} by definition")
        return
    by_id = {i["event"]: i for i in mine}
    for t in theirs:
        m = by_id[t["event"]]
        for field in set(m) | set(t):
            a, b = t.get(field), m.get(field)
            if field == "score":
                ok = same_number(a, b, significant=6)
            elif field == "distanceKm":
                ok = same_number(a, b, digits=2)
            else:
                ok = a == b
            if not ok:
                problems.append(f"{dataset} {key} {t['event']}: {field} {a!r} published, {b!r} by definition")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tonight", required=True, help="the tonight binary (for `runs dump`)")
    p.add_argument("--work", required=True, help="the run store the snapshot was made from")
    p.add_argument("--inputs", required=True, help="the inputs directory of that run")
    p.add_argument("--snapshot", help="a snapshot directory (default: the out directory's CURRENT)")
    p.add_argument("--out", help="the out directory (default WORK/out)")
    p.add_argument("--users", type=int, default=2000, help="random users to check (default 2000)")
    p.add_argument("--all", action="store_true", help="check every user")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-catalog", action="store_true", help="skip artists, artist_suggest, category_artists, nearby")
    p.add_argument("--baseline", help="the previous night's snapshot directory (alerts); without it, no alerts are expected")
    args = p.parse_args()
    if args.snapshot is None:
        out = args.out or os.path.join(args.work, "out")
        current = open(os.path.join(out, "snapshots", "CURRENT")).read().strip()
        args.snapshot = os.path.join(out, "snapshots", current)
    world = World(args)
    ids = sorted(world.users)
    if args.all or args.users >= len(ids):
        sample = ids
    else:
        rng = random.Random(args.seed)
        sample = set(rng.sample(ids, args.users))
        # The hardest users too: the most favourites, and users without a place.
        sample |= set(sorted(ids, key=lambda k: (-len(world.users[k]["favorites"]), k))[:100])
        sample |= set([k for k in ids if world.users[k]["place"] is None][:100])
        sample = sorted(sample)
    problems, checked = [], collections.Counter()
    for dataset, build in (("explore", world.explore), ("feed", world.feed), ("tonight", world.tonight)):
        theirs = published(args.snapshot, dataset, sample)
        for key in sample:
            mine = build(world.users[key])
            checked[dataset] += len(mine)
            compare(dataset, key, mine, theirs.get(key), problems)
    catalog_counts = {} if args.no_catalog else compare_catalog(args.snapshot, catalog(world), problems)
    checked.update(compare_alerts(args.snapshot, args.baseline, world, sample, problems))
    playmate = Playmate(args.inputs, world.as_of)
    players = sorted(playmate.players)
    if not (args.all or args.users >= len(players)):
        players = sorted(random.Random(args.seed).sample(players, args.users))
    checked["sessions"] = compare_playmate(args.snapshot, playmate, players, problems)
    for line in problems[:50]:
        print(line)
    print(f"crosscheck: {len(sample)} users, items checked: explore {checked['explore']}, "
          f"feed {checked['feed']}, tonight {checked['tonight']}, alerts {checked['alerts']}, "
          f"following {checked['following']}; {len(players)} players, "
          f"sessions items {checked['sessions']}; records checked: "
          + (", ".join(f"{k} {v}" for k, v in catalog_counts.items()) or "none") + f"; {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
