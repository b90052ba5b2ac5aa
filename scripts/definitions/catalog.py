"""recommendations.md's catalog indexes: artists' counts, artist_suggest, category_artists,
nearby."""
import collections, unicodedata

from .common import compare_records

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
    return {"artists": artists, "artist_suggest": dict(suggest), "category_artists": dict(by_category), "nearby": dict(nearby)}


def compare_catalog(snapshot, expected, problems):
    counted = lambda r: {"favorites": r.get("favorites"), "upcomingEvents": r.get("upcomingEvents")}
    return {dataset: compare_records(snapshot, dataset, want, problems, **({"value": counted} if dataset == "artists" else {}))
            for dataset, want in expected.items()}
