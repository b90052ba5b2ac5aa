import TonightGeo

/// The valid range of every numeric field of the apps' exports (Docs/INPUTS.md lists them):
/// a value outside is a reject with its reason, never a value the rankers must survive.
package enum FieldRanges {
    /// Degrees.
    package static let latitude = -90.0...90.0
    /// Degrees.
    package static let longitude = -180.0...180.0
    /// `users.radius_km`: more than 0, at most the circumference; from half of it
    /// (`GeoGrid.halfCircumferenceKm`, 20,015 km) on, every place is in reach.
    package static let radiusKm = 0.0...40_075.0
    /// `users.max_price`, per ticket.
    package static let maxPrice = 0.0...1_000_000.0
    /// `sessions.duration_min`: at most a day.
    package static let durationMin: ClosedRange<Int64> = 0...1_440
    /// `sessions.capacity`.
    package static let capacity: ClosedRange<Int64> = 1...1_000
    /// `players.birthday`: from 1900-01-01 to the run date.
    package static let earliestBirthday = "1900-01-01"
    /// `sessions.occurs_at`: from 2000-01-01 to 2099-12-31.
    package static let occursAt = "2000-01-01T00:00:00Z"..."2099-12-31T23:59:59Z"
}
