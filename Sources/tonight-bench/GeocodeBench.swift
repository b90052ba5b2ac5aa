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
    @OptionGroup var output: BenchOutput

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
        var table = BenchTable("Geocoding the \(feed.venues.count) venues of \(data), \(runs) rounds in one process",
                               columns: ["phase", "median s", "min s", "max s"])
        table.row(["table load + index build", sec(median(load)), sec(load.min() ?? 0), sec(load.max() ?? 0)])
        table.row(["geocoding every venue", sec(median(place)), sec(place.min() ?? 0), sec(place.max() ?? 0)])
        table.goal(Goal(name: "load + geocoding", value: median(load) + median(place), goal: 0.2, direction: .atMost, unit: " s", decimals: 3))
        table.note(String(format: "%.0f venues/s; precision: ", Double(feed.venues.count) / median(place))
                   + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        try output.emit(benchmark: "geocode", tables: [table])
    }
}
