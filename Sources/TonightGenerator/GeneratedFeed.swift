/// The generated feed, kept in memory so the affinity and user exports can refer to it.
struct GeneratedFeed {
    struct Artist {
        var id: Int64
        var name: String
        var category: Int64?
        var hasImage: Bool
    }

    struct Venue {
        var id: Int64
        var name: String
        var street: String?
        var city: String?
        var state: String?
        var zip: String?
        var timeZone: String?
        var lat: Double
        var lon: Double
        var country: String
    }

    struct Event {
        var id: UInt64
        var name: String
        var artists: [Int64]
        var category: Int64?
        var venue: Int
        var startsAt: Int64
        var timeTBA: Bool
        var status: Int?
        var onsale: (kind: Int, at: Int64)
        var presale: (kind: Int, at: Int64)
        var price: String?
        var promoter: Int?
        var stars: String?
        var reviews: Int?
    }

    var categories: [(id: Int64, name: String, parent: Int64?)]
    var artists: [Artist]
    var venues: [Venue]
    var events: [Event]
    /// Artist indices by popularity rank (0 = most popular).
    var popularity: [Int]
}

/// The feed's 75 real categories (Fixtures/ticketmaster/categories_2012.csv).
enum RealCategories {
    static let csv = """
        0,More Miscellaneous,10005
        1,Rock and Pop,10001
        2,Country and Folk,10001
        3,Rap and Hip-Hop,10001
        4,Jazz and Blues,10001
        5,World Music,10001
        7,Basketball,10004
        8,Football,10004
        9,Hockey,10004
        10,Baseball,10004
        11,Soccer,10004
        12,Ballet and Dance,10002
        13,Opera,10002
        14,Museums and Exhibits,10002
        16,Broadway,10002
        17,Off-Broadway,10002
        19,Family Attractions,10003
        22,Ice Shows,10003
        23,Children's Music and Theater,10003
        25,Motorsports,10004
        27,Wrestling,10004
        28,Rodeo,10004
        29,Circus,10003
        30,Golf,10004
        31,Tennis,10004
        32,Plays,10002
        33,Boxing,10004
        34,Curling,10004
        35,Lacrosse,10004
        36,Skating,10004
        40,Latin,10001
        50,New Age and Spiritual,10001
        51,Comedy,10002
        52,More Concerts,10001
        53,More Arts and Theater,10002
        54,Fairs and Festivals,10003
        55,More Family,10003
        56,Gift Certificates,10005
        57,Casino,10005
        58,Restaurants,10005
        59,Movies,10005
        60,Alternative Rock,10001
        61,Bull Riding,10004
        102,More Sports,10004
        103,Parking,10005
        104,Lecture/Seminar,10005
        105,Expo/Convention,10005
        106,Cruise and Sightseeing,10005
        107,Miscellaneous,10001
        108,Merchandise,10005
        109,Donations,10005
        200,Hard Rock/Metal,10001
        201,Dance/Electronic,10001
        202,R&B/Urban Soul,10001
        203,Classical,10002
        204,Volleyball,10004
        205,Field Sports,10004
        206,Competitions,10004
        207,Musicals,10002
        209,Magic Shows,10003
        210,Hotel Reservations,10005
        211,Camping,10005
        238,Dinner Package,10005
        239,Concession Vouchers,10005
        240,Audio Tours,10005
        242,Merchandise Vouchers,10005
        267,Sports Packages,10004
        764,Cabaret,10001
        765,Handball,10004
        766,Festivals,10001
        830,Mixed Martial Arts,10004
        10001,Music,
        10002,Arts & Theater,
        10003,Family,
        10004,Sports,
        10005,Miscellaneous,
        """

    static let all: [(id: Int64, name: String, parent: Int64?)] = csv.split(separator: "\n").map { line in
        let f = line.split(separator: ",", omittingEmptySubsequences: false)
        return (Int64(f[0])!, String(f[1]), f[2].isEmpty ? nil : Int64(f[2]))
    }
}
