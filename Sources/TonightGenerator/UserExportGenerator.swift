import TonightBase
import TonightCore
import TonightGeo

/// The apps' CSV exports (user-data.md): Tickets Tonight users, favourites, follows,
/// dismissals; Playmate players, quiz, sessions, session players, friends.
struct UserExportGenerator {
    let scale: GeneratorScale
    let feed: GeneratedFeed
    let asOf: Int64
    let geo: GeoTable
    var rng: SplitMix64
    var shape: GeneratorShape = .realistic

    static let sports = [
        "Basketball", "Soccer", "Tennis", "Volleyball", "Pickleball", "Running", "Cycling", "Badminton",
        "Table Tennis", "Ultimate Frisbee", "Softball", "Hiking",
    ]
    static let genders = ["Female", "Male", "Non-binary"]
    static let ageGroups = ["Under 12", "12-17", "18-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75+"]
    private static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A Parse-style 10-character object id, unique by construction (index in the tail).
    mutating func objectID(_ i: Int, salt: Int) -> String {
        var chars: [Character] = []
        for _ in 0..<4 { chars.append(rng.pick(Self.idAlphabet)) }
        // i -> i * 1,000,003 mod 62^6 is a bijection (the multiplier is prime to 2 and 31).
        var v = (i &* 1_000_003 &+ salt) % 56_800_235_584
        for _ in 0..<6 {
            chars.append(Self.idAlphabet[v % 62])
            v /= 62
        }
        return String(chars)
    }

    /// Files by relative path, and the faults planted in the faulty copies.
    mutating func render(faults: Bool, prefix: String) -> ([String: ByteBuffer], [PlantedFault]) {
        var files: [String: ByteBuffer] = [:]
        var planted: [PlantedFault] = []
        tickets(&files, &planted, faults: faults, prefix: prefix)
        playmate(&files, &planted, faults: faults, prefix: prefix)
        return (files, planted)
    }

    private func coordinate(_ v: Double) -> String { String(format: "%.6f", v) }

    private mutating func tickets(_ files: inout [String: ByteBuffer], _ planted: inout [PlantedFault], faults: Bool, prefix: String) {
        let n = scale.users
        var users = ByteBuffer(capacity: n * 48)
        var favorites = ByteBuffer(capacity: n * 8 * 22)
        var follows = ByteBuffer(capacity: n * 20)
        var dismissed = ByteBuffer(capacity: n * 12)
        users.add("user_id,home_zip,lat,lon,radius_km,max_price\n")
        favorites.add("user_id,artist_id\n")
        follows.add("user_id,event_id\n")
        dismissed.add("user_id,event_id\n")
        var lines = (users: 2, favorites: 2, follows: 2, dismissed: 2)
        let upcoming = feed.events.indices.filter { feed.events[$0].startsAt >= asOf }
        let artistCount = feed.artists.count
        let favPool = max(1, min(artistCount, scale.name == "tiny" ? artistCount : artistCount / 8))
        var realistic = shape == .realistic && scale.name != "tiny" ? RealisticUsers(geo: geo, artists: artistCount) : nil
        // Realistic shape: each artist's upcoming dates (event indexes), what a user's follows
        // and dismissals are mostly drawn from. Those choices take a stream of their own
        // (`side`) and the main stream draws what it always drew, so the users, favourites and
        // numbers of follows and dismissals are what they were before the choices existed.
        var datesOf: [Int64: [Int]] = [:]
        if realistic != nil { for e in upcoming { for a in feed.events[e].artists { datesOf[a, default: []].append(e) } } }
        var side = rng.fork(0x7A57E)
        for i in 0..<n {
            let id = objectID(i, salt: 1)
            users.add(id)
            var taste: RealisticTaste?
            if realistic != nil {
                taste = realisticUser(id, &realistic!, &users, &favorites, &lines)
            } else {
                uniformUser(i, id, favPool, &users, &favorites, &lines)
            }
            if scale.name == "tiny" ? i % 3 == 0 : rng.chance(0.3), !upcoming.isEmpty {
                for _ in 0..<rng.int(1...4) {
                    follows.add(id)
                    follows.add(",")
                    if rng.chance(0.02) {
                        follows.add(EventID.format(rng.next()))
                    } else {
                        let random = rng.pick(upcoming)
                        let e = taste.flatMap { followed($0, datesOf, &side) } ?? random
                        follows.add(EventID.format(feed.events[e].id))
                    }
                    follows.add("\n")
                    lines.follows += 1
                }
            }
            if scale.name == "tiny" ? i % 4 == 1 : rng.chance(0.2), !upcoming.isEmpty {
                var inReach: [Int]?  // the user's favourites' dates in reach, found once
                for _ in 0..<rng.int(1...3) {
                    dismissed.add(id)
                    dismissed.add(",")
                    let random = rng.pick(upcoming)
                    let e = taste.flatMap { swipedAway($0, &inReach, datesOf, &side) } ?? random
                    dismissed.add(EventID.format(feed.events[e].id))
                    dismissed.add("\n")
                    lines.dismissed += 1
                }
            }
            if faults && i == n / 2 {
                users.add("\(id)x,10001,abc,,,\n")
                planted.append(PlantedFault(file: prefix + "tickets/users.csv", line: lines.users, reason: "bad-number"))
                lines.users += 1
                favorites.add(",\(feed.artists[0].id)\n")
                planted.append(PlantedFault(file: prefix + "tickets/favorites.csv", line: lines.favorites, reason: "missing-field"))
                lines.favorites += 1
            }
        }
        files["tickets/users.csv"] = users
        files["tickets/favorites.csv"] = favorites
        files["tickets/follows.csv"] = follows
        files["tickets/dismissed.csv"] = dismissed
    }
}

extension UserExportGenerator {
    /// The first generator's user (`--shape uniform`, and `tiny` with its fixed shapes): placed
    /// around a venue, favourites spread over the popular eighth of artists.
    mutating func uniformUser(_ i: Int, _ id: String, _ favPool: Int, _ users: inout ByteBuffer, _ favorites: inout ByteBuffer,
                              _ lines: inout (users: Int, favorites: Int, follows: Int, dismissed: Int)) {
        let venues = feed.venues
        // tiny: fixed shapes so every case of recommendations.md is covered by hand.
        let tiny = scale.name == "tiny"
            let roll = tiny ? [0.5, 0.1, 0.25, 0.5, 0.5, 0.1, 0.5, 0.5][i % 8] : rng.unit()
            let venue = tiny ? venues[i % venues.count] : venues[rng.skewed(venues.count, k: 1.5)]
            if roll < 0.2 {
                users.add(",,,,")  // no location: empty home_zip, lat, lon
            } else if roll < 0.3 {
                users.add(",,")
                users.add(coordinate(venue.lat + (rng.unit() - 0.5) * 0.4))
                users.add(",")
                users.add(coordinate(venue.lon + (rng.unit() - 0.5) * 0.4))
                users.add(",")
            } else {
                users.add(",")
                users.add(venue.country == "US" ? String((venue.zip ?? "10001").prefix(5)) : "10001")
                users.add(",,,")
            }
            if tiny ? i == 4 : rng.chance(0.2) { users.add(String([10, 25, 50, 150][rng.int(0..<4)])) }
            users.add(",")
            if tiny ? i == 6 : rng.chance(0.25) { users.add(String(rng.int(20...200))) }
            users.add("\n")
            lines.users += 1
            // Favourites: 0–30, mean ~8, skewed to popular artists.
            let count = tiny ? [3, 2, 4, 0, 3, 1, 2, 5][i % 8]
                : rng.chance(0.08) ? 0 : min(30, 1 + rng.skewed(31, k: 3) + rng.int(0...2))
            var chosen = Set<Int>()
            for _ in 0..<count {
                let a = feed.popularity[rng.skewed(favPool, k: 1.8)]
                guard chosen.insert(a).inserted else { continue }
                addFavorite(id, a, &favorites, &lines)
            }
    }

    /// One `favorites.csv` row.
    func addFavorite(_ id: String, _ artist: Int, _ favorites: inout ByteBuffer,
                     _ lines: inout (users: Int, favorites: Int, follows: Int, dismissed: Int)) {
        favorites.add(id)
        favorites.add(",")
        favorites.add(feed.artists[artist].id)
        favorites.add("\n")
        lines.favorites += 1
    }

    /// A realistic user (Docs/DATASETS.md): home by population, a mix of radii, a heavy-tailed
    /// number of favourites drawn Zipf-like over artist popularity.
    mutating func realisticUser(_ id: String, _ world: inout RealisticUsers, _ users: inout ByteBuffer, _ favorites: inout ByteBuffer,
                                _ lines: inout (users: Int, favorites: Int, follows: Int, dismissed: Int)) -> RealisticTaste {
        var taste = RealisticTaste()
        let roll = rng.unit()
        let home = world.place(&rng)
        let place = geo.places[home]
        if roll < 0.15 {
            users.add(",,,,")  // no location
        } else if roll < 0.85, place.country == "US", let z = world.zip(near: home, &rng) {
            users.add(",")
            users.add(z.zip)
            users.add(",,,")
            taste.home = (z.lat, z.lon)
        } else {
            // Coordinates within ~10 km of the place.
            let lat = coordinate(place.lat + (rng.unit() - 0.5) * 0.18), lon = coordinate(place.lon + (rng.unit() - 0.5) * 0.24)
            users.add(",,")
            users.add(lat)
            users.add(",")
            users.add(lon)
            users.add(",")
            taste.home = (Double(lat)!, Double(lon)!)
        }
        if rng.chance(0.65) {
            let radius = RealisticUsers.radii[RealisticUsers.radiusWeights.draw(&rng)]
            users.add(String(radius))
            taste.radiusKm = Double(radius)
        }
        users.add(",")
        if rng.chance(0.25) { users.add(String(rng.int(20...300))) }
        users.add("\n")
        lines.users += 1
        let count = RealisticUsers.favoriteCount(&rng)
        var chosen = Set<Int>()
        var tries = 0
        while chosen.count < count && tries < count * 4 {
            tries += 1
            let a = feed.popularity[world.favorites.draw(&rng)]
            guard chosen.insert(a).inserted else { continue }
            addFavorite(id, a, &favorites, &lines)
            taste.favorites.append(feed.artists[a].id)
        }
        return taste
    }

    /// A followed event: three times in four a date of one of the user's favourites (fans
    /// follow their artists' shows, near or far); nil (a random upcoming event) otherwise.
    func followed(_ taste: RealisticTaste, _ datesOf: [Int64: [Int]], _ rng: inout SplitMix64) -> Int? {
        let touring = taste.favorites.filter { datesOf[$0] != nil }
        guard !touring.isEmpty, rng.chance(0.75) else { return nil }
        return rng.pick(datesOf[rng.pick(touring)]!)
    }

    /// A dismissed event (an explore card swiped away): three times in four a date of a
    /// favourite in the user's reach, as the deck shows them; nil (a random upcoming event)
    /// otherwise, or when no favourite plays in reach.
    /// `inReach` caches the user's favourites' dates in reach across their dismissals.
    func swipedAway(_ taste: RealisticTaste, _ inReach: inout [Int]?, _ datesOf: [Int64: [Int]], _ rng: inout SplitMix64) -> Int? {
        if inReach == nil {
            var near: [Int] = []
            for a in taste.favorites {
                for e in datesOf[a] ?? [] {
                    guard let home = taste.home else { near.append(e); continue }
                    let v = feed.venues[feed.events[e].venue]
                    if GeoDistance.km(home.lat, home.lon, v.lat, v.lon) <= taste.radiusKm { near.append(e) }
                }
            }
            inReach = near
        }
        guard let near = inReach, !near.isEmpty, rng.chance(0.75) else { return nil }
        return rng.pick(near)
    }
}
