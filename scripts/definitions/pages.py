"""ranking.md's pages (issue 16): artist_events, venue_events, artist_years (catalog),
upcoming_sessions and open_sessions (playmate)."""
import collections, datetime

from .catalog import geohash
from .common import compare_records

ARTIST_EVENTS_SIZE = 200


def event_pages(world):
    """artist_events and venue_events: each artist's and venue's upcoming events by startsAt,
    then id, at most 200."""
    cities = {v["id"]: v.get("city") for v in world.venue_records}
    by_artist, by_venue = collections.defaultdict(list), collections.defaultdict(list)
    for e in sorted(world.upcoming, key=lambda e: (e["start"], e["id"])):
        item = {"event": e["id"], "name": e["name"], "venue": e["venue"]}
        if cities.get(e["venue"]) is not None:
            item["city"] = cities[e["venue"]]
        item["startsAt"] = e["startsAt"]
        for field in ("localStart", "status"):
            if field in e:
                item[field] = e[field]
        for a in dict.fromkeys(e["performers"]):
            if len(by_artist[str(a)]) < ARTIST_EVENTS_SIZE:
                by_artist[str(a)].append(item)
        if len(by_venue[str(e["venue"])]) < ARTIST_EVENTS_SIZE:
            by_venue[str(e["venue"])].append(item)
    return {"artist_events": dict(by_artist), "venue_events": dict(by_venue)}


def artist_years(world):
    """Per artist and calendar year of the venue-local date (the UTC date without one), every
    event of the feed it performs in, past ones included: counts of events, distinct venues
    and distinct cities (of venues that have one), the first and last date."""
    venues = {v["id"]: v for v in world.venue_records}
    years = collections.defaultdict(lambda: collections.defaultdict(list))
    for e in world.events.values():
        day = (e.get("localStart") or e["startsAt"])[:10]
        for a in dict.fromkeys(e["performers"]):
            years[str(a)][int(day[:4])].append((day, e))
    out = {}
    for a, by_year in years.items():
        items = []
        for year in sorted(by_year):
            days = sorted(d for d, _ in by_year[year])
            places = {e["venue"] for _, e in by_year[year]}
            cities = {(venues[v].get("city"), venues[v].get("state"), venues[v].get("country"))
                      for v in places if v in venues and venues[v].get("city") is not None}
            items.append({"year": year, "events": len(by_year[year]), "venues": len(places), "cities": len(cities),
                          "first": days[0], "last": days[-1]})
        out[a] = items
    return {"artist_years": out}


def session_pages(playmate):
    """upcoming_sessions (per player: the sessions they are in, after asOf, by time then id)
    and open_sessions (per geohash-4 cell: not started, not full, by time then id)."""
    def when(s):
        return datetime_text(s["occurs"])
    upcoming = collections.defaultdict(list)
    for s in sorted(playmate.sessions.values(), key=lambda s: (s["occurs"], s["id"])):
        if s["occurs"] <= playmate.as_of:
            continue
        for m in s["members"]:
            if m not in playmate.players:
                continue
            item = {"session": s["id"], "sport": s["label"], "occursAt": when(s)}
            if s["location"] is not None:
                item["locationName"] = s["location"]
            item.update({"lat": s["place"][0], "lon": s["place"][1], "players": len(s["members"]), "capacity": s["capacity"]})
            if m == s["creator"]:
                item["created"] = True
            upcoming[m].append(item)
    cells = collections.defaultdict(list)
    for s in sorted(playmate.open, key=lambda s: (s["occurs"], s["id"])):
        item = {"session": s["id"], "sport": s["label"]}
        if s["skill"] is not None:
            item["skillLevel"] = s["skill"]
        item.update({"occursAt": when(s), "durationMin": s["duration"]})
        if s["location"] is not None:
            item["locationName"] = s["location"]
        item.update({"lat": s["place"][0], "lon": s["place"][1], "spotsLeft": s["capacity"] - len(s["members"])})
        cells[geohash(s["place"][0], s["place"][1], 4)].append(item)
    return {"upcoming_sessions": dict(upcoming), "open_sessions": dict(cells)}


def datetime_text(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def same_item(published, mine):
    """Equal, with coordinates to their published 5 decimals."""
    if set(published) != set(mine):
        return False
    for k, v in mine.items():
        if k in ("lat", "lon"):
            if abs(published[k] - v) > 0.5e-5 + 1e-9:
                return False
        elif published[k] != v:
            return False
    return True


def compare_pages(snapshot, expected, problems):
    equal = lambda got, mine: len(got) == len(mine) and all(same_item(g, m) for g, m in zip(got, mine))
    return {dataset: compare_records(snapshot, dataset, want, problems, equal=equal) for dataset, want in expected.items()}
