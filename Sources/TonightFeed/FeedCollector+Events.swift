import TonightCore
import TonightBase

extension FeedCollector {
    mutating func finishEvent(_ d: RecordDraft) {
        guard let text = d.idText, !text.isEmpty else {
            rejectEvent(d, "missing-id", "no ID attribute")
            return
        }
        guard let id = EventID.parse(text) else {
            rejectEvent(d, "bad-id", "ID '\(TonightError.quoted(text))' is not 16 hex digits")
            return
        }
        guard insertEventID(id) else {
            rejectEvent(d, "duplicate-id", "ID \(EventID.format(id)) was seen before in events; the first one is kept")
            return
        }
        guard let name = d[.performanceName] else {
            rejectEvent(d, "missing-field", "PerformanceName is required")
            return
        }
        guard let dateText = d[.eventDate] else {
            rejectEvent(d, "missing-field", "EventDate is required")
            return
        }
        guard let venueText = d[.venueID] else {
            rejectEvent(d, "missing-field", "VenueID is required")
            return
        }
        guard let venue = Self.parseInt(venueText), venue >= 0 else {
            rejectEvent(d, "missing-field", "VenueID '\(TonightError.quoted(venueText))' is not an integer id")
            return
        }
        guard let day = CivilTime.parseDate(dateText.utf8) else {
            rejectEvent(d, "bad-date", "EventDate '\(TonightError.quoted(dateText))' is not a real YYYY-MM-DD date")
            return
        }
        var seconds = 0
        var tba = true
        if let timeText = d[.eventTime] {
            guard let t = CivilTime.parseTime(timeText.utf8) else {
                rejectEvent(d, "bad-date", "EventTime '\(TonightError.quoted(timeText))' is not a real HH:MM:SS time")
                return
            }
            seconds = t
            tba = false
        }
        // Performers in feed order, each once (a repeated reference is dropped and counted;
        // a Primary repeat makes the first one Primary).
        var artists: [Int64] = []
        var primary: [Bool] = []
        var seen = Set<Int64>()
        artists.reserveCapacity(min(d.artistRefs.count, 64))
        for ref in d.artistRefs {
            guard let a = Self.parseInt(ref.id), a >= 0 else {
                warn("bad-field")
                continue
            }
            let repeated = artists.count < 16 ? artists.contains(a) : !seen.insert(a).inserted
            if artists.count == 15 { seen.formUnion(artists + [a]) }
            if repeated {
                warn("duplicate-artist-ref")
                if ref.primary, let at = artists.firstIndex(of: a) { primary[at] = true }
                continue
            }
            artists.append(a)
            primary.append(ref.primary)
        }
        let headliner = zip(artists, primary).first { $0.1 }?.0
        // Headliner resolution after unknown artists are removed happens in the link pass;
        // keep the primary flags alongside until then.
        var event = FeedEvent(
            id: id, name: name, artists: artists, headliner: headliner, category: nil, venue: venue,
            startsAt: Int64(day) * 86_400 + Int64(seconds), timeTBA: tba, line: d.line)
        primaryFlags.append(primary)
        event.category = categoryRef(d)
        event.status = optionalEventInt(d, .eventStatus, nonNegative: false)
        event.promoter = optionalEventInt(d, .promoterID, nonNegative: true)
        event.starReviews = optionalEventInt(d, .starReviewCount, nonNegative: true)
        if let s = d[.stars] {
            if let v = Double(s), v >= 0, v <= 5 { event.stars = v } else { warn("bad-field") }
        }
        if let p = d[.priceRange] { parsePrice(p, into: &event) }
        event.onsale = typedDate(present: d.present[FeedField.onsaleDate.rawValue], type: d.onsaleType,
                                 date: d[.onsaleDate], time: d[.onsaleTime])
        event.presale = typedDate(present: d.present[FeedField.presaleDate.rawValue], type: d.presaleType,
                                  date: d[.presaleDate], time: d[.presaleTime])
        event.url = url(d[.purchaseRequestURL])
        events.append(event)
    }

    private mutating func rejectEvent(_ d: RecordDraft, _ reason: String, _ detail: String) {
        rejects.append(FeedRejection(section: "events", id: d.idText, line: d.line, reason: reason, detail: detail))
        rejectCount[FeedSection.events.rawValue] += 1
    }

    private mutating func categoryRef(_ d: RecordDraft) -> Int64? {
        guard let text = d[.categoryID] else { return nil }
        guard let v = Self.parseInt(text), v >= 0 else {
            warn("bad-field")
            return nil
        }
        return v
    }

    private mutating func optionalEventInt(_ d: RecordDraft, _ f: FeedField, nonNegative: Bool) -> Int64? {
        guard let text = d[f] else { return nil }
        guard let v = Self.parseInt(text), !nonNegative || v >= 0 else {
            warn("bad-field")
            return nil
        }
        return v
    }

    /// `"72.5 - 77.5"` or `"40"` → cents; min > max swapped and counted; else a warning.
    mutating func parsePrice(_ text: String, into e: inout FeedEvent) {
        guard let range = PriceRange.parse(text) else {
            warn("bad-price")
            return
        }
        if range.swapped { warn("swapped-price") }
        e.priceMinCents = range.minCents
        e.priceMaxCents = range.maxCents
    }

    /// feed.md "Typed dates".
    mutating func typedDate(present: Bool, type: String?, date: String?, time: String?) -> TypedDate {
        guard present else { return .unknown }
        switch type ?? "" {
        case "NOW":
            return .now
        case "DEF":
            guard let date else { return .unknown }
            guard let day = CivilTime.parseDate(date.utf8) else {
                warn("bad-optional-date")
                return .unknown
            }
            var seconds = 0
            if let time {
                guard let t = CivilTime.parseTime(time.utf8) else {
                    warn("bad-optional-date")
                    return .unknown
                }
                seconds = t
            }
            return TypedDate(kind: .date, at: Int64(day) * 86_400 + Int64(seconds))
        case "":
            return .unknown
        default:
            warn("bad-optional-date")
            return .unknown
        }
    }
}
