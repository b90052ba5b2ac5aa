import ArgumentParser
import Foundation
import TonightCore
import TonightFeed
import TonightGeo
import TonightPipeline

/// Geocoding all venues of the full feed (goal: under 0.2 s), and the table load apart.
struct GeocodeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode", abstract: "Time the bundled-table load and the geocoding of every venue (medians).")

    @Option(help: "Data directory with feed.xml.") var data: String = "bench-data/full"
    @Option(help: "Rounds.") var runs: Int = 7

    func run() throws {
        let feed = try FeedParser.parse(URL(fileURLWithPath: data).appendingPathComponent("feed.xml"))
        guard let url = GeoTable.bundledURL else { throw ValidationError("the bundled geocoding table is missing") }
        var load: [Double] = []
        var place: [Double] = []
        var counts: [String: Int] = [:]
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let geocoder = Geocoder(table: try GeoTable.load(url))
            let t1 = DispatchTime.now().uptimeNanoseconds
            counts = [:]
            for v in feed.venues {
                counts[geocoder.place(country: v.country, city: v.city, state: v.state, zip: v.zip).precision.rawValue, default: 0] += 1
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            load.append(Double(t1 - t0) / 1e9)
            place.append(Double(t2 - t1) / 1e9)
        }
        print("geocode benchmark: \(feed.venues.count) venues, \(runs) rounds, medians")
        print(String(format: "table load + index build      %.3f s", median(load)))
        print(String(format: "geocoding every venue         %.3f s  (%.0f venues/s)", median(place), Double(feed.venues.count) / median(place)))
        print(String(format: "total                         %.3f s  (goal < 0.2 s)", median(load) + median(place)))
        print("precision: " + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}
