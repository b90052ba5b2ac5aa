import CLibXML2
import Foundation
import TonightCore

/// Receives libxml2's SAX2 events for the feed: tracks the element path, enforces the
/// security limits, captures field text and hands finished records to the collector.
/// Names are matched by dictionary pointer, so the hot path does no string work.
final class FeedSAXHandler {
    let path: String
    let limits: XMLLimits
    let requiredRoot: String?
    var collector: FeedCollector
    /// The first fatal problem: a well-formedness error or a refused construct.
    var failure: TonightError?
    var context: XMLParserContext!

    private var depth = 0
    private var section: FeedSection?
    private var inRecord = false
    private var field: FeedField?
    private var capture = false
    private var textRun = 0
    private var text: [UInt8] = []
    private var draft = RecordDraft()

    // Interned names.
    private var rootName: UnsafePointer<xmlChar>!
    private var idName: UnsafePointer<xmlChar>!
    private var typeName: UnsafePointer<xmlChar>!
    private var artistIDName: UnsafePointer<xmlChar>!
    private var sectionNames: [(UnsafePointer<xmlChar>, FeedSection)] = []
    private var recordNames: [UnsafePointer<xmlChar>] = []
    private var fieldNames: [[(UnsafePointer<xmlChar>, FeedField)]] = []

    private let camefrom: [UInt8]

    init(path: String, limits: XMLLimits, camefrom: String, requiredRoot: String?) {
        self.camefrom = Array(camefrom.utf8)
        self.path = path
        self.limits = limits
        self.requiredRoot = requiredRoot
        collector = FeedCollector(camefrom: camefrom)
        text.reserveCapacity(1 << 12)
    }

    func attach(_ context: XMLParserContext) {
        self.context = context
        rootName = context.intern(requiredRoot ?? "Ticketmaster")
        idName = context.intern("ID")
        typeName = context.intern("Type")
        artistIDName = context.intern("ArtistID")
        sectionNames = FeedSection.allCases.map { (context.intern($0.elementName), $0) }
        recordNames = FeedSection.allCases.map { context.intern($0.recordName) }
        fieldNames = FeedSection.allCases.map { s in s.fields.map { (context.intern($0.elementName), $0) } }
    }

    // MARK: failures

    func fail(_ message: String, hint: String? = nil) {
        guard failure == nil else { return }
        failure = TonightError(
            .invalidInput, message, file: path, line: context.line, column: context.column, hint: hint)
        context.stop()
    }

    // MARK: SAX events

    @inline(__always)
    private static func same(_ a: UnsafePointer<xmlChar>, _ b: UnsafePointer<xmlChar>) -> Bool {
        a == b || strcmp(UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self),
                         UnsafeRawPointer(b).assumingMemoryBound(to: CChar.self)) == 0
    }

    private static func string(_ p: UnsafePointer<xmlChar>) -> String {
        String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    }

    /// The value of attribute `name` (bytes between value and end pointers).
    @inline(__always)
    private func attribute(
        _ name: UnsafePointer<xmlChar>, _ count: Int, _ attrs: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> String? {
        guard let attrs else { return nil }
        for i in 0..<count {
            guard let local = attrs[i * 5], local == name || Self.same(local, name),
                let v = attrs[i * 5 + 3], let end = attrs[i * 5 + 4]
            else { continue }
            return TextNormalizer.clean(UnsafeBufferPointer(start: v, count: end - v)) ?? ""
        }
        return nil
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        textRun = 0
        if depth > limits.maxDepth {
            fail("element nesting deeper than \(limits.maxDepth)", hint: "feed.limits.maxDepth")
            return
        }
        if attributeCount > limits.maxAttributes {
            fail("element has \(attributeCount) attributes, more than \(limits.maxAttributes)",
                 hint: "feed.limits.maxAttributes")
            return
        }
        let nameLength = strlen(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self))
            + (prefix.map { strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) + 1 } ?? 0)
        if nameLength > limits.maxNameBytes {
            fail("element name longer than \(limits.maxNameBytes) bytes", hint: "feed.limits.maxNameBytes")
            return
        }
        if let attributes {
            for i in 0..<attributeCount {
                if let v = attributes[i * 5 + 3], let e = attributes[i * 5 + 4], e - v > limits.maxTextBytes {
                    fail("attribute value longer than \(limits.maxTextBytes) bytes", hint: "feed.limits.maxTextBytes")
                    return
                }
            }
        }
        if let uri {
            let ns = Self.string(uri)
            if ns.hasPrefix("http://www.w3.org/") && ns.hasSuffix("/XInclude") {
                fail("XInclude is not allowed in the feed")
                return
            }
        }
        switch depth {
        case 1:
            if !Self.same(localname, rootName) {
                fail("root element is <\(Self.string(localname))>, expected <\(requiredRoot ?? "Ticketmaster")>",
                     hint: "is this the Ticketmaster feed?")
            }
        case 2:
            section = nil
            for (p, s) in sectionNames where Self.same(localname, p) {
                section = s
                break
            }
            if section == nil { collector.unknownElement(Self.string(localname)) }
        case 3:
            guard let section else { return }
            guard Self.same(localname, recordNames[section.rawValue]) else {
                collector.unknownElement(Self.string(localname))
                return
            }
            inRecord = true
            draft.reset(section: section, line: context.line, column: context.column,
                        id: attribute(idName, attributeCount, attributes))
        case 4:
            guard inRecord, let section else { return }
            field = nil
            for (p, f) in fieldNames[section.rawValue] where Self.same(localname, p) {
                field = f
                break
            }
            guard let f = field else {
                collector.unknownElement(Self.string(localname))
                return
            }
            draft.present[f.rawValue] = true
            if f.isIDReference {
                let v = attribute(idName, attributeCount, attributes)
                draft[f] = (v?.isEmpty ?? true) ? nil : v
            } else if f == .onsaleDate {
                draft.onsaleType = attribute(typeName, attributeCount, attributes)
            } else if f == .presaleDate {
                draft.presaleType = attribute(typeName, attributeCount, attributes)
            }
            capture = f.capturesText
            text.removeAll(keepingCapacity: true)
        case 5:
            guard inRecord, field == .artistIDs else {
                if inRecord { collector.unknownElement(Self.string(localname)) }
                return
            }
            guard Self.same(localname, artistIDName) else {
                collector.unknownElement(Self.string(localname))
                return
            }
            let id = attribute(idName, attributeCount, attributes) ?? ""
            let type = attribute(typeName, attributeCount, attributes)
            draft.artistRefs.append((id, type == "Primary"))
        default:
            if inRecord { collector.unknownElement(Self.string(localname)) }
        }
    }

    func endElement() {
        textRun = 0
        switch depth {
        case 4:
            if capture, let f = field {
                if f.isURL { replacePlaceholder() }
                draft[f] = text.withUnsafeBufferPointer { TextNormalizer.clean($0) }
            }
            capture = false
            field = nil
        case 3:
            if inRecord {
                collector.finish(draft)
                inRecord = false
            }
        case 2:
            section = nil
        default:
            break
        }
        depth -= 1
    }

    private static let placeholder = Array("[=CAMEFROM=]".utf8)

    /// Replaces `[=CAMEFROM=]` in the captured URL bytes (feed.md "Normalisation"), on bytes:
    /// Foundation's string search costs more than the whole XML parse.
    private func replacePlaceholder() {
        let p = Self.placeholder
        guard text.count >= p.count, let start = text.firstIndex(of: p[0]) else { return }
        var out: [UInt8] = []
        var i = 0
        var found = false
        while i < text.count {
            if i >= start && text[i] == p[0] && i + p.count <= text.count && text[i..<i + p.count].elementsEqual(p) {
                if !found {
                    out.reserveCapacity(text.count + camefrom.count)
                    out.append(contentsOf: text[0..<i])
                    found = true
                }
                out.append(contentsOf: camefrom)
                i += p.count
                continue
            }
            if found { out.append(text[i]) }
            i += 1
        }
        if found { text = out }
    }

    @inline(__always)
    func characters(_ p: UnsafePointer<xmlChar>, _ n: Int) {
        textRun += n
        if textRun > limits.maxTextBytes {
            fail("text longer than \(limits.maxTextBytes) bytes", hint: "feed.limits.maxTextBytes")
            return
        }
        if capture && depth == 4 {
            text.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        }
    }
}
