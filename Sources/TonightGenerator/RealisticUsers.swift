import Foundation
import TonightGeo

/// Where realistic users live, how far they will go and how many artists they favour
/// (Docs/DATASETS.md): homes drawn in proportion to place population (US and Canadian
/// GeoNames places of the bundled table), a home ZIP among the place's nearest ZIPs, a mix of
/// radii, a heavy-tailed number of favourites drawn Zipf-like over artist popularity.
struct RealisticUsers {
    let geo: GeoTable
    private let usPlaces: [Int]
    private let caPlaces: [Int]
    private let usByPopulation: WeightedSampler
    private let caByPopulation: WeightedSampler
    /// Favourites over popularity ranks: the top artist ~1 % of all favourites, the top 100
    /// ~23 %, the top 1,000 ~46 %.
    let favorites: WeightedSampler
    private var zipCells: [Int: [Int]] = [:]
    private var nearestZIPs: [Int: [Int]] = [:]

    static let radii = [5, 10, 25, 50, 100, 200]
    static let radiusWeights = WeightedSampler(weights: [4, 12, 24, 26, 22, 12])

    init(geo: GeoTable, artists: Int) {
        self.geo = geo
        usPlaces = geo.places.indices.filter { geo.places[$0].country == "US" && geo.places[$0].population > 0 }
        caPlaces = geo.places.indices.filter { geo.places[$0].country == "CA" && geo.places[$0].population > 0 }
        usByPopulation = WeightedSampler(weights: usPlaces.map { Double(geo.places[$0].population) })
        caByPopulation = WeightedSampler(weights: caPlaces.map { Double(geo.places[$0].population) })
        favorites = WeightedSampler.zipf(artists, exponent: 1, offset: 10)
        for (i, z) in geo.zips.enumerated() { zipCells[Self.cell(z.lat, z.lon), default: []].append(i) }
    }

    static func cell(_ lat: Double, _ lon: Double) -> Int {
        Int((lat * 2).rounded(.down)) * 1000 + Int((lon * 2).rounded(.down))
    }

    /// A home: the index of a US place (85 %) or a Canadian one, by population.
    func place(_ rng: inout SplitMix64) -> Int {
        rng.chance(0.85) ? usPlaces[usByPopulation.draw(&rng)] : caPlaces[caByPopulation.draw(&rng)]
    }

    /// One of the (up to) 12 ZIPs nearest place `index` (its neighbourhoods), nil when none is near.
    mutating func zip(near index: Int, _ rng: inout SplitMix64) -> GeoTable.ZIP? {
        let place = geo.places[index]
        var near = nearestZIPs[index]
        if near == nil {
            var found: [(Double, Int)] = []
            let base = Self.cell(place.lat, place.lon)
            for dy in -1...1 {
                for dx in -1...1 {
                    for i in zipCells[base + dy * 1000 + dx] ?? [] {
                        let z = geo.zips[i]
                        found.append(((z.lat - place.lat) * (z.lat - place.lat) + (z.lon - place.lon) * (z.lon - place.lon), i))
                    }
                }
            }
            near = found.sorted { $0 < $1 }.prefix(12).map(\.1)
            nearestZIPs[index] = near
        }
        guard let near, !near.isEmpty else { return nil }
        return geo.zips[near[rng.int(0..<near.count)]]
    }

    /// A heavy-tailed count of favourites: none for 8 %, else log-normal (median 5, mean
    /// ~8.5, p99 ~55), at most 500: 7.9 M favourites for 1 M users.
    static func favoriteCount(_ rng: inout SplitMix64) -> Int {
        if rng.chance(0.08) { return 0 }
        // Box–Muller: one standard normal from two uniforms.
        let u1 = max(rng.unit(), 1e-300), u2 = rng.unit()
        let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        return min(500, max(1, Int(exp(1.7 + z))))
    }
}

/// What a realistic user's follows and dismissals are drawn from.
struct RealisticTaste {
    /// The user's location (nil without one).
    var home: (lat: Double, lon: Double)?
    /// `radius_km`, or `recommendations.radiusKm`'s default.
    var radiusKm = 80.0
    /// Favourite artist ids, in the order drawn.
    var favorites: [Int64] = []
}
