"""ranking.md's planners' calendar (issue 16): planner (per cell and venue-local date) and
similar_dates (per artist: dates of its affinity neighbours)."""
import collections

from .catalog import geohash
from .common import compare_records, same

PLANNER_SIZE = 50
SIMILAR_SIZE = 200
MIN_SCORE = 0.05


def local_date(e):
    """The venue-local date (the UTC date without a zone)."""
    return (e.get("localStart") or e["startsAt"])[:10]


def calendar(world):
    """The expected planner records by key, and similar_dates lists by artist."""
    names = {a["id"]: a["name"] for a in world.artist_records}
    cities = {v["id"]: v.get("city") for v in world.venue_records}
    placed = [e for e in world.upcoming if e["point"] is not None]
    cell_of = {e["id"]: geohash(e["point"][0], e["point"][1], 4) for e in placed}

    def item(e):
        out = {"event": e["id"], "name": e["name"], "venue": e["venue"]}
        if cities.get(e["venue"]) is not None:
            out["city"] = cities[e["venue"]]
        out["startsAt"] = e["startsAt"]
        if "localStart" in e:
            out["localStart"] = e["localStart"]
        return out

    days = collections.defaultdict(list)
    for e in placed:
        days[f"{cell_of[e['id']]}/{local_date(e)}"].append(e)
    planner = {}
    for key, events in days.items():
        counts = collections.Counter(e["category"] for e in events if "category" in e)
        top = []
        for e in sorted(events, key=lambda e: (-e["pop"], e["start"], e["id"]))[:PLANNER_SIZE]:
            x = item(e)
            if e["headliner"] is not None:
                x["headliner"] = e["headliner"]
                x["headlinerName"] = names[e["headliner"]]
            if "category" in e:
                x["category"] = e["category"]
            x["popularity"] = e["pop"]
            top.append(x)
        planner[key] = {"cell": key.split("/")[0], "date": key.split("/")[1], "total": len(events),
                        "categories": [{"category": c, "count": n} for c, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))],
                        "events": top}
    similar = {}
    by_start = sorted(placed, key=lambda e: (e["start"], e["id"]))
    for source, edges in world.edges.items():
        near = {}
        for target, score in edges:
            if target != source and score >= MIN_SCORE:
                near[target] = max(score, near.get(target, score))
        if not near:
            continue
        items = []
        for e in by_start:
            if source in e["performers"]:
                continue
            best = None
            for a in e["performers"]:
                if a in near and (best is None or near[a] > near[best] or (near[a] == near[best] and a < best)):
                    best = a
            if best is None:
                continue
            x = item(e)
            x["date"] = local_date(e)
            x["venue"] = x.pop("venue")
            if "city" in x:
                x["city"] = x.pop("city")
            x["cell"] = cell_of[e["id"]]
            x.update({"artist": best, "score": near[best]})
            items.append(x)
            if len(items) == SIMILAR_SIZE:
                break
        if items:
            similar[str(source)] = items
    return planner, similar


def compare_calendar(snapshot, world, problems):
    planner, similar = calendar(world)
    whole = lambda r: {k: v for k, v in r.items() if k != "key"}
    return {"planner": compare_records(snapshot, "planner", planner, problems, value=whole, equal=same),
            "similar_dates": compare_records(snapshot, "similar_dates", similar, problems, equal=same)}
