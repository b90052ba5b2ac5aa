"""recommendations.md's catalog indexes: artists' counts, artist_suggest, category_artists,
nearby; and ranking.md's event_search."""
import collections, unicodedata

from .common import compare_records, same

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
        artists[str(a["id"])] = {"favorites": favorites.get(a["id"], 0), "upcomingEvents": upcoming[a["id"]]}
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
    return {"artists": artists, "artist_suggest": dict(suggest), "category_artists": dict(by_category), "nearby": dict(nearby),
            "event_search": event_search(world)}


def words(key):
    """The words of a name key (`NameKey.words`): split at spaces, letters and digits kept
    between the first and the last of them."""
    out = []
    for w in key.split(" "):
        kept = [i for i, c in enumerate(w) if c.isalpha() or c.isnumeric()]
        if kept:
            out.append(w[kept[0]:kept[-1] + 1])
    return out


def event_search(world):
    """Per prefix of 1-4 scalars of a word of an upcoming event's name, its performers' names,
    its venue's name and city: the 10 most popular events, then soonest, then by id."""
    names = {a["id"]: a["name"] for a in world.artist_records}
    venues = {v["id"]: v for v in world.venue_records}
    lists = collections.defaultdict(list)
    for e in sorted(world.upcoming, key=lambda e: (-e["pop"], e["start"], e["id"])):
        texts = [e["name"]] + [names[a] for a in e["performers"] if a in names]
        v = venues.get(e["venue"])
        if v is not None:
            texts += [v["name"]] + ([v["city"]] if v.get("city") is not None else [])
        item = {"event": e["id"], "name": e["name"], "startsAt": e["startsAt"], "venue": e["venue"]}
        if v is not None and v.get("city") is not None:
            item["city"] = v["city"]
        item["popularity"] = e["pop"]
        prefixes = dict.fromkeys(w[:n] for t in texts for w in words(name_key(t)) for n in range(1, min(4, len(w)) + 1))
        for p in prefixes:
            if len(lists[p]) < 10:
                lists[p].append(item)
    return dict(lists)


def compare_catalog(snapshot, expected, problems):
    counted = lambda r: {"favorites": r.get("favorites"), "upcomingEvents": r.get("upcomingEvents")}
    options = {"artists": {"value": counted}, "event_search": {"equal": same}}
    return {dataset: compare_records(snapshot, dataset, want, problems, **options.get(dataset, {}))
            for dataset, want in expected.items()}
