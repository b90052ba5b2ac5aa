import Foundation
import TonightBase
import TonightCore
import TonightFeed
import TonightGeo
import TonightRanking

/// `geocode`: every venue placed from the bundled table; events get venue-local starts.
package struct GeocodeStage: Stage {
    package init() {}

    package let name = "geocode"
    package let summary = "place venues from the bundled geocoding table; local start times of events"
    package let inputs: [StageInput] = [.stage("parse-feed"), .timeZoneDatabase]
    package let configKeys: [any AnyConfigKey] = []
    package let bundledData: [BuildIdentity.Resource] = [.geotable]
    /// Includes the geocoding table: a rebuilt table changes the code version.
    package let tables = ["venues", "events"]

    package func run(_ context: StageContext) throws -> StageOutcome {
        let venues = try context.read(.feedVenues)
        let events = try context.read(.feedEvents)
        let geocoder = Geocoder()
        var placed: [GeocodedVenue] = []
        placed.reserveCapacity(venues.count)
        var counts: [String: Int] = [:]
        var unresolved: [String] = []
        var byID: [Int64: Placement] = [:]
        for v in venues {
            let p = geocoder.place(country: v.country, city: v.city, state: v.state, zip: v.zip)
            placed.append(GeocodedVenue(venue: v, placement: p))
            counts[p.precision.rawValue, default: 0] += 1
            byID[v.id] = p
            if p.precision == .none {
                // One line each, read by people (the file, the run record, the report): the
                // feed's text with its control characters escaped, each field cut at 80
                // characters (a 20 KB state made a 20 KB line).
                let place = [v.city, v.state, v.zip].compactMap { $0 }.map { TonightError.quoted($0) }.joined(separator: ", ")
                unresolved.append("\(v.id) \(TonightError.quoted(v.name)) (\(place))")
            }
        }
        guard let zones = context.timeZones else { throw TonightError(.internal, "geocode runs without the time zone database") }
        var located: [LocatedEvent] = []
        located.reserveCapacity(events.count)
        context.progress.measure(.events, total: Int64(events.count))
        for e in events {
            let place = byID[e.venue]
            let tz = place?.timeZone
            let local = try tz.map { try zones.rules($0).local(e.startsAt) }
            located.append(LocatedEvent(event: e, localStart: e.timeTBA ? nil : local, timeZone: tz, lat: place?.lat, lon: place?.lon))
        }
        let out = context.outputDirectory
        try context.write(placed, to: .placedVenues)
        try context.write(located, to: .locatedEvents)
        try FileIO.write(unresolved.map { $0 + "\n" }.joined(), to: out.appendingPathComponent("unresolved-venues.txt"))
        var outcome = StageOutcome()
        outcome.rows = ["venues": placed.count, "events": located.count]
        for (k, v) in counts { outcome.details["precision.\(k)"] = String(v) }
        outcome.details["tzdata"] = zones.version
        outcome.details["tzdataDirectory"] = zones.directory.path
        if !unresolved.isEmpty {
            outcome.warnings["unresolved-venue"] = unresolved.count
            outcome.details["unresolvedVenues"] = unresolved.prefix(20).joined(separator: "; ")
        }
        return outcome
    }

    package func dump(table: String, from dir: URL, to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        switch table {
        case "venues": try dump(.placedVenues, from: dir, to: sink)
        case "events": try dump(.locatedEvents, from: dir, to: sink)
        default: throw unknownTable(table)
        }
    }
}
