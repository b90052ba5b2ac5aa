import Foundation
import Testing
@testable import TonightSnapshot

/// The NDJSON key index (`{"frame":N,"first":"…","last":"…","records":N}` per frame): keys
/// lent in place or decoded when escaped, every frame's range after the previous one, and
/// anything else refused as corruption with the line it is on.
@Suite struct KeyIndexTests {
    static func line(_ frame: Int, _ first: String, _ last: String, _ records: Int = 3) -> String {
        #"{"frame":\#(frame),"first":\#(first),"last":\#(last),"records":\#(records)}"# + "\n"
    }

    static func parse(_ text: String) throws -> KeyIndex {
        try KeyIndex(ndjson: Array(text.utf8), path: "t.index.ndjson")
    }

    @Test func plainAndEscapedKeysReadBack() throws {
        let text = Self.line(0, #""a""#, #""a\"b""#, 2) + Self.line(1, #""a\\c""#, #""b""#) + Self.line(2, #""b\u00e9""#, #""c\nd""#, 1)
            + Self.line(3, #""ca""#, #""ca""#, 1) + Self.line(4, #""é""#, #""éé""#)
        let index = try Self.parse(text)
        #expect(index.count == 5)
        #expect((0..<5).map(index.first) == ["a", "a\\c", "bé", "ca", "é"])
        #expect((0..<5).map(index.last) == ["a\"b", "b", "c\nd", "ca", "éé"])
        #expect(index.records == [2, 3, 1, 1, 3])
        #expect(index.frame(for: "a\"a") == 0)
        #expect(index.frame(for: "bé!") == 2)
        #expect(index.frame(for: "bz") == nil)  // after "b", before "bé" in bytes
        #expect(index.frame(for: "ca") == 3)
        #expect(index.frame(for: "cb") == nil)
        #expect(index.isFirst(Array("a\\c".utf8), of: 1))
        #expect(index.isLast(Array("c\nd".utf8), of: 2))
    }

    @Test func anEmptyIndexHasNoFrames() throws {
        #expect(try Self.parse("").count == 0)
    }

    /// Corrupt indexes and the message each is refused with (it names the line).
    static let corrupt: [(String, String)] = {
        let ab = line(0, #""a""#, #""b""#)
        var cases: [(String, String)] = []
        cases.append((ab + line(1, #""b""#, #""c""#), "line 2: keys out of order"))  // shares a key with the frame before
        cases.append((line(0, #""b""#, #""a""#), "line 1: keys out of order"))  // last before first
        cases.append((ab + line(1, #""\u0062""#, #""c""#), "line 2: keys out of order"))  // escaped, equal to the last
        cases.append((line(0, #""b""#, #""b\\""#) + line(1, #""b""#, #""c""#), "line 2: keys out of order"))
        cases.append((line(1, #""a""#, #""b""#), "index line 1 names another frame"))
        cases.append((line(0, #""a""#, #""b""#, 0), "index line 1 is malformed"))  // a frame of no records
        cases.append((String(ab.dropLast()), "index line 1 is not terminated"))
        cases.append((ab + " ", "index line 2 is not terminated"))
        cases.append((line(0, #""a"#, #""b""#), "index line 1 is malformed"))  // unterminated string
        cases.append((line(0, #""a\q""#, #""b""#), "index line 1 is malformed"))  // bad escape
        cases.append((line(0, #"a"#, #""b""#), "index line 1 is malformed"))  // not a string
        cases.append((ab.replacingOccurrences(of: "}", with: "} "), "index line 1 is malformed"))
        cases.append((ab.replacingOccurrences(of: #""last""#, with: #""Last""#), "index line 1 is malformed"))
        cases.append((ab.replacingOccurrences(of: #""records":3"#, with: #""records":x"#), "index line 1 is malformed"))
        return cases
    }()

    /// Each is refused, with the line it is on.
    @Test(arguments: corrupt)
    func corruptionIsRefused(_ text: String, _ message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            let text = "\(error)"
            #expect(text.contains(message), "\(text)")
        }
    }
}
