import CLibXML2
import TonightCore

/// Owns a libxml2 push-parser context; freed in deinit. No C type leaves this module.
final class XMLParserContext {
    let ctxt: xmlParserCtxtPtr
    /// The SAX handler table must outlive the context: libxml2 keeps a pointer to it.
    private let sax: UnsafeMutablePointer<xmlSAXHandler>

    init(handler: xmlSAXHandler, userData: UnsafeMutableRawPointer, filename: String) throws {
        sax = .allocate(capacity: 1)
        sax.initialize(to: handler)
        guard let c = xmlCreatePushParserCtxt(sax, userData, nil, 0, filename) else {
            sax.deallocate()
            throw TonightError(.internal, "libxml2: cannot create a parser", file: filename)
        }
        ctxt = c
        // No network, no entity substitution, no DTD loading, no XInclude, no huge limits:
        // only NONET is set on purpose; the unsafe options are simply never switched on.
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue))
        tonight_setUserData(ctxt, userData)
    }

    deinit {
        xmlFreeParserCtxt(ctxt)
        sax.deallocate()
    }

    /// The dictionary-interned pointer for a name: element names reported to SAX callbacks
    /// come from the same dictionary, so known names can be matched by pointer.
    func intern(_ name: String) -> UnsafePointer<xmlChar> {
        tonight_xmlDictLookup(ctxt, name)
    }

    var line: Int { Int(tonight_xmlLine(ctxt)) }
    var column: Int { Int(tonight_xmlColumn(ctxt)) }

    func stop() { xmlStopParser(ctxt) }

    /// Feeds one chunk; `terminate` on the last. Returns libxml2's error code (0 = fine).
    func parse(_ chunk: UnsafeRawBufferPointer, terminate: Bool) -> Int32 {
        xmlParseChunk(
            ctxt, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), terminate ? 1 : 0)
    }
}
