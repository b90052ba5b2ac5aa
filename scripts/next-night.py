#!/usr/bin/env python3
"""The next night's inputs, for tests of alerts: scripts/next-night.py IN OUT.

Copies the inputs directory IN to OUT (which must not exist) with a feed that changed over
the day: of the events in feed order, every 17th (k % 17 == 0) dropped, every 11th from the
second moved to another venue of the feed, every 13th from the third moved to 23:45 UTC,
every 7th from the fourth with its status swapped between 2 and 3 (when it is either). So a
night run on OUT against a snapshot of IN has `removed`, `venue-changed`, `time-changed` and
`status-changed` alerts. Prints the next night's as-of (IN's generated.json `asOf` plus one
day) when IN has one.

Used by CrossCheckTests.alertsOfASecondNight and scripts/tsan.sh: one definition of the
change.
"""
import datetime
import json
import os
import re
import shutil
import sys


def next_night(feed: str) -> str:
    parts = feed.split("\n\t<Event ")
    out = [parts[0]]
    venues = re.findall(r'<VenueID ID="([0-9]*)', feed)
    if not venues:
        sys.exit("next-night.py: the feed has no <VenueID> to move events to")
    for k, e in enumerate(parts[1:]):
        if k % 17 == 0:
            # Dropped: only what follows its end tag stays (the sections' end, after the last).
            end = e.find("</Event>")
            if end >= 0:
                out.append(e[end + len("</Event>"):])
            continue
        if k % 11 == 1:
            e = re.sub(r'<VenueID ID="[0-9]+"', lambda _: f'<VenueID ID="{venues[(k * 7) % len(venues)]}"', e, count=1)
        if k % 13 == 2:
            e = re.sub(r"<EventTime>[0-9:]+</EventTime>", "<EventTime>23:45:00</EventTime>", e, count=1)
        if k % 7 == 3:
            e = re.sub(r"<EventStatus>[23]</EventStatus>",
                       lambda m: "<EventStatus>2</EventStatus>" if "3" in m.group(0) else "<EventStatus>3</EventStatus>",
                       e, count=1)
        out.append("\n\t<Event " + e)
    return "".join(out)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: next-night.py IN OUT")
    src, dst = sys.argv[1], sys.argv[2]
    if not os.path.isfile(os.path.join(src, "feed.xml")):
        sys.exit(f"next-night.py: {src}/feed.xml not found (IN must be an inputs directory with a plain feed.xml)")
    if os.path.exists(dst):
        sys.exit(f"next-night.py: {dst} exists (OUT must be a new directory)")
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("feed.xml"))
    with open(os.path.join(src, "feed.xml"), encoding="utf-8", newline="") as f:
        feed = f.read()
    with open(os.path.join(dst, "feed.xml"), "w", encoding="utf-8", newline="") as f:
        f.write(next_night(feed))
    generated = os.path.join(src, "generated.json")
    if os.path.exists(generated):
        with open(generated, encoding="utf-8") as f:
            as_of = json.load(f)["asOf"]
        day = datetime.datetime.strptime(as_of, "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(days=1)
        print(day.strftime("%Y-%m-%dT%H:%M:%SZ"))


if __name__ == "__main__":
    main()
