"""recommendations.md's alerts for followed events, and the following tab."""
import collections, json

from .common import published, all_records

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
