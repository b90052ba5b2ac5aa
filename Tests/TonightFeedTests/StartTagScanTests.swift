import Foundation
import Testing
@testable import TonightFeed
import TonightGenerator

/// The start-tag pre-scan on documents made of every construct it must tell apart (start tags
/// with quoted values that hold `<`, `>` and `=`, end tags, text, comments, CDATA sections and
/// processing instructions that hide tags), cut into chunks of every size: it refuses the first
/// visible tag over the limit, at that tag's offset, and nothing else. The whole-word path for
/// `<![CDATA[` and `<!--` needs the 8 bytes after the `<` in the same chunk, so chunks of 9
/// bytes or more take it for some openings and the byte-by-byte states for the split ones, and
/// smaller chunks take only the states: both are held to the same answer.
@Suite struct StartTagScanTests {
    @Test func theOpeningWordsAreTheirText() {
        func word(_ s: String) -> UInt64 {
            Array(s.utf8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        #expect(StartTagScan.cdataOpenWord == word("![CDATA["))
        #expect(StartTagScan.commentOpenWord == word("!--"))
    }

    /// A document and the offset of the first visible start tag with more than `limit`
    /// attributes (nil: none).
    static func document(seed: UInt64, limit: Int) -> (bytes: [UInt8], violation: Int64?) {
        var rng = SplitMix64(seed: seed)
        var out = Array("<r>".utf8)
        var violation: Int64?
        // Values with `<`, `>`, `=` and a quote of the other kind; in a visible tag also the
        // terminators of the hidden constructs (a hidden tag's value holds none: it would end
        // the comment or section there, which is another document than the one described).
        func attributes(_ n: Int, visible: Bool = false) -> String {
            (0..<n).map { k in
                let values = ["1", "a=b", "<>", "x>y", "'"] + (visible ? ["]]>", "-->", "?>"] : [])
                let value = values[Int(rng.next() % UInt64(values.count))]
                let quote = value.contains("'") ? "\"" : (rng.next() % 2 == 0 ? "\"" : "'")
                return " a\(k)=\(quote)\(value)\(quote)"
            }.joined()
        }
        for _ in 0..<(20 + Int(rng.next() % 40)) {
            let n = Int(rng.next() % UInt64(limit + 3))
            let piece: String
            switch rng.next() % 8 {
            case 0: piece = "text = > ] - ?"
            case 1: piece = "<!--<h\(attributes(n))>--->"  // a comment whose tag is hidden
            case 2: piece = "<![CDATA[<h\(attributes(n))>]]]>"
            case 3: piece = "<?pi <h\(attributes(n))> ?>"
            case 4: piece = "</e>"
            case 5: piece = "<!---->"
            default:
                if n > limit, violation == nil { violation = Int64(out.count) }
                piece = "<e\(attributes(n, visible: true))\(rng.next() % 2 == 0 ? "/" : "")>"
            }
            out += Array(piece.utf8)
        }
        return (out + Array("</r>".utf8), violation)
    }

    @Test(arguments: [1, 2, 3, 7, 8, 9, 10, 16, 64, 1 << 20])
    func everyChunkingFindsTheFirstVisibleFlood(_ chunk: Int) {
        for seed in UInt64(1)...300 {
            let (bytes, violation) = Self.document(seed: seed, limit: 2)
            var scan = StartTagScan(maxAttributes: 2)
            var found: Int64?
            do {
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    try bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { try scan.scan($0) }
                }
            } catch let v as StartTagScan.Violation {
                found = v.offset
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(found == violation, "seed \(seed), chunks of \(chunk): \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

