"""recommendations.md's Tickets Tonight lists (explore, feed, tonight), the most direct way,
and the world they are computed from."""
import bisect, collections, csv, datetime, json, math, os, re
import xml.etree.ElementTree as ET

from .common import NEAR_TIE, EARTH_RADIUS_KM, km, instant, dump, zip5, geotable, exact_point, same_number, valid_id, number, without_null_markers

# INPUTS.md: a dollar sign, digits grouped by commas in threes (or not grouped), a fraction.
MONEY = re.compile(r"\$(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?")


def budget(raw):
    """A `max_price`: a number, or an amount as PostgreSQL's `money` writes it (`$1,025.00`,
    INPUTS.md) as the number of its digits. None for anything else."""
    price = number(raw)
    s = raw.strip(" \t")
    if price is None and MONEY.fullmatch(s):
        price = number(s[1:].replace(",", ""))
    return price

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
        zips, cells = geotable(os.path.join(here, "..", "..", "Sources", "TonightGeo", "Resources", "geotable.tsv.zst"))
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
            # feed.md: unknown performers removed, a repeated one kept once (where it first is).
            if list(dict.fromkeys(a for (a, _) in perf)) != e["performers"]:
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
        with open(os.path.join(args.inputs, "tickets", "users.csv"), newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
            for row in csv.DictReader(f):
                row = without_null_markers("users.csv", row)
                user = self.user_row(row)
                if user is not None:
                    uid, place, radius, price = user
                    if place is None and row.get("home_zip"):
                        # INPUTS.md: a ZIP written as a float (`10007.0`) is its digits.
                        z = zip5(row["home_zip"]) or zip5(re.sub(r"^([ \t]*[0-9]+)\.0+([ \t]*)$", r"\1\2", row["home_zip"]))
                        place = zips.get(z) if z else None
                    self.users[uid] = {
                        "place": place, "radius": RADIUS_KM if radius is None else radius, "maxPrice": price,
                        "favorites": [], "follows": set(), "dismissed": set()}
        for name, field, into in (("favorites.csv", "artist_id", "favorites"),
                                  ("follows.csv", "event_id", "follows"),
                                  ("dismissed.csv", "event_id", "dismissed")):
            path = os.path.join(args.inputs, "tickets", name)
            if not os.path.exists(path):
                continue
            with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
                for row in csv.DictReader(f):
                    if valid_id(row["user_id"]) is None or valid_id(row[field]) is None:
                        continue  # bad-id: the row is rejected
                    if into == "favorites" and not re.fullmatch(r"[ \t]*[0-9]{1,18}(?:\.0+)?[ \t]*", row[field]):
                        continue  # bad-id: not an integer (INPUTS.md: `123.0` is one, as pandas writes it)
                    u = self.users.get(valid_id(row["user_id"]))
                    if u is None:
                        continue  # unknown-user (no row in users.csv, or its row rejected): ignored
                    if into == "favorites":
                        a = int(row[field].strip(" \t").split(".")[0])
                        if a in self.artists:
                            # recommendations.md: "how many users favour them" (user-data.md:
                            # a favourite of an unknown user is counted and ignored).
                            self.favored_by[a].add(valid_id(row["user_id"]))
                        if a in self.artists and a not in u["favorites"]:
                            u["favorites"].append(a)
                    else:
                        u[into].add(row[field].strip().upper())

    @staticmethod
    def user_row(row):
        """A users.csv row by user-data.md's and INPUTS.md's rules: (id, coordinates or None,
        radius or None, budget or None), or None for a rejected row (a bad id, coordinates that
        are not two numbers in range, a radius outside (0, 40075] km, a budget outside
        [0, 1000000]). A row without coordinates is placed by its home ZIP (not here)."""
        uid = valid_id(row.get("user_id") or "")
        if uid is None:
            return None
        texts = {k: (row.get(k) or "").strip(" \t") for k in ("lat", "lon", "radius_km", "max_price")}
        place = None
        if texts["lat"] or texts["lon"]:
            lat, lon = number(texts["lat"]), number(texts["lon"])
            if lat is None or lon is None or not -90 <= lat <= 90 or not -180 <= lon <= 180:
                return None
            place = None if lat == 0 and lon == 0 else (lat, lon)  # INPUTS.md: null island is no place
        radius = price = None
        if texts["radius_km"]:
            radius = number(texts["radius_km"])
            if radius is None or not 0 < radius <= 40075:
                return None
        if texts["max_price"]:
            price = budget(texts["max_price"])
            if price is None or not 0 <= price <= 1_000_000:
                return None
        return uid, place, radius, price

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
