#!/usr/bin/env python3
"""An independent check of the published per-user lists and the catalog's indexes.

Recomputes, for a sample of users (or all of them), the lists explore, feed and tonight
straight from recommendations.md, in plain Python and in the most direct way (every
candidate collected and sorted, every upcoming event scored for the popular backfill), and
compares them with the published snapshot: the same events in the same order, and the same
published fields. Then every record of artists (favorites, upcomingEvents), artist_suggest,
category_artists and nearby, likewise (--no-catalog skips them), and sampled players'
Playmate sessions and player_stats (with ranking.md's skill-level tie-break and feedback;
--users also sets how many players; the players of the last 100 feedback rows are added).
And every record of events, venues and categories, the artists' own fields and the parse's
rejects, from the raw feed (feed.md, geocoding.md: parsed, normalised, linked and placed
here; local times from zoneinfo), and the affinity stage's edges, counts and rejects from
affinity.txt (affinity.md); `scripts/messy-inputs.py` makes a generated feed and affinity file as messy as real ones for it. It shares no code with the Swift ranking, so the ranking's fast paths (band searches,
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
import argparse, collections, os, random, sys

from definitions.alerts import compare_alerts
from definitions.catalog import catalog, compare_catalog
from definitions.common import published
from definitions.feed import compare_feed
from definitions.planner import compare_calendar
from definitions.pages import artist_years, compare_pages, event_pages, session_pages
from definitions.playmate import Playmate, compare_playmate
from definitions.tickets import World, compare


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
    p.add_argument("--no-feed", action="store_true", help="skip events, venues, categories and the feed's rejects")
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
        # Checking every user: a published user the definition does not have (its row
        # rejected by user-data.md's rules) is a difference too.
        others = [] if sample == ids else None
        theirs = published(args.snapshot, dataset, sample, others=others)
        for key in (others or [])[:20]:
            problems.append(f"{dataset} {key!r}: published, but not a user by definition (a rejected row?)")
        for key in sample:
            mine = build(world.users[key])
            checked[dataset] += len(mine)
            compare(dataset, key, mine, theirs.get(key), problems)
    catalog_counts = {} if args.no_catalog else compare_catalog(args.snapshot, catalog(world), problems)
    checked.update(compare_alerts(args.snapshot, args.baseline, world, sample, problems))
    playmate = Playmate(args.inputs, world.as_of)
    players = sorted(playmate.players)
    if not (args.all or args.users >= len(players)):
        players = sorted(set(random.Random(args.seed).sample(players, args.users)) | set(playmate.answered[-100:]))
    checked["sessions"] = compare_playmate(args.snapshot, playmate, players, problems)
    if not args.no_feed:
        catalog_counts.update(compare_feed(args.snapshot, args.work, args.inputs, problems, tonight=args.tonight))
    if not args.no_catalog:
        catalog_counts.update(compare_pages(args.snapshot, event_pages(world), problems))
        catalog_counts.update(compare_pages(args.snapshot, artist_years(world), problems))
        catalog_counts.update(compare_calendar(args.snapshot, world, problems))
        catalog_counts.update(compare_pages(args.snapshot, session_pages(playmate), problems))
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

