import Foundation
import Testing
@testable import TonightCore
import TonightGenerator

/// Published numbers are written no more precisely than they mean (snapshots.md): the text
/// has at most the allowed digits and is the correctly rounded decimal.
@Suite struct NumberPrecisionTests {
    static func text(_ v: Double, _ p: NumberPrecision) -> String {
        var w = JSONWriter()
        w.beginArray()
        w.element(maxBytes: JSONCursor.maxDoubleBytes) { $0.double(v, p) }
        w.endArray()
        let cursor = String(decoding: w.bytes.dropFirst().dropLast(), as: UTF8.self)
        var o = JSONWriter()
        o.beginObject()
        o.field("x", v, p)
        o.endObject()
        let writer = String(decoding: o.bytes.dropFirst(5).dropLast(), as: UTF8.self)
        #expect(cursor == writer, "cursor and writer disagree on \(v)")
        return cursor
    }

    @Test(arguments: [
        (7555.271466084858, "7555.27"), (0.0, "0"), (0.004, "0"), (-0.004, "0"), (0.005, "0.01"), (1.5, "1.5"),
        (12.3449999, "12.34"), (12.345000001, "12.35"), (40075.0, "40075"), (0.1 + 0.2, "0.3"),
    ])
    func distances(_ v: Double, _ expected: String) {
        #expect(Self.text(v, .distance) == expected)
    }

    @Test(arguments: [
        (40.750512345, "40.75051"), (-73.993456789, "-73.99346"), (-0.000004, "0"), (90.0, "90"), (-179.999996, "-180"),
    ])
    func coordinates(_ v: Double, _ expected: String) {
        #expect(Self.text(v, .coordinate) == expected)
    }

    @Test(arguments: [
        (0.49197597409354993, "0.491976"), (0.005190459033018316, "0.00519046"), (705.7394198505721, "705.739"),
        (9.9999996, "10"), (123456789.0, "123457000"), (1.0, "1"), (0.0, "0"), (3.2e-9, "3.2e-09"),
        (1.23456789e-30, "1.23457e-30"), (-2.5, "-2.5"), (5.2, "5.2"),
    ])
    func scores(_ v: Double, _ expected: String) {
        #expect(Self.text(v, .score) == expected)
    }

    /// Counts the significant digits and the decimals of a number's text.
    static func digits(_ text: String) -> (significant: Int, decimals: Int) {
        let mantissa = text.split(separator: "e").first.map(String.init) ?? text
        let decimals = mantissa.split(separator: ".").dropFirst().first?.count ?? 0
        // Leading zeros never count; an integer's trailing zeros are placeholders.
        var digits = Substring(mantissa.filter(\.isNumber)).drop { $0 == "0" }
        if !mantissa.contains(".") { while digits.last == "0" { digits = digits.dropLast() } }
        let significant = digits.count
        return (significant, decimals)
    }

    /// Random values over many magnitudes: never more digits than allowed, and within half a
    /// unit of the last allowed digit of the exact value.
    @Test func randomValuesRoundCorrectly() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<50_000 {
            let magnitude = Double(Int(random.next() % 16)) - 8
            let v = (Double(random.next() % 1_000_000_007) / 1_000_000_007) * pow(10, magnitude) * (random.next() % 2 == 0 ? 1 : -1)
            let d = Self.text(v, .distance)
            #expect(Self.digits(d).decimals <= 2, "\(v) → \(d)")
            #expect(abs(Double(d)! - v) <= 0.005 + 1e-12 * abs(v), "\(v) → \(d)")
            let c = Self.text(v, .coordinate)
            #expect(Self.digits(c).decimals <= 5, "\(v) → \(c)")
            let s = Self.text(v, .score)
            #expect(Self.digits(s).significant <= 6, "\(v) → \(s)")
            if v != 0 { #expect(abs(Double(s)! - v) <= abs(v) * 5e-6 * 1.000001, "\(v) → \(s)") }
        }
    }

    /// The text of the general path: round, then the shortest round-trip text.
    static func generalText(_ v: Double, _ p: NumberPrecision) -> String {
        var w = JSONWriter()
        w.beginArray()
        w.element(maxBytes: JSONCursor.maxDoubleBytes) { $0.double(p.rounded(v)) }
        w.endArray()
        return String(decoding: w.bytes.dropFirst().dropLast(), as: UTF8.self)
    }

    /// The plain-decimal fast path writes exactly what rounding then printing the shortest
    /// text writes: random values over 24 magnitudes, both signs, and the values at the
    /// edges of the fast path (1e-4, 10^15 scaled, halfway cases, the powers of ten and
    /// their neighbours).
    @Test(arguments: [NumberPrecision.distance, .score, .coordinate, .significant(3), .decimals(0), .decimals(9)])
    func fastPathWritesTheGeneralText(_ p: NumberPrecision) {
        var random = SplitMix64(seed: 7)
        var values: [Double] = [1e-4, 0.0001, 0.00009999995, 0.000099999, 0.00010000049, 0.005, 0.015, 0.025, 1.005, 2.675,
                                999_999.5, 9_999_999_999_999.99, 99_999_999_999_999.9, 999_999_999_999_999.0, 1e15, 4.35, 0.45]
        // Each power of ten and its neighbours (where the exponent's computation may land on
        // either side), and exact halves at the last kept digit (ties round away from zero).
        for k in -8...18 {
            let power = pow(10, Double(k))
            values += [power, power.nextUp, power.nextDown, power.nextUp.nextUp, power.nextDown.nextDown, power * 0.9999995, power * 1.0000005]
        }
        values += [0.125, 0.375, 2.5, 0.5, 1.5, 12.5, 0.0625, 1_234_565.0, 0.000_012_345_65]
        values += values.map { -$0 }
        for _ in 0..<200_000 {
            let magnitude = Double(Int(random.next() % 24)) - 10
            let v = Double(random.next() >> 11) / Double(1 << 53) * pow(10, magnitude)
            values.append(random.next() % 2 == 0 ? v : -v)
        }
        for v in values {
            let fast = Self.text(v, p), general = Self.generalText(v, p)
            if fast != general {
                Issue.record("\(v) with \(p): fast \(fast), general \(general)")
                return
            }
        }
    }

    /// The powers of ten are constants in a `switch` (a `static let` table was a
    /// `swift_once` call per read): each is the exact double, every one from 10^0 to 10^22.
    @Test func powersOfTenAreExact() {
        for p in 0...22 { #expect(NumberPrecision.power(p) == pow(10, Double(p)), "10^\(p)") }
    }

    @Test func nonFiniteValuesStayAsTheWriterPrintsThem() {
        #expect(Self.text(.nan, .score) == "0")
        #expect(Self.text(.infinity, .distance) == "0")
    }
}
