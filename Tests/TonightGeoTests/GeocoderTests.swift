import TonightBase
import Foundation
import Testing
import TonightCore
import TonightFeed
@testable import TonightGeo

/// Known venues land within 15 km of their true place, in the right zone (geocoding.md).
@Suite struct GeocoderTests {
    static let geocoder = Geocoder()

    struct Venue: Sendable, CustomStringConvertible {
        var name: String, city: String, state: String, zip: String, lat: Double, lon: Double
        var zone: String, precision: Placement.Precision
        var description: String { name }
    }

    static let venues: [Venue] = [
        Venue(name: "Madison Square Garden", city: "New York", state: "NY", zip: "10001", lat: 40.7505, lon: -73.9934,
              zone: "America/New_York", precision: .postal),
        Venue(name: "Hollywood Bowl", city: "Los Angeles", state: "CA", zip: "90068", lat: 34.1122, lon: -118.3391,
              zone: "America/Los_Angeles", precision: .postal),
        Venue(name: "Red Rocks Amphitheatre", city: "Morrison", state: "CO", zip: "80465", lat: 39.6654, lon: -105.2057,
              zone: "America/Denver", precision: .postal),
        Venue(name: "Fenway Park", city: "Boston", state: "MA", zip: "02215", lat: 42.3467, lon: -71.0972,
              zone: "America/New_York", precision: .postal),
        Venue(name: "Rogers Centre", city: "Toronto", state: "ON", zip: "M5V 1J1", lat: 43.6414, lon: -79.3894,
              zone: "America/Toronto", precision: .city),
        Venue(name: "Bell Centre", city: "Montréal", state: "QC", zip: "H3B 5E8", lat: 45.4961, lon: -73.5693,
              zone: "America/Toronto", precision: .city),
    ]

    @Test(arguments: venues)
    func knownVenue(_ v: Venue) throws {
        let p = Self.geocoder.place(country: FeedVenue.country(ofState: v.state), city: v.city, state: v.state, zip: v.zip)
        #expect(p.precision == v.precision)
        let lat = try #require(p.lat), lon = try #require(p.lon)
        let km = GeoDistance.km(lat, lon, v.lat, v.lon)
        #expect(km < 15, "\(v.name) is \(km) km off")
        #expect(p.timeZone == v.zone)
    }

    /// The ZIP-only point table (load-tickets) places every ZIP of the table, in every
    /// accepted form, exactly where the geocoder does, and refuses what it refuses.
    @Test func zipPointsAgreeWithTheGeocoder() throws {
        let points = try ZIPPoints.bundled()
        let geocoder = Geocoder()
        var forms: [String] = ["", "1", "abcde", "1234", "123456", "12345-", "12345-678", " 10001\t", "10001-1234", "100011234", "00000"]
        for z in GeoTable.bundled.zips { forms.append(z.zip) }
        forms += GeoTable.bundled.zips.prefix(100).map { $0.zip + "-0000" }
        var placed = 0
        for form in forms {
            var s = form
            let p = s.withUTF8 { points.point(zipBytes: $0) }
            let g = geocoder.place(zip: form)
            #expect(p?.lat == g.lat && p?.lon == g.lon, "\(form)")
            #expect((p != nil) == (g.precision == .postal), "\(form)")
            if p != nil { placed += 1 }
        }
        #expect(placed >= 33_000)
        #expect(ZIPPoints(table: .bundled).point(zipBytes: UnsafeBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test func zipForms() {
        #expect(Geocoder.zip5("10019-1234") == "10019")
        #expect(Geocoder.zip5("100191234") == "10019")
        #expect(Geocoder.zip5(" 07869 ") == "07869")
        #expect(Geocoder.zip5("M5V 2T6") == nil)
        #expect(Geocoder.zip5("1001") == nil)
        #expect(Self.geocoder.place(zip: "07869").precision == .postal)
    }

    @Test func cityNormalisation() {
        #expect(PlaceName.normalize("St. Louis") == "saint louis")
        #expect(PlaceName.normalize("  Ft.  Lauderdale ") == "fort lauderdale")
        #expect(PlaceName.normalize("MONTRÉAL") == "montreal")
        #expect(PlaceName.key(city: "New York", region: "NY") == "NY|new york city")
        // A St. Louis venue without a usable ZIP still lands in St. Louis, MO.
        let p = Self.geocoder.place(country: "US", city: "St. Louis", state: "MO", zip: nil)
        #expect(p.precision == .city)
        #expect(GeoDistance.km(p.lat!, p.lon!, 38.627, -90.199) < 15)
    }

    @Test func regionAndNone() {
        let r = Self.geocoder.place(country: "US", city: "Nowhere Flats", state: "NV", zip: "00000")
        #expect(r.precision == .region)
        #expect(r.timeZone == "America/Los_Angeles")
        let n = Self.geocoder.place(country: nil, city: "Nowhere Flats", state: nil, zip: "00000")
        #expect(n == .none)
    }

    @Test func distance() {
        // New York to Los Angeles: 3,936 km on the 6371.0088 km sphere.
        let d = GeoDistance.km(40.7128, -74.0060, 34.0522, -118.2437)
        #expect(abs(d - 3936) < 5)
        #expect(GeoDistance.km(10, 10, 10, 10) == 0)
    }

    @Test func apolloTheaterLocalStart() throws {
        let p = Self.geocoder.place(country: "US", city: "Chicago", state: "IL", zip: "60614")
        #expect(p.timeZone == "America/Chicago")
        let startsAt = CivilTime.parseInstant("2012-09-30T01:00:00Z")!
        let local = try TimeZoneDatabase.system().rules(p.timeZone!).local(startsAt)
        #expect(CivilTime.formatLocal(local) == "2012-09-29T20:00:00")
    }
}


@Suite struct PlaceNameTests {
    /// The ASCII fast path gives what the general path gives.
    @Test(arguments: ["St. Louis", "Winston-Salem", "Coeur d'Alene", "  FT.  Worth  ", "Mt Pleasant", "Ste. Genevieve", "O'Fallon", "29 Palms"])
    func fastPathAgrees(_ name: String) {
        #expect(PlaceName.asciiNormalize(name) == PlaceName.words(PlaceName.generalFold(name)))
    }
}
