import TonightBase
import Foundation

/// Typed accessors, one per dataset of snapshots.md. A key with no record gives an empty list
/// (or nil for single records); a dataset missing from the snapshot is an error.
extension Snapshot {
    func items<Item: Decodable>(_ dataset: String, _ key: String, _ type: Item.Type) throws -> [Item] {
        try self.dataset(dataset).value(key: key, as: ItemList<Item>.self)?.items ?? []
    }

    // MARK: Tickets Tonight

    /// The user's explore deck, best first.
    public func explore(user: String) throws -> [ExploreItem] { try items("explore", user, ExploreItem.self) }

    /// The user's favourites feed, soonest first.
    public func feed(user: String) throws -> [FeedItem] { try items("feed", user, FeedItem.self) }

    /// Tonight's notification picks for the user (none without a location).
    public func tonight(user: String) throws -> [TonightItem] { try items("tonight", user, TonightItem.self) }

    /// Changes to events the user follows since the previous snapshot.
    public func alerts(user: String) throws -> [AlertItem] { try items("alerts", user, AlertItem.self) }

    /// The Feed view's "following" tab: the user's followed events still in the feed, soonest
    /// first, each marked when an alert speaks of it tonight.
    public func following(user: String) throws -> [FollowingItem] { try items("following", user, FollowingItem.self) }

    // MARK: Playmate

    /// Sessions suggested to the player, best first.
    public func sessions(user: String) throws -> [SessionItem] { try items("sessions", user, SessionItem.self) }

    /// The player's statistics (nil for an unknown player).
    public func playerStats(user: String) throws -> PlayerStats? {
        try dataset("player_stats").value(key: user, as: PlayerStats.self)
    }

    /// The carousel: sessions the player joined or created that have not started, soonest first.
    public func upcomingSessions(user: String) throws -> [UpcomingSession] {
        try items("upcoming_sessions", user, UpcomingSession.self)
    }

    /// The open sessions (not started, not full) in one geohash cell, soonest first. A cell
    /// that is not a geohash of the dataset's length (`catalog.geohashPrecision`) is an
    /// `invalidArgument` error: it could only find nothing.
    public func openSessions(cell: String) throws -> [OpenSession] {
        try checkCell(cell, "open_sessions")
        return try items("open_sessions", cell, OpenSession.self)
    }

    /// The session `id` (any session, past ones included).
    public func session(id: String) throws -> PlaymateSessionRecord? {
        try dataset("playmate_sessions").value(key: id, as: PlaymateSessionRecord.self)
    }

    // MARK: Catalog

    /// The cleaned event `id`.
    public func event(id: String) throws -> CatalogEvent? { try dataset("events").value(key: id, as: CatalogEvent.self) }

    /// The venue `id` with its place.
    public func venue(id: Int64) throws -> CatalogVenue? { try dataset("venues").value(key: String(id), as: CatalogVenue.self) }

    /// The artist `id` with favourite and upcoming-event counts.
    public func artist(id: Int64) throws -> CatalogArtist? { try dataset("artists").value(key: String(id), as: CatalogArtist.self) }

    /// The category `id`.
    public func category(id: Int64) throws -> CatalogCategory? {
        try dataset("categories").value(key: String(id), as: CatalogCategory.self)
    }

    /// Artists whose own category is `category` and who have upcoming events, most favoured first.
    public func categoryArtists(category: Int64) throws -> [ArtistSummary] {
        try items("category_artists", String(category), ArtistSummary.self)
    }

    /// Search as you type: the most favoured artists whose normalised name starts with the
    /// normalised `prefix`. The snapshot holds prefixes of up to the pipeline's
    /// `catalog.suggestMaxPrefix` scalars (the manifest's `keyForm`; 4 in manifests written
    /// before 2026-11-28); a longer prefix filters the list of its first `maxPrefix` scalars by
    /// name. `maxPrefix` nil is the snapshot's length; a shorter one is allowed, one below 1
    /// or longer than the snapshot's (it could only find nothing) is an `invalidArgument` error.
    public func suggestArtists(prefix: String, maxPrefix asked: Int? = nil) throws -> [ArtistSummary] {
        if let asked { try Self.checkMaxPrefix(asked, "artist_suggest") }
        var key = NameKey.general(prefix)
        if !key.isEmpty, let last = prefix.unicodeScalars.last, last.properties.isWhitespace { key += " " }
        guard !key.isEmpty else { return [] }
        let maxPrefix = try prefixLength("artist_suggest", asked: asked)
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > maxPrefix else { return try items("artist_suggest", key, ArtistSummary.self) }
        var short = ""
        short.unicodeScalars.append(contentsOf: scalars[0..<maxPrefix])
        return try items("artist_suggest", short, ArtistSummary.self).filter { NameKey.hasPrefix(NameKey.general($0.name), key) }
    }

    /// The prefix length of a search in dataset `name`: `asked`, at most the dataset's
    /// (`keyForm.maxPrefixScalars`), or the dataset's when nil; 4, the pipeline's default, in
    /// manifests that do not record it.
    func prefixLength(_ name: String, asked: Int?) throws -> Int {
        let set = try dataset(name)
        let declared = set.entry.keyForm?.maxPrefixScalars
        let length = asked ?? declared ?? 4
        try Self.checkMaxPrefix(length, name)
        if let declared, length > declared {
            throw SnapshotError(file: set.path, "maxPrefix \(length) is longer than the prefixes '\(SnapshotError.quoted(name))' holds "
                + "(\(declared) scalars, the pipeline's catalog.suggestMaxPrefix): pass at most \(declared), or nil for the snapshot's",
                code: .invalidArgument)
        }
        return length
    }

    /// Refuses a `cell` that is not a geohash cell of dataset `name`'s length (checked against
    /// the dataset when it has cells: `Snapshot.cellLength(of:asked:)`).
    func checkCell(_ cell: String, _ name: String) throws {
        guard Geohash.isCell(cell.utf8) else {
            throw SnapshotError(file: name, "'\(SnapshotError.quoted(cell))' is not a geohash cell (1 to 12 of 0-9 and b-z without i, l, o; lower case)",
                                code: .invalidArgument)
        }
        _ = try Self.cellLength(of: dataset(name), asked: cell.utf8.count)
    }

    /// A `maxPrefix` below 1 is an `invalidArgument` error (it trapped until 2026-11-28: a
    /// negative one cut a range or a prefix of negative length).
    static func checkMaxPrefix(_ maxPrefix: Int, _ dataset: String) throws {
        guard maxPrefix >= 1 else {
            throw SnapshotError(file: dataset, "maxPrefix must be at least 1 (the pipeline's precomputed prefix length), not \(maxPrefix)",
                                code: .invalidArgument)
        }
    }

    /// Search as you type over upcoming events: the most popular events with a word (of the
    /// event's name, its performers' names, its venue's name or city) starting with the word
    /// being typed (the query's last word, normalised like artist names, punctuation trimmed).
    /// Prefixes up to `maxPrefix` scalars are precomputed (nil: the snapshot's length, as
    /// for `suggestArtists(prefix:maxPrefix:)`, which also says which lengths are refused); a
    /// longer word, or earlier words, filter that list by the event's name and city.
    public func searchEvents(prefix: String, maxPrefix asked: Int? = nil) throws -> [EventMatch] {
        if let asked { try Self.checkMaxPrefix(asked, "event_search") }
        let words = NameKey.words(ofKey: NameKey.general(prefix))
        guard let last = words.last else { return [] }
        let maxPrefix = try prefixLength("event_search", asked: asked)
        var key = ""
        key.unicodeScalars.append(contentsOf: last.unicodeScalars.prefix(maxPrefix))
        let found = try items("event_search", key, EventMatch.self)
        guard words.count > 1 || last.unicodeScalars.count > maxPrefix else { return found }
        return found.filter { match in
            let have = NameKey.words(ofKey: NameKey.general(match.name + " " + (match.city ?? "")))
            return words.allSatisfy { w in have.contains { NameKey.hasPrefix($0, w) } }
        }
    }

    /// The artist page: the artist's upcoming events (headlining or not), soonest first, at
    /// most `artistEvents.size`.
    public func artistEvents(artist: Int64) throws -> [PageEvent] { try items("artist_events", String(artist), PageEvent.self) }

    /// The venue page: the venue's upcoming events, soonest first, at most `artistEvents.size`.
    public func venueEvents(venue: Int64) throws -> [PageEvent] { try items("venue_events", String(venue), PageEvent.self) }

    /// The artist's events in the feed per calendar year, oldest year first.
    public func artistYears(artist: Int64) throws -> [ArtistYear] { try items("artist_years", String(artist), ArtistYear.self) }

    // MARK: Planners

    /// The planner's view of one geohash cell on one venue-local date (`YYYY-MM-DD`): how many
    /// upcoming events there are, per category, and the most popular of them. nil: no event
    /// that day in the cell (an open date). A cell that is not a geohash of the dataset's
    /// length, or a date that does not exist, is an `invalidArgument` error (either could only
    /// find nothing, which reads as an open date).
    public func plannerDay(cell: String, date: String) throws -> PlannerDay? {
        guard CivilTime.parseDate(date.utf8) != nil else {
            throw SnapshotError(file: "planner", "'\(SnapshotError.quoted(date))' is not a YYYY-MM-DD date", code: .invalidArgument)
        }
        try checkCell(cell, "planner")
        return try dataset("planner").value(key: cell + "/" + date, as: PlannerDay.self)
    }

    /// The cell's calendar for `days` dates from `from` (`YYYY-MM-DD`), one batch read: the
    /// dates with events, in date order (the dates missing from the result are open). A cell
    /// as `plannerDay(cell:date:)` refuses it, a date that does not exist or a `days` outside
    /// 0…``maxPlannerDays`` is an `invalidArgument` error.
    public func plannerDays(cell: String, from: String, days: Int) throws -> [PlannerDay] {
        // Checked here, not by Foundation's calendar, which is lenient (2026-02-30 was March 2).
        guard let start = CivilTime.parseDate(from.utf8) else {
            throw SnapshotError(file: "planner", "'\(SnapshotError.quoted(from))' is not a YYYY-MM-DD date", code: .invalidArgument)
        }
        guard (0...Self.maxPlannerDays).contains(days) else {
            throw SnapshotError(file: "planner", "days must be 0 to \(Self.maxPlannerDays), not \(days)", code: .invalidArgument)
        }
        try checkCell(cell, "planner")
        let keys = (0..<days).map { cell + "/" + CivilTime.formatDate(days: start + $0) }
        let set = try dataset("planner")
        return try zip(keys, set.records(keys: keys)).compactMap { key, json in
            guard let json else { return nil }
            do {
                return try JSONDecoder().decode(PlannerDay.self, from: Data(json))
            } catch {
                throw SnapshotError(file: set.path, "record '\(SnapshotError.quoted(key))' does not decode as PlannerDay: \(error)")
            }
        }
    }

    /// The most days one `plannerDays(cell:from:days:)` reads: a year and a day, more than any
    /// calendar view shows (a larger count would only build keys the dataset cannot hold).
    public static let maxPlannerDays = 366

    /// Where and when acts like the artist play: the upcoming events of its affinity
    /// neighbours (score at least the pipeline's `planner.minScore`), soonest first.
    public func similarDates(artist: Int64) throws -> [SimilarDate] {
        try items("similar_dates", String(artist), SimilarDate.self)
    }
}
