/// Realistic names for generated artists and venues: plain ASCII mostly, with the
/// characters the real feed has (`&`, `–`, `’`, `É`, commas) at realistic rates.
struct NameFactory {
    static let adjectives = [
        "Black", "Silver", "Electric", "Midnight", "Golden", "Velvet", "Neon", "Crimson", "Wild", "Lonely",
        "Broken", "Burning", "Frozen", "Hollow", "Silent", "Savage", "Royal", "Cosmic", "Atomic", "Rusty",
        "Blue", "Scarlet", "Lucky", "Restless", "Shining", "Quiet", "Loud", "Little", "Big", "Young",
        "Ancient", "Modern", "Painted", "Secret", "Sonic", "Urban", "Western", "Northern", "Southern", "Eastern",
        "Iron", "Glass", "Paper", "Stone", "Wooden", "Crystal", "Magnetic", "Radiant", "Drifting", "Falling",
    ]
    static let nouns = [
        "Wolf", "Raven", "Tiger", "Rose", "River", "Mountain", "Engine", "Harbor", "Comet", "Lantern",
        "Machine", "Ghost", "Saint", "Sparrow", "Thunder", "Shadow", "Mirror", "Garden", "Canyon", "Desert",
        "Horizon", "Echo", "Signal", "Rocket", "Anchor", "Arrow", "Bridge", "Candle", "Diamond", "Falcon",
        "Flame", "Forest", "Heart", "Island", "Jewel", "Kingdom", "Legend", "Meadow", "Monarch", "Ocean",
        "Panther", "Pilot", "Prophet", "Rebel", "Riot", "Satellite", "Serpent", "Stranger", "Tide", "Voyager",
    ]
    static let firstNames = [
        "John", "Mary", "James", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
        "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
        "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret", "Donald", "Sandra",
        "Steven", "Ashley", "Paul", "Kimberly", "Andrew", "Emily", "Joshua", "Donna", "Kenneth", "Michelle",
        "Kevin", "Carol", "Brian", "Amanda", "George", "Melissa", "Timothy", "Deborah", "Ronald", "Stephanie",
        "Élise", "Chloé", "Zoë", "José", "Renée", "André", "Björn", "Noémie", "Andrés", "Léa",
    ]
    static let lastNames = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "O’Brien", "Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie", "Fortin",
    ]
    static let teams = ["Hawks", "Bears", "Lions", "Kings", "Rangers", "Stars", "Storm", "Knights", "Giants", "Pirates"]
    static let venueKinds = [
        "Theater", "Theatre", "Arena", "Hall", "Amphitheatre", "Center", "Ballroom", "Stadium", "Club", "Pavilion",
        "Music Hall", "Opera House", "Coliseum", "Lounge", "Playhouse",
    ]
    static let streets = ["Main St", "Broadway", "N Lincoln", "Seventh Ave", "Market St", "Elm St", "Oak Ave",
                          "Park Blvd", "River Rd", "Lake Shore Dr", "Rue Sainte-Catherine", "King St W", "Queen St E"]

    /// An artist name. `kind` spreads the patterns; the caller makes names unique.
    static func artist(_ rng: inout SplitMix64, city: String) -> String {
        switch rng.int(0..<20) {
        case 0...5: return "The \(rng.pick(adjectives)) \(rng.pick(nouns))s"
        case 6...9: return "\(rng.pick(firstNames)) \(rng.pick(lastNames))"
        case 10: return "\(rng.pick(firstNames)) \(rng.pick(lastNames)) & The \(rng.pick(nouns))s"
        case 11: return "\(rng.pick(lastNames)), \(rng.pick(lastNames)) & \(rng.pick(lastNames))"
        case 12: return "\(rng.pick(nouns)) N’ \(rng.pick(nouns))s"
        case 13: return "\(city) \(rng.pick(teams))"
        case 14: return "\(rng.pick(adjectives)) \(rng.pick(nouns)) – \(rng.pick(adjectives)) Tour"
        case 15: return "DJ \(rng.pick(adjectives)) \(rng.pick(nouns))"
        case 16: return "\(city) Symphony Orchestra"
        case 17: return "Élan \(rng.pick(nouns))"
        case 18: return "\(rng.pick(adjectives))\(rng.pick(nouns).lowercased())"
        default: return "\(rng.pick(adjectives)) \(rng.pick(nouns))"
        }
    }

    static func venue(_ rng: inout SplitMix64, city: String) -> String {
        switch rng.int(0..<8) {
        case 0: return "\(city) \(rng.pick(venueKinds))"
        case 1: return "The \(rng.pick(adjectives)) \(rng.pick(nouns)) \(rng.pick(venueKinds))"
        case 2: return "\(rng.pick(lastNames)) & \(rng.pick(lastNames)) \(rng.pick(venueKinds))"
        case 3: return "Théâtre \(rng.pick(lastNames))"
        case 4: return "\(rng.pick(nouns)) \(rng.pick(venueKinds)) – \(city)"
        default: return "\(rng.pick(lastNames)) \(rng.pick(venueKinds))"
        }
    }
}
