import CLibXML2
import Foundation
import TonightBase
import TonightCore

/// What parse-feed produces: the four tables, the rejects and the warning counts.
package struct FeedParseResult: Sendable {
    package var artists: [FeedArtist]
    package var categories: [FeedCategory]
    package var venues: [FeedVenue]
    package var events: [FeedEvent]
    package var rejects: [FeedRejection]
    /// Soft problems by kind (`unknown-artist`, `bad-price`, `unknown-element`, …).
    package var warnings: [String: Int]
    /// Unknown element names and how often each occurred.
    package var unknownElements: [String: Int]
    /// Records read per section, kept or not.
    package var seen: [String: Int]
    package var inputBytes: Int64
}

/// Options of the parse-feed stage (config `feed.*`).
package struct FeedParserOptions: Sendable, Equatable {
    package var camefrom = ""
    package var limits = XMLLimits()
    package var input = InputLimits()
    /// Largest share of rejected records per section before the stage fails.
    package var maxRejectShare = 0.05
    /// The root element required; nil only for the well-formedness tests of the engine.
    package var requiredRoot: String? = "Ticketmaster"

    package init() {}
}

/// Streams the Ticketmaster feed through libxml2's SAX2 push parser: memory stays flat in
/// the input size, compressed inputs are decompressed in-process, and every security rule
/// of feed.md applies whatever the input.
package enum FeedParser {
    static let chunkSize = 1 << 18

    /// Parses the feed at `url` (`.xml`, `.xml.gz` or `.xml.zst`, told by magic bytes).
    /// `referenceTablesReady` receives the artists, venues and categories as soon as they are
    /// final (before events are linked), so a caller can write them while linking goes on.
    package static func parse(
        _ url: URL, options: FeedParserOptions = FeedParserOptions(), progress: ((Int64) -> Void)? = nil,
        referenceTablesReady: (([FeedArtist], [FeedVenue], [FeedCategory]) -> Void)? = nil
    ) throws -> FeedParseResult {
        // Read with read(2), never mapped: a feed truncated or replaced in place while it is
        // parsed is an error (the size is checked at the end), not SIGBUS. Read (and
        // decompressed) a few chunks ahead on a thread of its own.
        let source = try InputStreams.open(url, limits: options.input)
        return try parse(ReadAheadChunks(source: source, path: url.path), path: url.path, options: options, progress: progress,
                         referenceTablesReady: referenceTablesReady)
    }

    static func parse(
        _ input: some ChunkSource, path: String, options: FeedParserOptions, progress: ((Int64) -> Void)? = nil,
        referenceTablesReady: (([FeedArtist], [FeedVenue], [FeedCategory]) -> Void)? = nil
    ) throws -> FeedParseResult {
        let traceStart = DispatchTime.now().uptimeNanoseconds
        let queue = Handoff<RawRecordBatch>(capacity: 4)
        let spare = Locked<[RawRecordBatch]>([])
        let handler = FeedSAXHandler(path: path, limits: options.limits, requiredRoot: options.requiredRoot, queue: queue, spare: spare)
        // Record building (strings, numbers, dates, validation) runs on a second thread while
        // libxml2 parses: the two cores share the work. Emptied batches come back through
        // `spare`, so their buffers are reused (no frees on another thread).
        let built = Locked<FeedCollector?>(nil)
        let builder = BackgroundJob()
        let camefrom = options.camefrom
        builder.start {
            var decoder = RawRecordDecoder(camefrom: camefrom)
            var collector = FeedCollector(camefrom: camefrom)
            while let batch = queue.take() {
                decoder.decode(batch, into: &collector)
                spare.withLock { if $0.count < 6 { $0.append(batch) } }
            }
            built.withLock { $0 = collector }
        }
        defer {
            queue.cancel()
            try? builder.join()
        }
        let unmanaged = Unmanaged.passRetained(handler)
        defer { unmanaged.release() }
        let context = try XMLParserContext(
            handler: makeSAXHandler(), userData: unmanaged.toOpaque(), filename: path)
        handler.attach(context)

        var total: Int64 = 0
        let tags = StartTagScan(maxAttributes: options.limits.maxAttributes)
        try input.forEachChunk(scanning: tags) { chunk, violation in
            try Interruption.check()
            if let v = violation {
                // Let libxml2 read up to the tag's `<` (not the tag) so that its position is the
                // tag's, then stop.
                let at = Int(v.offset - total)
                if at >= 0 && at < chunk.count { _ = context.parse(UnsafeRawBufferPointer(rebasing: chunk[0...at]), terminate: false) }
                throw TonightError(
                    .invalidInput, "element has more than \(options.limits.maxAttributes) attributes (namespace declarations included)",
                    file: path, line: context.line, column: context.column, hint: "feed.limits.maxAttributes")
            }
            if chunk.isEmpty && total == 0 {
                throw TonightError(.invalidInput, "the feed is empty (0 bytes)", file: path, line: 1, column: 1,
                                   hint: "the delivery is incomplete: fetch it again")
            }
            total += Int64(chunk.count)
            let rc = context.parse(chunk, terminate: chunk.isEmpty)
            if let failure = handler.failure { throw failure }
            if rc != 0 || context.ctxt.pointee.wellFormed == 0 {
                if handler.depthReached == 0 {
                    throw TonightError(.invalidInput, "the feed has no root element (it holds only white space, comments or declarations)",
                                       file: path, line: context.line, column: context.column, hint: "the delivery is incomplete: fetch it again")
                }
                throw wellFormednessError(context: context, path: path)
            }
            progress?(input.consumedBytes)
        }
        if total == 0 {
            throw TonightError(.invalidInput, "the feed is empty", file: path, line: 1, column: 1)
        }
        handler.flush()
        let saxDone = DispatchTime.now().uptimeNanoseconds
        queue.close()
        try builder.join()
        let buildDone = DispatchTime.now().uptimeNanoseconds

        guard var c = built.current else { throw TonightError(.internal, "the record builder ended without a result", file: path) }
        for (name, count) in handler.unknownElements {
            c.unknownElements[name] = count
        }
        if !c.unknownElements.isEmpty { c.warnings["unknown-element"] = c.unknownElements.count }
        // Artists, venues and categories are final once their own references are resolved.
        c.linkReferenceTables()
        referenceTablesReady?(c.artists, c.venues, c.categories)
        c.link()
        let linkDone = DispatchTime.now().uptimeNanoseconds
        if ProcessInfo.processInfo.environment["TONIGHT_TRACE"] != nil {
            // Phase times of the parse (seconds from the start), for profiling sessions.
            let f = { (t: UInt64) in String(format: "%.3f", Double(t - traceStart) / 1e9) }
            FileHandle.standardError.write(Data("parse-feed trace: sax \(f(saxDone)) builder \(f(buildDone)) link \(f(linkDone))\n".utf8))
        }
        do {
            try checkThresholds(c, path: path, maxShare: options.maxRejectShare, requireAll: options.requiredRoot != nil)
        } catch let e as TonightError {
            throw FailureWithRejects(e, rejects: c.rejects)
        }
        var seen: [String: Int] = [:]
        for s in FeedSection.allCases { seen[s.tableName] = c.seenCount[s.rawValue] }
        return FeedParseResult(
            artists: c.artists, categories: c.categories, venues: c.venues, events: c.events, rejects: c.rejects,
            warnings: c.warnings, unknownElements: c.unknownElements, seen: seen, inputBytes: total)
    }

    /// The stage fails when a section is empty or its rejects exceed the configured share.
    static func checkThresholds(_ c: FeedCollector, path: String, maxShare: Double, requireAll: Bool) throws {
        guard requireAll else { return }
        let kept = [c.artists.count, c.categories.count, c.venues.count, c.events.count]
        for s in FeedSection.allCases {
            let rejected = c.rejects.lazy.filter { $0.section == s.tableName }.count
            let total = kept[s.rawValue] + rejected
            if kept[s.rawValue] == 0 {
                throw TonightError(
                    .invalidInput, "section \(s.elementName) has no valid \(s.recordName) record (\(rejected) rejected)",
                    file: path, hint: "check the feed delivery; see the rejects file for reasons")
            }
            let share = Double(rejected) / Double(max(1, total))
            if share > maxShare {
                throw TonightError(
                    .invalidInput,
                    "\(rejected) of \(total) \(s.tableName) rejected (\(String(format: "%.1f", share * 100)) %), more than the allowed \(String(format: "%.1f", maxShare * 100)) %",
                    file: path, hint: "see the rejects file; raise feed.maxRejectShare only if the feed is known to be degraded")
            }
        }
    }

    static func wellFormednessError(context: XMLParserContext, path: String) -> TonightError {
        if let err = xmlCtxtGetLastError(context.ctxt), err.pointee.code != 0 {
            let e = err.pointee
            var message = e.message.map { String(cString: $0) } ?? "not well-formed XML"
            // libxml2 repeats names from the document (an entity's, a tag's): quoted and cut
            // at 200 characters, so a 40 KB entity name does not make a 40 KB error line.
            message = TonightError.quoted(message.trimmingCharacters(in: .whitespacesAndNewlines), limit: 200)
            let line = e.line > 0 ? Int(e.line) : context.line
            let column = e.int2 > 0 ? Int(e.int2) : context.column
            return TonightError(
                .invalidInput, "not well-formed XML: \(message)", file: path, line: line, column: column,
                hint: "the feed is malformed or truncated: fetch it again or report it to the provider")
        }
        return TonightError(
            .invalidInput, "not well-formed XML", file: path, line: context.line, column: context.column,
            hint: "the feed is malformed or truncated: fetch it again")
    }

    // MARK: the C callback table

    @inline(__always)
    static func handler(_ ctx: UnsafeMutableRawPointer?) -> FeedSAXHandler {
        Unmanaged<FeedSAXHandler>.fromOpaque(ctx!).takeUnretainedValue()
    }

    /// Calls into the handler without a retain/release pair per SAX event (the handler is
    /// kept alive by `parse` for the whole parse).
    @inline(__always)
    static func with<R>(_ ctx: UnsafeMutableRawPointer?, _ body: (FeedSAXHandler) -> R) -> R {
        Unmanaged<FeedSAXHandler>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body)
    }

    static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { ctx, localname, prefix, uri, nbNamespaces, namespaces, nbAttributes, _, attributes in
            guard let localname else { return }
            FeedParser.with(ctx) {
                $0.startElement(localname, prefix: prefix, uri: uri, namespaceCount: Int(nbNamespaces), namespaces: namespaces,
                                attributeCount: Int(nbAttributes), attributes: attributes)
            }
        }
        sax.endElementNs = { ctx, _, _, _ in
            FeedParser.with(ctx) { $0.endElement() }
        }
        sax.characters = { ctx, ch, len in
            guard let ch else { return }
            FeedParser.with(ctx) { $0.characters(ch, Int(len)) }
        }
        sax.ignorableWhitespace = sax.characters
        sax.cdataBlock = { ctx, ch, len in
            guard let ch else { return }
            FeedParser.with(ctx) { $0.characters(ch, Int(len)) }
        }
        // Any DOCTYPE is refused: this is what shuts out entity expansion (billion laughs,
        // quadratic blowup), external entities, external DTDs and parameter entities.
        sax.internalSubset = { ctx, _, _, _ in
            FeedParser.handler(ctx).fail(
                "DOCTYPE declarations are not allowed in the feed (no DTD, no entities)",
                hint: "the real feed has none; this input may be hostile")
        }
        sax.externalSubset = { ctx, _, _, _ in
            FeedParser.handler(ctx).fail("external DTD subsets are not allowed")
        }
        sax.entityDecl = { ctx, _, _, _, _, _ in
            FeedParser.handler(ctx).fail("entity declarations are not allowed")
        }
        sax.getEntity = { _, _ in nil }
        sax.getParameterEntity = { _, _ in nil }
        sax.resolveEntity = { ctx, _, _ in
            FeedParser.handler(ctx).fail("external entities are not allowed")
            return nil
        }
        return sax
    }
}
