import Foundation
import Testing
import TonightCore
import TonightTesting
@testable import TonightGeo

/// The bundled table's loader (fields read where they lie in the bytes) and the ASCII path of
/// the place-name normalisation, each against a slow reference.
@Suite struct GeoTableTests {
    /// The table as the first loader read it: every line split into `String` fields.
    struct Reference {
        var zones: [String] = []
        var places: [[String]] = []
        var zips: [[String]] = []
        var regions: [[String]] = []
        var provenance: [String] = []

        init(_ bytes: [UInt8]) {
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let f = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                switch f[0] {
                case "T": zones.append(f[1])
                case "P": places.append(f)
                case "Z": zips.append(f)
                case "R": regions.append(f)
                default: provenance.append(f.joined(separator: " "))
                }
            }
        }
    }

    @Test func theBundledTableReadsAsWhenEveryLineWasSplit() throws {
        let url = try #require(GeoTable.bundledURL)
        let table = try GeoTable.load(url)
        let ref = Reference(try GeoTable.text(url))
        #expect(table.places.count == ref.places.count && table.places.count > 25_000)
        #expect(table.zips.count == ref.zips.count && table.zips.count > 33_000)
        #expect(table.regions.count == ref.regions.count)
        #expect(table.provenance == ref.provenance)
        var wrong = 0
        for (p, f) in zip(table.places, ref.places) {
            let alternates = f[8].split(separator: "|").map(String.init)
            if p.country != f[1] || p.region != f[2] || p.name != f[3] || p.lat != Double(f[4]) || p.lon != Double(f[5])
                || p.population != Int(f[6]) || p.timeZone != ref.zones[Int(f[7])!] || p.alternateNames != alternates {
                wrong += 1
            }
        }
        for (z, f) in zip(table.zips, ref.zips) {
            if z.zip != f[1] || z.lat != Double(f[2]) || z.lon != Double(f[3]) || z.region != f[4] || z.timeZone != ref.zones[Int(f[5])!] {
                wrong += 1
            }
        }
        for (r, f) in zip(table.regions, ref.regions) {
            if r.country != f[1] || r.region != f[2] || r.lat != Double(f[3]) || r.lon != Double(f[4]) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(table.places.contains { $0.alternateNames.count > 1 })
    }

    /// A damaged table is an error naming its file and true line (empty lines counted), never
    /// a crash: the first loader indexed a missing field or a negative zone and trapped.
    @Test(arguments: [
        ("T\n", 1),
        ("T\tAmerica/New_York\n\nZ\t10001\t40.7\t-73.9\tNY\t-1\n", 3),
        ("T\tAmerica/New_York\nZ\t10001\t40.7\t-73.9\tNY\t1\n", 2),
        ("T\tAmerica/New_York\nP\tUS\tNY\tX\tnorth\t-73.9\t10\t0\t\n", 2),
        ("T\tAmerica/New_York\nR\tUS\tNY\t40.7\n", 2),
        ("# source\tx\nQ\tUS\n", 2),
        ("T\tAmerica/New_York\nTZ\tx\n", 2),
    ])
    func damagedTablesNameTheirLine(_ text: String, _ line: Int) throws {
        let file = temporaryDirectory("geotable").appendingPathComponent("table.tsv")
        try Data(text.utf8).write(to: file)
        do {
            _ = try GeoTable.load(file)
            Issue.record("loaded a damaged table")
        } catch let error as TonightError {
            #expect(error.line == line, "\(error)")
            #expect(error.file == file.path)
        }
    }

    /// The zone names the fingerprint reads without loading the table: those the loader and
    /// the reference read, in order; on the bundled table and on a file whose `T` lines are
    /// not first, with empty lines, a bare `T`, a `Tx` line, a third field and no final line break.
    @Test func zoneNamesAreTheTablesZones() throws {
        let url = try #require(GeoTable.bundledURL)
        let bundled = try GeoTable.zoneNames(url)
        #expect(bundled == Reference(try GeoTable.text(url)).zones && bundled.count > 40)
        #expect(bundled.contains("America/Vancouver"))
        let file = temporaryDirectory("geotable").appendingPathComponent("table.tsv")
        try Data("# source\tx\n\nZ\t60614\t41.92\t-87.65\tIL\t0\nT\tAmerica/Chicago\n\n\nT\nP\tUS\nTx\tEurope/Oslo\nT\tAsia/Tokyo\tx".utf8).write(to: file)
        #expect(try GeoTable.zoneNames(file) == ["America/Chicago", "", "Asia/Tokyo"])
    }

    @Test func aWellFormedTableWithEmptyLinesLoads() throws {
        let file = temporaryDirectory("geotable").appendingPathComponent("table.tsv")
        let text = "# source\tGeoNames\n\nT\tAmerica/Chicago\nP\tUS\tIL\tChicago\t41.85\t-87.65\t2700000\t0\tChi-Town||Windy City\n"
            + "Z\t60614\t41.92\t-87.65\tIL\t0\nR\tUS\tIL\t40.0\t-89.0\n"
        try Data(text.utf8).write(to: file)
        let table = try GeoTable.load(file)
        #expect(table.provenance == ["# source GeoNames"])
        #expect(table.places.count == 1 && table.places[0].alternateNames == ["Chi-Town", "Windy City"])
        #expect(table.places[0].timeZone == "America/Chicago" && table.places[0].population == 2_700_000)
        #expect(table.zips.count == 1 && table.zips[0].zip == "60614" && table.zips[0].timeZone == "America/Chicago")
        #expect(table.regions.count == 1 && table.regions[0].lat == 40.0)
        let geocoder = Geocoder(table: table)
        #expect(geocoder.place(country: "US", city: "windy city", state: "il", zip: nil).precision == .city)
        #expect(geocoder.place(country: "US", city: "Springfield", state: "IL", zip: nil).timeZone == "America/Chicago")
    }

    /// The general path of `PlaceName.normalize` (full case folding, NFKD without nonspacing
    /// marks, Unicode word characters, abbreviations), the reference of the ASCII path.
    static func slowNormalize(_ name: String) -> String { PlaceName.words(PlaceName.generalFold(name)) }

    /// Random ASCII names built from pieces that matter (the four abbreviations in any case,
    /// words that only start like them, separators, digits, every ASCII byte).
    @Test func asciiNamesNormaliseAsTheGeneralPath() {
        let pieces = ["st", "St", "ST", "ste", "Ste", "STE", "stE", "ft", "Ft", "mt", "MT", "sts", "s", "t", "fort", "e",
                      "Louis", "Paul", "o", "9", "29", ".", ". ", " ", "  ", "-", "'", "\t", ",", "(", ")", "/", "_", "Ä"]
        var rng = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for n in 0..<4_000 {
            var name = ""
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                if n % 4 == 0 {
                    name.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &rng)))
                } else {
                    name += pieces[Int.random(in: 0..<(pieces.count - 1), using: &rng)]
                }
            }
            let fast = PlaceName.asciiNormalize(name)
            if fast != Self.slowNormalize(name) { mismatches.append(name) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(PlaceName.asciiNormalize("Ä" + "Louis") == nil)
        #expect(PlaceName.normalize("Ste. Genevieve") == "sainte genevieve")
        #expect(PlaceName.key(city: "new  York", region: "ny") == "NY|new york city")
    }
}
