import Foundation

extension FeedGenerator {
    /// Events: headliners follow a power law over popularity (most artists have none), dates
    /// from a month before asOf to a year after, evening local times written in UTC.
    func makeEvents(
        _ rng: inout SplitMix64, artists: [GeneratedFeed.Artist], popularity: [Int], venues: [GeneratedFeed.Venue]
    ) -> [GeneratedFeed.Event] {
        var ids = Set<UInt64>()
        var events: [GeneratedFeed.Event] = []
        events.reserveCapacity(scale.events)
        let tiny = scale.name == "tiny"
        // Headliners are drawn from the most popular ~12 % of artists, skewed.
        let pool = max(1, min(artists.count, tiny ? artists.count : artists.count / 8))
        // Realistic: touring follows popularity, a flattened Zipf over every artist (the top
        // artist ~0.25 % of all dates, the top 100 ~13 %, most artists none).
        let headliners = realistic ? WeightedSampler.zipf(artists.count, exponent: 1, offset: 50) : nil
        for n in 0..<scale.events {
            var id: UInt64
            repeat { id = rng.next() } while !ids.insert(id).inserted
            let head = artists[popularity[tiny ? n % artists.count : headliners?.draw(&rng) ?? rng.skewed(pool, k: 2)]]
            var performers = [head.id]
            for _ in 0..<(rng.chance(0.3) ? rng.int(1...2) : 0) {
                let other = artists[popularity[rng.skewed(artists.count, k: 2)]].id
                if !performers.contains(other) { performers.append(other) }
            }
            // Realistic: any venue (venues already cluster where people live).
            let venueIndex = tiny ? n % venues.count : realistic ? rng.int(0..<venues.count) : rng.skewed(venues.count, k: 1.5)
            let venue = venues[venueIndex]
            // Local evening start on a day from asOf-30 to asOf+365 (tiny: the next 70 days).
            let asOfDay = Int(asOf / 86_400)
            let day = tiny ? asOfDay + [0, 0, 1, 2, 3, 5, 9, 14, 20, 33, 59, 70][n % 12] : asOfDay + rng.int(-30...365)
            let localSeconds = (19 * 3600) + rng.int(0...5) * 1800
            let localInstant = Int64(day) * 86_400 + Int64(localSeconds)
            // Evening local time by the system's time zone database (as the geocode stage reads it).
            let startsAt = (zones[venue.timeZone ?? "America/New_York"] ?? zones["America/New_York"])?.utc(local: localInstant)
                ?? localInstant + 5 * 3600
            let tba = !tiny && rng.chance(0.03)
            var e = GeneratedFeed.Event(
                id: id, name: eventName(&rng, head.name), artists: performers, category: head.category,
                venue: venueIndex, startsAt: tba ? Int64(day) * 86_400 : startsAt, timeTBA: tba,
                status: rng.chance(0.9) ? (rng.chance(0.8) ? 3 : 2) : nil, onsale: (0, 0), presale: (0, 0),
                price: nil, promoter: rng.chance(0.8) ? rng.int(1...999) : nil, stars: nil, reviews: nil)
            let onsaleRoll = rng.unit()
            if onsaleRoll < 0.6 {
                e.onsale = (2, 0)
            } else if onsaleRoll < 0.85 {
                e.onsale = (1, startsAt - Int64(rng.int(1...90)) * 86_400 + Int64(rng.int(0...23)) * 3600)
            }
            if rng.chance(0.3) { e.presale = (1, startsAt - Int64(rng.int(30...120)) * 86_400 + 15 * 3600) }
            if rng.chance(0.6) {
                let lo = Double(rng.int(10...150)) + (rng.chance(0.5) ? 0.5 : 0)
                e.price = rng.chance(0.7) ? Self.price(lo) + " - " + Self.price(lo + Double(rng.int(0...60)) + 0.5) : Self.price(lo)
            }
            if rng.chance(0.3) {
                e.stars = String(Double(rng.int(20...50)) / 10)
                e.reviews = rng.skewed(5_000, k: 2)
            }
            events.append(e)
        }
        return events
    }

    static func price(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }

    private func eventName(_ rng: inout SplitMix64, _ artist: String) -> String {
        switch rng.int(0..<6) {
        case 0: return "\(artist): Live in Concert"
        case 1: return "\(artist) – \(rng.pick(NameFactory.adjectives)) \(rng.pick(NameFactory.nouns)) Tour"
        case 2: return "An Evening with \(artist)"
        default: return artist
        }
    }
}
