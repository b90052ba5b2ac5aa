import CLibXML2
import Foundation
import TonightBase
import TonightCore

/// Receives libxml2's SAX2 events for the feed: tracks the element path, enforces the
/// security limits, captures field text and hands finished records to the collector.
/// Names are matched by dictionary pointer, so the hot path does no string work.
final class FeedSAXHandler {
    let path: String
    let limits: XMLLimits
    let requiredRoot: String?
    /// Unknown element names and their counts (the SAX thread's own bookkeeping).
    var unknownElements: [String: Int] = [:]
    /// Every distinct unknown name (element, attribute, namespace prefix or URI) by its
    /// dictionary-interned pointer: bounded by `limits.maxUnknownNames`.
    private var unknownNames = Set<UnsafeRawPointer>()
    /// The first fatal problem: a well-formedness error or a refused construct.
    var failure: TonightError?
    var context: XMLParserContext!
    /// Full batches go here; the record-building thread takes them.
    let queue: Handoff<RawRecordBatch>
    /// Emptied batches, back from the record-building thread.
    let spare: Locked<[RawRecordBatch]>

    // The SAX state is read and written only on libxml2's thread, one callback at a time,
    // never passed `inout`: the dynamic exclusivity checks of every access (~180 M
    // instructions on the realistic feed, 2 % of the parse, on its critical thread) are off
    // for these properties (parse-feed-log.md, "Instructions, not samples").
    @exclusivity(unchecked) private var depth = 0
    /// The deepest nesting seen (0: no element yet).
    @exclusivity(unchecked) private(set) var depthReached = 0
    @exclusivity(unchecked) private var section: FeedSection?
    @exclusivity(unchecked) private var inRecord = false
    @exclusivity(unchecked) private var field: FeedField?
    @exclusivity(unchecked) private var capture = false
    @exclusivity(unchecked) private var itemStart = 0
    /// Where the next field's name is looked for first (`fieldNames`' index).
    @exclusivity(unchecked) private var nextField = 0
    /// Bytes of text in the current text node run (outside captured fields).
    @exclusivity(unchecked) private var textRun = 0
    /// Bytes of the captured field's whole text, across any elements inside it.
    @exclusivity(unchecked) private var fieldBytes = 0
    /// The records being written (handed over as a `RawRecordBatch` when full).
    @exclusivity(unchecked) private var batch: RawRecordBuffer
    private static let batchBytes = 1 << 18

    // Interned names.
    @exclusivity(unchecked) private var rootName: UnsafePointer<xmlChar>!
    @exclusivity(unchecked) private var idName: UnsafePointer<xmlChar>!
    @exclusivity(unchecked) private var typeName: UnsafePointer<xmlChar>!
    @exclusivity(unchecked) private var artistIDName: UnsafePointer<xmlChar>!
    @exclusivity(unchecked) private var sectionNames: [(UnsafePointer<xmlChar>, FeedSection)] = []
    @exclusivity(unchecked) private var recordNames: [UnsafePointer<xmlChar>] = []
    /// Field names per section, flattened: `fieldNames[fieldStart[s]..<fieldStart[s + 1]]`.
    @exclusivity(unchecked) private var fieldNames: ContiguousArray<(UnsafePointer<xmlChar>, FeedField)> = []
    @exclusivity(unchecked) private var fieldStart: ContiguousArray<Int> = []

    init(path: String, limits: XMLLimits, requiredRoot: String?, queue: Handoff<RawRecordBatch>, spare: Locked<[RawRecordBatch]>) {
        self.path = path
        self.limits = limits
        self.requiredRoot = requiredRoot
        self.queue = queue
        self.spare = spare
        batch = RawRecordBuffer(capacity: Self.batchBytes + (64 << 10))
    }

    deinit { batch.deallocate() }

    func attach(_ context: XMLParserContext) {
        self.context = context
        rootName = context.intern(requiredRoot ?? "Ticketmaster")
        idName = context.intern("ID")
        typeName = context.intern("Type")
        artistIDName = context.intern("ArtistID")
        sectionNames = FeedSection.allCases.map { (context.intern($0.elementName), $0) }
        recordNames = FeedSection.allCases.map { context.intern($0.recordName) }
        fieldStart = [0]
        for s in FeedSection.allCases {
            fieldNames.append(contentsOf: s.fields.map { (context.intern($0.elementName), $0) })
            fieldStart.append(fieldNames.count)
        }
    }

    /// Hands the last partial batch over.
    func flush() {
        if batch.records > 0 { queue.put(RawRecordBatch(batch)) } else { batch.deallocate() }
        batch = RawRecordBuffer(capacity: 0)
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

    /// The raw value of attribute `name`, if present.
    @inline(__always)
    private func attribute(
        _ name: UnsafePointer<xmlChar>, _ count: Int, _ attrs: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> UnsafeBufferPointer<UInt8>? {
        guard let attrs else { return nil }
        for i in 0..<count {
            guard let local = attrs[i * 5], local == name || Self.same(local, name),
                let v = attrs[i * 5 + 3], let end = attrs[i * 5 + 4]
            else { continue }
            return UnsafeBufferPointer(start: v, count: end - v)
        }
        return nil
    }

    private static let primary = Array("Primary".utf8)

    /// Counts a distinct unknown name; false (having failed the parse) past the limit.
    @inline(__always)
    private func noteUnknownName(_ p: UnsafePointer<xmlChar>) -> Bool {
        guard unknownNames.insert(UnsafeRawPointer(p)).inserted else { return true }
        if unknownNames.count > limits.maxUnknownNames {
            fail("more than \(limits.maxUnknownNames) distinct unknown element, attribute or namespace names",
                 hint: "feed.limits.maxUnknownNames; the real feed has a handful")
            return false
        }
        return true
    }

    /// An element this parser does not know: counted once per name, its name length checked.
    private func unknown(_ localname: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?) {
        guard noteUnknownName(localname) else { return }
        let length = strlen(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self))
            + (prefix.map { strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) + 1 } ?? 0)
        if length > limits.maxNameBytes {
            fail("element name longer than \(limits.maxNameBytes) bytes", hint: "feed.limits.maxNameBytes")
            return
        }
        let name = Self.string(localname)
        if unknownElements[name] == nil && unknownElements.count >= 1000 { return }
        unknownElements[name, default: 0] += 1
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        textRun = 0
        if depth > depthReached { depthReached = depth }
        if depth > limits.maxDepth {
            fail("element nesting deeper than \(limits.maxDepth)", hint: "feed.limits.maxDepth")
            return
        }
        if attributeCount + namespaceCount > limits.maxAttributes {
            fail("element has \(attributeCount + namespaceCount) attributes and namespace declarations, more than \(limits.maxAttributes)",
                 hint: "feed.limits.maxAttributes")
            return
        }
        if let namespaces {
            for i in 0..<(2 * namespaceCount) {
                if let p = namespaces[i], !noteUnknownName(p) { return }
            }
        }
        if let attributes {
            for i in 0..<attributeCount {
                if let v = attributes[i * 5 + 3], let e = attributes[i * 5 + 4], e - v > limits.maxTextBytes {
                    fail("attribute value longer than \(limits.maxTextBytes) bytes", hint: "feed.limits.maxTextBytes")
                    return
                }
                if let name = attributes[i * 5], name != idName, name != typeName, !noteUnknownName(name) { return }
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
        case 4:
            guard inRecord, let section else { return }
            field = nil
            let range = fieldStart[section.rawValue]..<fieldStart[section.rawValue + 1]
            // Records list their fields in one order: the one after the last found first.
            if range.contains(nextField) && localname == fieldNames[nextField].0 {
                field = fieldNames[nextField].1
                nextField += 1
            } else {
                for i in range where localname == fieldNames[i].0 {
                    field = fieldNames[i].1
                    nextField = i + 1
                    break
                }
            }
            if field == nil {
                for i in range where Self.same(localname, fieldNames[i].0) {
                    field = fieldNames[i].1
                    break
                }
            }
            guard let f = field else {
                unknown(localname, prefix)
                return
            }
            let code = UInt8(f.rawValue)
            if f.isIDReference {
                if let v = attribute(idName, attributeCount, attributes) { batch.item(code, v) } else { batch.empty(code) }
                capture = false
            } else if f == .artistIDs {
                batch.empty(RawRecordBatch.presentCode)
                capture = false
            } else {
                if f.isTypedDate, let t = attribute(typeName, attributeCount, attributes) {
                    batch.item(f == .onsaleDate ? RawRecordBatch.onsaleTypeCode : RawRecordBatch.presaleTypeCode, t)
                }
                itemStart = batch.beginItem(code)
                capture = true
                fieldBytes = 0
            }
        case 5:
            if capture, let f = field {
                // A text field holding an element: the record is rejected (and its text, split
                // around elements, can never bypass the text limit).
                batch.endItem(itemStart)
                capture = false
                let name = Self.string(localname)
                Array((f.elementName + ">" + name.prefix(100)).utf8).withUnsafeBufferPointer {
                    batch.item(RawRecordBatch.elementInFieldCode, $0)
                }
                return
            }
            guard inRecord, field == .artistIDs, Self.same(localname, artistIDName) else {
                if inRecord { unknown(localname, prefix) }
                return
            }
            if let id = attribute(idName, attributeCount, attributes) {
                batch.item(RawRecordBatch.artistRefCode, id)
            } else {
                batch.empty(RawRecordBatch.artistRefCode)
            }
            if let t = attribute(typeName, attributeCount, attributes), Self.primary.withUnsafeBufferPointer({ ByteScan.equal(t, $0) }) {
                batch.empty(RawRecordBatch.primaryCode)
            }
        case 3:
            guard let section else { return }
            guard Self.same(localname, recordNames[section.rawValue]) else {
                unknown(localname, prefix)
                return
            }
            inRecord = true
            batch.beginRecord(section, line: context.line, column: context.column)
            if let id = attribute(idName, attributeCount, attributes) { batch.item(RawRecordBatch.idCode, id) }
        case 2:
            section = nil
            for (p, s) in sectionNames where Self.same(localname, p) {
                section = s
                break
            }
            if section == nil { unknown(localname, prefix) }
        case 1:
            if !Self.same(localname, rootName) {
                fail("root element is <\(Self.string(localname))>, expected <\(requiredRoot ?? "Ticketmaster")>",
                     hint: "is this the Ticketmaster feed?")
            }
        default:
            if inRecord { unknown(localname, prefix) }
        }
    }

    func endElement() {
        textRun = 0
        switch depth {
        case 4:
            if capture { batch.endItem(itemStart) }
            capture = false
            field = nil
        case 3:
            if inRecord {
                batch.endRecord()
                inRecord = false
                if batch.count >= Self.batchBytes {
                    queue.put(RawRecordBatch(batch))
                    batch = spare.withLock { $0.popLast() }?.takeBuffer() ?? RawRecordBuffer(capacity: Self.batchBytes + (64 << 10))
                }
            }
        case 2:
            section = nil
        default:
            break
        }
        depth -= 1
    }

    @inline(__always)
    func characters(_ p: UnsafePointer<xmlChar>, _ n: Int) {
        if capture && depth == 4 {
            fieldBytes += n
            if fieldBytes > limits.maxTextBytes {
                fail("the text of <\(field?.elementName ?? "?")> is longer than \(limits.maxTextBytes) bytes", hint: "feed.limits.maxTextBytes")
                return
            }
            batch.append(UnsafeBufferPointer(start: p, count: n))
            return
        }
        textRun += n
        if textRun > limits.maxTextBytes {
            fail("text longer than \(limits.maxTextBytes) bytes", hint: "feed.limits.maxTextBytes")
        }
    }
}
