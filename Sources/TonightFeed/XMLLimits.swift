/// The security limits of feed.md, all configurable (`feed.limits.*`).
package struct XMLLimits: Sendable, Equatable {
    /// Deepest element nesting accepted.
    package var maxDepth = 32
    /// Longest text node or attribute value, in bytes.
    package var maxTextBytes = 1 << 20
    /// Longest element name (prefix included), in bytes.
    package var maxNameBytes = 1024
    /// Most attributes on one element (namespace declarations included).
    package var maxAttributes = 64
    /// Most distinct names the parser does not know (element, attribute and namespace names):
    /// each is interned by libxml2, whose dictionary slows down past a few hundred thousand.
    package var maxUnknownNames = 1000

    package init() {}
}
