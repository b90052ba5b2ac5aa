import Foundation
import TonightCore

/// A look at the raw bytes before libxml2 parses them: the attributes (namespace
/// declarations included) of every start tag are counted, so that a tag with 100,000 of them
/// is refused before libxml2's quadratic duplicate check spends seconds on it. libxml2 only
/// parses a start tag once all of it has arrived, so the count happens first.
///
/// A small state machine over text, tags, quoted values, comments, CDATA sections and
/// processing instructions, carried across chunks; text is skipped with `memchr`, and a
/// `<![CDATA[` or `<!--` that lies whole in the chunk is recognised in one comparison (the
/// states take an opening split across chunks byte by byte). After a `<!` that opens neither
/// a comment nor a CDATA section (a DOCTYPE, which the parser refuses at once), the scan
/// stands aside.
struct StartTagScan {
    private enum State {
        case text, lessThan, bang, startTag, quoted, endTag, instruction, comment, cdata, off
    }

    /// A start tag over the limit: where it starts (offset in the input) and its count.
    struct Violation: Error {
        var offset: Int64
        var attributes: Int
    }

    let maxAttributes: Int
    private var state = State.text
    private var quote: UInt8 = 0
    private var attributes = 0
    private var tagStart: Int64 = 0
    /// Bytes of `<!…` seen so far, to tell `<!--` and `<![CDATA[` apart.
    private var bang: [UInt8] = []
    /// How much of the current terminator (`-->`, `]]>`, `?>`) matched at the end of the
    /// previous chunk.
    private var matched = 0
    /// Input bytes before the current chunk.
    private var consumed: Int64 = 0

    init(maxAttributes: Int) {
        self.maxAttributes = maxAttributes
    }

    /// The position of the next `>`, `=`, `"` or `'` at or after `i` (the bytes of a start tag
    /// the scan acts on), or `n`: words of eight bytes tested at once (SWAR: a byte equal to
    /// t makes `x ^ t·0x01…01` have a zero byte; the lowest flagged byte is exact).
    @inline(__always)
    static func nextSpecial(_ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while i + 8 <= n {
            let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            var found: UInt64 = 0
            for t: UInt64 in [0x3E, 0x3D, 0x22, 0x27] {
                let v = x ^ (t &* ones)
                found |= (v &- ones) & ~v & highs
            }
            if found != 0 { return i + (UInt64(littleEndian: found).trailingZeroBitCount >> 3) }
            i += 8
        }
        while i < n {
            let c = base[i]
            if c == 0x3E || c == 0x3D || c == 0x22 || c == 0x27 { return i }
            i += 1
        }
        return n
    }

    private static let comment = Array("-->".utf8)
    private static let cdata = Array("]]>".utf8)
    private static let instruction = Array("?>".utf8)
    private static let cdataOpen = Array("[CDATA[".utf8)
    /// `![CDATA[` and `!--` as little-endian words (the bytes after a `<`; literals, so that
    /// no lazy global is read per tag: `StartTagScanTests` checks them against the text).
    static var cdataOpenWord: UInt64 { 0x5B41_5441_4443_5B21 }
    static var commentOpenWord: UInt64 { 0x2D_2D21 }

    /// Scans the next chunk of input.
    mutating func scan(_ chunk: UnsafeRawBufferPointer) throws(Violation) {
        defer { consumed += Int64(chunk.count) }
        guard state != .off, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let n = chunk.count
        var i = 0
        while i < n {
            switch state {
            case .off:
                return
            case .text:
                // The common path, inline: text (memchr) to a tag, the tag, back to text.
                while true {
                    guard let p = memchr(base + i, 0x3C, n - i) else { return }
                    i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - base + 1
                    tagStart = consumed + Int64(i - 1)
                    guard i < n else {
                        state = .lessThan
                        return
                    }
                    let c = base[i]
                    if c == 0x2F {  // an end tag: no attributes
                        while i < n && base[i] != 0x3E { i += 1 }
                        guard i < n else {
                            state = .endTag
                            return
                        }
                        i += 1
                        continue
                    }
                    if c == 0x21 || c == 0x3F {
                        // `<![CDATA[` and `<!--` whole when they lie in this chunk (a feed has
                        // one CDATA section per URL): one comparison instead of a state a byte.
                        if c == 0x21, i + 8 <= n {
                            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                            if word == Self.cdataOpenWord {
                                i += 8
                                state = .cdata
                                matched = 0
                                break
                            }
                            if word & 0xFF_FFFF == Self.commentOpenWord {
                                i += 3
                                state = .comment
                                matched = 0
                                break
                            }
                        }
                        state = .lessThan
                        break
                    }
                    attributes = 0
                    guard try startTag(base, &i, n) else { return }
                }
            case .lessThan:
                switch base[i] {
                case 0x2F: state = .endTag
                case 0x3F: state = .instruction; matched = 0
                case 0x21: state = .bang; bang.removeAll(keepingCapacity: true)
                default:
                    attributes = 0
                    state = .startTag
                    continue
                }
                i += 1
            case .bang:
                bang.append(base[i])
                i += 1
                // Compared in place: building the prefixes as arrays cost an allocation per
                // byte of every `<![CDATA[` (1.65 M on the `full` feed).
                let k = bang.count
                if k == 2 && bang[0] == 0x2D && bang[1] == 0x2D {
                    state = .comment
                    matched = 0
                } else if k == Self.cdataOpen.count && bang.elementsEqual(Self.cdataOpen) {
                    state = .cdata
                    matched = 0
                } else if !((k < Self.cdataOpen.count && Self.cdataOpen[..<k].elementsEqual(bang)) || (k == 1 && bang[0] == 0x2D)) {
                    state = .off  // a DOCTYPE or worse: the parser refuses it at once
                }
            case .startTag:
                state = .text
                guard try startTag(base, &i, n) else { return }
            case .quoted:
                guard let p = memchr(base + i, Int32(quote), n - i) else { return }
                i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - base + 1
                state = .startTag
            case .endTag:
                guard let p = memchr(base + i, 0x3E, n - i) else { return }
                i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - base + 1
                state = .text
            case .comment:
                i = seek(Self.comment, base, i, n)
            case .cdata:
                i = seek(Self.cdata, base, i, n)
            case .instruction:
                i = seek(Self.instruction, base, i, n)
            }
        }
    }

    /// The rest of a start tag from `i`: true at its `>` (state text), false at the end of
    /// the chunk (state saved).
    @inline(__always)
    private mutating func startTag(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(Violation) -> Bool {
        while true {
            // Eight bytes at a time to the next `>`, `=`, `"` or `'`: most of a tag is names
            // and spaces.
            i = Self.nextSpecial(base, i, n)
            guard i < n else {
                state = .startTag
                return false
            }
            let c = base[i]
            i += 1
            if c == 0x3E { return true }
            if c == 0x3D {
                attributes += 1
                if attributes > maxAttributes { throw Violation(offset: tagStart, attributes: attributes) }
                continue
            }
            // A quoted value: straight to its closing quote.
            guard let p = memchr(base + i, Int32(c), n - i) else {
                quote = c
                state = .quoted
                return false
            }
            i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - base + 1
        }
    }

    /// Moves past `terminator` (back to text) or to the end of the chunk, remembering a
    /// partial match.
    private mutating func seek(_ terminator: [UInt8], _ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        var i = start
        while i < n {
            if matched > 0 {
                if base[i] == terminator[matched] {
                    matched += 1
                    i += 1
                    if matched == terminator.count {
                        matched = 0
                        state = .text
                        return i
                    }
                    continue
                }
                // Each terminator is one byte repeated, then a last one (`]]>`, `-->`, `?>`): a
                // mismatch on the repeated byte (`]]]>`) keeps all but the last matched.
                matched = base[i] == terminator[0] ? terminator.count - 1 : 0
                i += 1
                continue
            }
            guard let p = memchr(base + i, Int32(terminator[0]), n - i) else { return n }
            i = UnsafePointer<UInt8>(p.assumingMemoryBound(to: UInt8.self)) - base + 1
            matched = 1
        }
        return n
    }
}

extension StartTagScan {
    /// `scan` as a value: the violation in `chunk`, if any.
    mutating func verdict(_ chunk: UnsafeRawBufferPointer) -> Violation? {
        do {
            try scan(chunk)
            return nil
        } catch {
            return error
        }
    }
}
