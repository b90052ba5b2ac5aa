/// One kind of id that records of a dataset point at, and the dataset whose keys it must be:
/// `items[].event` of `explore` must be a key of `events`. Values are compared by their text
/// (a number's digits, a string's content) with the target's keys.
public struct ReferenceRule: Sendable, Equatable {
    /// One step of a field path: a member of an object, or every element of an array.
    public enum Step: Sendable, Equatable {
        /// The member of this name.
        case field(String)
        /// Every element.
        case each
    }

    /// A sibling of the referencing field that decides whether the reference counts.
    public struct Condition: Sendable, Equatable {
        /// The sibling member's name (`kind`).
        public var field: String
        /// The string value compared.
        public var value: String
        /// true: checked only when equal; false: checked unless equal.
        public var when: Bool
    }

    /// The dataset whose records hold the reference.
    public var dataset: String
    /// The path from the record to the value (`items`, each, `event`).
    public var path: [Step]
    /// The dataset the value must be a key of.
    public var target: String
    /// Only for some items (alerts: `removed` events left the feed).
    public var condition: Condition?

    /// `items[].event`-style text of the path.
    public var pathText: String {
        var s = ""
        for step in path {
            switch step {
            case .field(let f): s += s.isEmpty ? f : "." + f
            case .each: s += "[]"
            }
        }
        return s
    }

    init(_ dataset: String, _ path: String, _ target: String, unless: (String, String)? = nil, when: (String, String)? = nil) {
        self.dataset = dataset
        var steps: [Step] = []
        for part in path.split(separator: ".") {
            if part.hasSuffix("[]") {
                steps.append(.field(String(part.dropLast(2))))
                steps.append(.each)
            } else {
                steps.append(.field(String(part)))
            }
        }
        self.path = steps
        self.target = target
        if let (f, v) = unless { condition = Condition(field: f, value: v, when: false) }
        if let (f, v) = when { condition = Condition(field: f, value: v, when: true) }
    }

    /// Every reference of the published datasets (snapshots.md): each id a record points at
    /// (event, venue, artist, category, session, player) must resolve in the same snapshot.
    /// Exceptions: a `removed` alert's event (it left the feed) and an alert's `old` values
    /// (they describe the previous night's snapshot).
    public static let standard: [ReferenceRule] = [
        .init("events", "artists[]", "artists"),
        .init("events", "category", "categories"),
        .init("events", "venue", "venues"),
        .init("artists", "category", "categories"),
        .init("categories", "parent", "categories"),
        .init("explore", "items[].event", "events"),
        .init("explore", "items[].artist", "artists"),
        .init("explore", "items[].because[]", "artists"),
        .init("feed", "items[].event", "events"),
        .init("feed", "items[].artists[]", "artists"),
        .init("tonight", "items[].event", "events"),
        .init("tonight", "items[].artist", "artists"),
        .init("alerts", "items[].event", "events", unless: ("kind", "removed")),
        .init("alerts", "items[].new", "venues", when: ("kind", "venue-changed")),
        .init("following", "items[].event", "events"),
        .init("following", "items[].venue", "venues"),
        .init("artist_suggest", "items[].id", "artists"),
        .init("category_artists", "key", "categories"),
        .init("category_artists", "items[].id", "artists"),
        .init("nearby", "items[].event", "events"),
        .init("nearby", "items[].venue", "venues"),
        .init("artist_events", "key", "artists"),
        .init("artist_events", "items[].event", "events"),
        .init("artist_events", "items[].venue", "venues"),
        .init("venue_events", "key", "venues"),
        .init("venue_events", "items[].event", "events"),
        .init("venue_events", "items[].venue", "venues"),
        .init("artist_years", "key", "artists"),
        .init("event_search", "items[].event", "events"),
        .init("event_search", "items[].venue", "venues"),
        .init("planner", "events[].event", "events"),
        .init("planner", "events[].venue", "venues"),
        .init("planner", "events[].headliner", "artists"),
        .init("planner", "events[].category", "categories"),
        .init("planner", "categories[].category", "categories"),
        .init("similar_dates", "key", "artists"),
        .init("similar_dates", "items[].event", "events"),
        .init("similar_dates", "items[].venue", "venues"),
        .init("similar_dates", "items[].artist", "artists"),
        .init("sessions", "key", "player_stats"),
        .init("sessions", "items[].session", "playmate_sessions"),
        .init("playmate_sessions", "creator", "player_stats"),
        .init("playmate_sessions", "members[]", "player_stats"),
        .init("upcoming_sessions", "key", "player_stats"),
        .init("upcoming_sessions", "items[].session", "playmate_sessions"),
        .init("open_sessions", "items[].session", "playmate_sessions"),
    ]
}
