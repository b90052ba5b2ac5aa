"""recommendations.md's Playmate suggestions and statistics, with ranking.md's skill-level
tie-break and feedback."""
import collections, csv, datetime, functools, json, os, re, unicodedata

from .feed import clean as feed_text
from .common import NEAR_TIE, km, instant, exported_timestamp, session_instant, published, same_number, valid_id, number, without_null_markers

SESSIONS_RADIUS_KM = 80.4672
SESSIONS_SIZE = 8
WEIGHTS = (5.2, 2.3, 1.2, 1.9)  # sportWeight, friends, genderMatches, ageMatches
AGE_GROUPS = ((12, "Under 12"), (18, "12-17"), (25, "18-24"), (35, "25-34"), (45, "35-44"), (55, "45-54"),
              (65, "55-64"), (75, "65-74"), (10 ** 9, "75+"))


DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z", re.ASCII)


def birthday_date(text):
    """players.csv's birthday (trimmed): a real YYYY-MM-DD, or that date at midnight as a
    timestamp (INPUTS.md: an `exported_timestamp` at 00:00:00, a fraction of zeros, with or
    without a zone, as a `DATETIME` or `timestamp` column or a JavaScript `Date` is exported:
    the date written); else None."""
    stamp = exported_timestamp(text)
    if stamp is not None and stamp[1] == "00:00:00" and not stamp[2]:
        text = stamp[0]
    if not DATE.match(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


# INPUTS.md: an integer, or one with a fraction of zeros as pandas writes an int column that
# has a blank (`60.0`).
INTEGER = re.compile(r"[0-9]{1,18}(?:\.0+)?\Z", re.ASCII)


def whole(text):
    """The value of a text that INTEGER matches."""
    return int(text.strip(" \t").split(".")[0])


GENDERS = ("Female", "Male", "Non-binary")
DASHES = dict.fromkeys([*range(0x2010, 0x2016), 0x2212, 0xFE63, 0xFF0D], "-")


def app_spelling(value, names):
    """INPUTS.md: a gender or age group in another case or with another dash is the app's
    spelling of it (`female`, `12–17`); the value itself when it is none."""
    key = value.lower().translate(DASHES)
    return next((n for n in names if n.lower().translate(DASHES) == key), value)


def clean(text):
    """feed.md's text rule, as the exports use it: trimmed of Unicode white space (not
    Python's `str.strip` set, which also takes U+001C to U+001F), NFC, empty is absent."""
    return feed_text(text or "")


def clean_or_empty(text):
    """`clean` as text, for the every-scalar test: the text, or "" for none."""
    return clean(text) or ""


def sport_key(text):
    """user-data.md: sports are compared case-insensitively after trimming (full case folding)."""
    return unicodedata.normalize("NFC", text.strip(" \t").casefold())


class Playmate:
    def __init__(self, inputs, as_of):
        self.as_of = as_of
        day = datetime.datetime.fromtimestamp(as_of, datetime.timezone.utc).date()
        folder = os.path.join(inputs, "playmate")

        def rows(name):
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                return []
            # A byte that is not UTF-8 (a Latin-1 exporter's) kept as a lone surrogate.
            with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
                return [without_null_markers(name, r) for r in csv.DictReader(f)]

        def not_utf8(r, *columns):
            """user-data.md: the files are UTF-8; the stage rejects a row whose free text is not."""
            return any(any("\udc80" <= c <= "\udcff" for c in (r.get(k) or "")) for k in columns)

        def age_group(text):
            b = birthday_date((text or "").strip(" \t"))
            if b is None:
                return None
            age = day.year - b.year - ((day.month, day.day) < (b.month, b.day))
            return next(name for (limit, name) in AGE_GROUPS if age < limit)

        def origin_of(r):
            """Optional coordinates (INPUTS.md): both or neither, numbers in range. (origin or
            None, True), or (None, False) for a rejected row."""
            lat, lon = (r.get("lat") or "").strip(" \t"), (r.get("lon") or "").strip(" \t")
            if not lat and not lon:
                return None, True
            a, o = number(lat), number(lon)
            if a is None or o is None or not -90 <= a <= 90 or not -180 <= o <= 180:
                return None, False
            if a == 0 and o == 0:
                return None, True  # INPUTS.md: null island, an exporter's zeros for no place
            return (a, o), True

        def player_row(r):
            """players.csv by user-data.md's and INPUTS.md's rules: (id, origin or None), or
            None for a rejected row (a bad id; coordinates that are not two numbers in range;
            a birthday that is not a real YYYY-MM-DD, or that date at midnight as a timestamp,
            from 1900-01-01 to the run date; a gender that is not one of the app's, in any case)."""
            uid = valid_id(r.get("user_id") or "")
            origin, ok = origin_of(r)
            if not ok:
                return None
            gender = clean(r.get("gender"))
            if gender is not None and app_spelling(gender, GENDERS) not in GENDERS:
                return None
            text = (r.get("birthday") or "").strip(" \t")
            if text:
                b = birthday_date(text)
                if b is None or not datetime.date(1900, 1, 1) <= b <= day:
                    return None
            return None if uid is None else (uid, origin)

        self.players = {}
        for r in rows("players.csv"):
            row = player_row(r)
            if row is None:
                continue
            self.players[row[0]] = {
                "gender": app_spelling(clean(r.get("gender")) or "", GENDERS) or None, "age": age_group(r.get("birthday")),
                "origin": row[1],
                "play": set(), "avoid": set(), "genders": set(), "ages": set(), "declined": set()}
        for r in rows("quiz.csv"):
            origin, ok = origin_of(r)
            if not_utf8(r, "play_sports", "avoid_sports") or valid_id(r.get("user_id") or "") is None or not ok:
                continue
            p = self.players.get(r["user_id"].strip())
            if p is None:
                continue
            def items(name):
                # INPUTS.md: `a|b`, or a JSON array of strings as Parse's array columns export.
                text = clean(r.get(name)) or ""
                if text.startswith("[") and text.endswith("]"):
                    try:
                        array = json.loads(text)
                    except ValueError:
                        array = None
                    if isinstance(array, list) and all(isinstance(x, str) for x in array):
                        return [c for c in (clean(x) for x in array) if c]
                # INPUTS.md: in a field without `|`, outside brackets, `,` and `;` separate items.
                typed = "|" not in text and not (text.startswith("[") and text.endswith("]"))
                return [c for c in (clean(x) for x in re.split(r"[,;]" if typed else r"[|]", text)) if c]
            if origin is not None:
                p["origin"] = origin
            p["play"] = {sport_key(x) for x in items("play_sports")}
            p["avoid"] = {sport_key(x) for x in items("avoid_sports")}
            p["genders"] = {app_spelling(x, GENDERS) for x in items("genders")}
            p["ages"] = {app_spelling(x, [name for (_, name) in AGE_GROUPS]) for x in items("age_groups")}
        def session_row(r):
            """sessions.csv by user-data.md's and INPUTS.md's rules, or None for a rejected row:
            ids; a sport (at most 200 bytes); `occurs_at` a real instant from 2000 to 2099
            (YYYY-MM-DDTHH:MM:SSZ, or as other exporters write it: `session_instant`); both coordinates, numbers in range; a capacity of 1…1000 and a
            duration (optional) of 0…1440 minutes, integers; a session id seen before."""
            sid, creator, sport = valid_id(r.get("session_id") or ""), valid_id(r.get("creator_id") or ""), clean(r.get("sport"))
            if sid is None or creator is None or sid in self.sessions or not sport or len(sport.encode("utf-8", "surrogateescape")) > 200:
                return None
            when = session_instant((r.get("occurs_at") or "").strip(" \t"))
            if when is None or not instant("2000-01-01T00:00:00Z") <= when <= instant("2099-12-31T23:59:59Z"):
                return None
            lat, lon = number(r.get("lat") or ""), number(r.get("lon") or "")
            if lat is None or lon is None or not -90 <= lat <= 90 or not -180 <= lon <= 180 or (lat == 0 and lon == 0):
                return None
            capacity, duration = (r.get("capacity") or "").strip(" \t"), (r.get("duration_min") or "").strip(" \t")
            if not INTEGER.match(capacity) or not 1 <= whole(capacity) <= 1000:
                return None
            if duration and (not INTEGER.match(duration) or not 0 <= whole(duration) <= 1440):
                return None
            return sid

        self.sessions = {}
        for r in rows("sessions.csv"):
            if not_utf8(r, "sport", "skill_level", "location_name") or session_row(r) is None:
                continue
            self.sessions[r["session_id"].strip()] = {
                "id": r["session_id"].strip(), "key": sport_key(clean(r["sport"])), "label": clean(r["sport"]),
                "skill": clean(r.get("skill_level")), "location": clean(r.get("location_name")),
                "creator": r["creator_id"].strip(), "occurs": session_instant(r["occurs_at"].strip(" \t")),
                "duration": whole(r["duration_min"]) if (r.get("duration_min") or "").strip() else 0,
                "place": (float(r["lat"]), float(r["lon"])), "capacity": whole(r["capacity"]),
                "members": {r["creator_id"].strip()}}
        for r in rows("session_players.csv"):
            # user-data.md: a reference to an unknown player (none by that id, or its row
            # rejected) is counted and ignored. The creator is a member known or not.
            s = self.sessions.get(r["session_id"].strip())
            if s is not None and r["user_id"].strip() in self.players:
                s["members"].add(r["user_id"].strip())
        self.of_player = collections.defaultdict(list)
        for s in self.sessions.values():
            for m in s["members"]:
                self.of_player[m].append(s)
        self.friends = collections.defaultdict(set)
        for r in rows("friends.csv"):
            if r["user_id"].strip() in self.players and r["friend_id"].strip() in self.players:
                self.friends[r["user_id"].strip()].add(r["friend_id"].strip())
        # feedback.csv (INPUTS.md): answer yes or no and reason sport, time, place, people,
        # other or empty, in any case; a row that breaks that, or holds a bad id, is rejected
        # and leaves the pair's standing answer as it was.
        standing = {}
        # Who answered, in file order (rejected rows too): the cross-check's sample takes the
        # last ones, so that a sample of a large night still checks the rules on answers.
        self.answered = []
        for r in rows("feedback.csv"):
            if (r.get("user_id") or "").strip() in self.players:
                self.answered.append(r["user_id"].strip())
            answer, reason = (clean(r.get("answer")) or "").lower(), (clean(r.get("reason")) or "").lower()
            if valid_id(r.get("user_id") or "") is None or valid_id(r.get("session_id") or "") is None \
                    or answer not in ("yes", "no") or reason not in ("", "sport", "time", "place", "people", "other"):
                continue
            standing[(r["user_id"].strip(), r["session_id"].strip())] = (answer, reason)
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
    # Checking every player: a published player the definition does not have (its row
    # rejected by user-data.md's rules) is a difference too.
    others = [] if len(sample) == len(playmate.players) else None
    stats = published(snapshot, "player_stats", sample, whole=True, others=others)
    for key in (others or [])[:20]:
        problems.append(f"player_stats {key!r}: published, but not a player by definition (a rejected row?)")
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
