import Foundation
import TonightGeo

/// Builds the generated feed's records (datasets.md "What makes the generated data realistic").
struct FeedGenerator {
    let scale: GeneratorScale
    let asOf: Int64
    var rng: SplitMix64
    let geo: GeoTable
    /// The rules of every zone the table names.
    let zones: [String: ZoneRules]
    var shape: GeneratorShape = .realistic

    /// Realistic shape: non-tiny scales only (tiny keeps its hand-checked shapes).
    var realistic: Bool { shape == .realistic && scale.name != "tiny" }

    func generate() -> GeneratedFeed {
        var rng = self.rng
        let categories = RealCategories.all
        let leafCategories = categories.filter { $0.parent != nil }.map(\.id)
        let venues = makeVenues(&rng)
        let cities = venues.compactMap(\.city)
        // Artists: unique names but for a few planted duplicates (ambiguous affinity sources).
        var names = Set<String>()
        var artists: [GeneratedFeed.Artist] = []
        artists.reserveCapacity(scale.artists)
        var nextID: Int64 = 1049
        for i in 0..<scale.artists {
            var name = NameFactory.artist(&rng, city: cities.isEmpty ? "Springfield" : rng.pick(cities))
            var tries = 0
            let base = name
            while names.contains(name) {
                tries += 1
                name = tries < 4
                    ? NameFactory.artist(&rng, city: cities.isEmpty ? "Springfield" : rng.pick(cities))
                    : "\(base) \(["II", "III", "IV", "Revival", "Tribute", "Experience"][tries % 6])\(tries > 9 ? " \(tries / 6)" : "")"
            }
            // Every 5,000th artist repeats an earlier name on purpose (the real feed has homonyms).
            if i > 0 && i % 5_000 == 0 { name = artists[i / 2].name } else { names.insert(name) }
            nextID += Int64(rng.int(1...9))
            artists.append(.init(id: nextID, name: name, category: rng.chance(0.9) ? rng.pick(leafCategories) : nil,
                                 hasImage: rng.chance(0.85)))
        }
        // Popularity ranks: a fixed shuffle of the artists.
        var popularity = Array(0..<artists.count)
        for i in stride(from: popularity.count - 1, to: 0, by: -1) { popularity.swapAt(i, rng.int(0...i)) }
        let events = makeEvents(&rng, artists: artists, popularity: popularity, venues: venues)
        return GeneratedFeed(categories: categories, artists: artists, venues: venues, events: events, popularity: popularity)
    }

    // MARK: venues

    private func makeVenues(_ rng: inout SplitMix64) -> [GeneratedFeed.Venue] {
        let usPlaces = geo.places.filter { $0.country == "US" }.sorted { ($0.population, $0.name) > ($1.population, $1.name) }
        let caPlaces = geo.places.filter { $0.country == "CA" }.sorted { ($0.population, $0.name) > ($1.population, $1.name) }
        var zipCells: [Int: [Int]] = [:]
        for (i, z) in geo.zips.enumerated() { zipCells[Self.cell(z.lat, z.lon), default: []].append(i) }
        func nearestZIP(_ p: GeoTable.Place) -> GeoTable.ZIP? {
            var best: (Double, Int)?
            let base = Self.cell(p.lat, p.lon)
            for dy in -1...1 {
                for dx in -1...1 {
                    for i in zipCells[base + dy * 1000 + dx] ?? [] where geo.zips[i].region == p.region {
                        let z = geo.zips[i]
                        let d = (z.lat - p.lat) * (z.lat - p.lat) + (z.lon - p.lon) * (z.lon - p.lon)
                        if best == nil || d < best!.0 { best = (d, i) }
                    }
                }
            }
            return best.map { geo.zips[$0.1] }
        }
        // Realistic: a venue's place drawn in proportion to its population (metros hold most).
        let usByPopulation = WeightedSampler(weights: usPlaces.map { Double($0.population) })
        let caByPopulation = WeightedSampler(weights: caPlaces.map { Double($0.population) })
        var venues: [GeneratedFeed.Venue] = []
        var id: Int64 = 32
        let tinyPicks: [(String, String)] = [("New York City", "NY"), ("Chicago", "IL"), ("Toronto", "ON")]
        while venues.count < scale.venues {
            id += Int64(rng.int(1...40))
            let canadian: Bool
            let place: GeoTable.Place
            if scale.name == "tiny" {
                let pick = tinyPicks[venues.count % tinyPicks.count]
                place = geo.places.filter { $0.name == pick.0 && $0.region == pick.1 }.max { $0.population < $1.population }!
                canadian = place.country == "CA"
            } else {
                canadian = rng.chance(0.236)
                if realistic {
                    place = canadian ? caPlaces[caByPopulation.draw(&rng)] : usPlaces[usByPopulation.draw(&rng)]
                } else {
                    place = canadian ? caPlaces[rng.skewed(caPlaces.count, k: 2.5)] : usPlaces[rng.skewed(usPlaces.count, k: 2.5)]
                }
            }
            var v = GeneratedFeed.Venue(
                id: id, name: NameFactory.venue(&rng, city: place.name),
                street: "\(rng.int(1...9999)) \(rng.pick(NameFactory.streets))",
                city: place.name == "New York City" ? "New York" : place.name, state: place.region,
                zip: nil, timeZone: place.timeZone, lat: place.lat, lon: place.lon, country: place.country)
            if canadian {
                v.zip = Self.canadianPostalCode(&rng, province: place.region)
            } else if let z = nearestZIP(place) {
                v.zip = z.zip
                v.lat = z.lat
                v.lon = z.lon
                v.timeZone = z.timeZone
                if scale.name != "tiny" {
                    if rng.chance(0.03) { v.zip = z.zip + "-" + String(format: "%04d", rng.int(0...9999)) }
                    else if rng.chance(0.01) { v.zip = z.zip + String(format: "%04d", rng.int(0...9999)) }
                }
            } else {
                continue
            }
            if scale.name != "tiny" {
                if rng.chance(0.005) { v.street = nil }
                if rng.chance(0.0001) { v.zip = nil }
            }
            venues.append(v)
        }
        // Planted venues that resolve nowhere (no known city, ZIP or state).
        for k in 0..<min(scale.unresolvableVenues, venues.count) {
            let i = (k * 997 + 13) % venues.count
            venues[i].city = "Nowhere Flats \(k + 1)"
            venues[i].state = nil
            venues[i].zip = "00000"
            venues[i].timeZone = nil
        }
        return venues
    }

    static func cell(_ lat: Double, _ lon: Double) -> Int {
        Int((lat * 2).rounded(.down)) * 1000 + Int((lon * 2).rounded(.down))
    }

    static let provinceLetters: [String: String] = [
        "NL": "A", "NS": "B", "PE": "C", "NB": "E", "QC": "GHJ", "ON": "KLMNP", "MB": "R", "SK": "S", "AB": "T",
        "BC": "V", "NT": "X", "NU": "X", "YT": "Y",
    ]

    static func canadianPostalCode(_ rng: inout SplitMix64, province: String) -> String {
        let letters = Array("ABCEGHJKLMNPRSTVWXYZ")
        let first = Array(provinceLetters[province] ?? "K")
        let code = "\(rng.pick(first))\(rng.int(0...9))\(rng.pick(letters))"
        let tail = "\(rng.int(0...9))\(rng.pick(letters))\(rng.int(0...9))"
        return rng.chance(0.5) ? code + " " + tail : code + tail
    }
}
