import Foundation
import Testing
import TonightCore
@testable import TonightFeed

/// A feed in another encoding than UTF-8, declared in its XML declaration (feed.md's feed is
/// UTF-8; a provider or a proxy that re-encodes it must not change a record): libxml2 decodes
/// it, and every record, reject and warning is the UTF-8 feed's. The bundled tiny feed has
/// an en dash and a right quote (in windows-1252, bytes 0x96 and 0x92; in ISO-8859-1, character
/// references). And a stray Latin-1 byte in a feed declared UTF-8 stops the parse at its line
/// and column, instead of being replaced.
@Suite struct DeclaredEncodingTests {
    static let utf8Text = try! String(contentsOf: tinyInputs.appendingPathComponent("feed.xml"), encoding: .utf8)

    /// The tiny feed declared as `name` and written in `encoding`; characters `encoding` lacks
    /// become character references (none of them is in a CDATA section).
    static func encoded(_ name: String, _ encoding: String.Encoding, bom: [UInt8] = []) -> Data {
        let declared = utf8Text.replacingOccurrences(of: #"encoding="UTF-8""#, with: "encoding=\"\(name)\"")
        var text = ""
        for u in declared.unicodeScalars {
            if String(u).data(using: encoding) == nil { text += "&#\(u.value);" } else { text.unicodeScalars.append(u) }
        }
        return Data(bom) + text.data(using: encoding)!
    }

    static func records(_ r: FeedParseResult) -> [String] {
        r.artists.map(json) + r.categories.map(json) + r.venues.map(json) + r.events.map(json) + r.rejects.map(json)
            + r.warnings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    static let variants: [(String, Data)] = [
        ("ISO-8859-1", encoded("ISO-8859-1", .isoLatin1)),
        ("windows-1252", encoded("windows-1252", .windowsCP1252)),
        ("UTF-16LE with a BOM", encoded("UTF-16", .utf16LittleEndian, bom: [0xFF, 0xFE])),
        ("UTF-16BE with a BOM", encoded("UTF-16", .utf16BigEndian, bom: [0xFE, 0xFF])),
    ]

    @Test(arguments: variants.map(\.0))
    func aReEncodedFeedGivesTheSameRecords(_ name: String) throws {
        let data = try #require(Self.variants.first { $0.0 == name }?.1)
        #expect(!data.elementsEqual(Self.utf8Text.utf8))
        let url = temporaryDirectory("encoding").appendingPathComponent("feed.xml")
        try data.write(to: url)
        let want = Self.records(try FeedParser.parse(tinyInputs.appendingPathComponent("feed.xml")))
        #expect(want.count > 20 && want.contains { $0.contains("\u{2013}") })
        #expect(Self.records(try FeedParser.parse(url)) == want)
    }

    @Test func aLatin1ByteInAUTF8FeedStopsTheParseAtItsPlace() throws {
        var bytes = Array(Self.utf8Text.utf8)
        let tag = Array("<ArtistName>".utf8)
        let at = try #require((0..<bytes.count).first { bytes[$0...].starts(with: tag) }) + tag.count
        bytes.insert(contentsOf: [0x43, 0x61, 0x66, 0xE9, 0x20], at: at)  // "Caf\xE9 "
        let line = bytes[..<at].filter { $0 == 0x0A }.count + 1
        let url = temporaryDirectory("encoding").appendingPathComponent("feed.xml")
        try Data(bytes).write(to: url)
        do {
            _ = try FeedParser.parse(url)
            Issue.record("a Latin-1 byte in a UTF-8 feed was accepted")
        } catch let e as TonightError {
            #expect(e.line == line, "\(e)")
            #expect(e.description.contains("UTF-8"), "\(e)")
        }
    }
}
