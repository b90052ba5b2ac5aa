/// The security limits of feed.md, all configurable (`feed.limits.*`).
package struct XMLLimits: Sendable, Equatable {
    /// Deepest element nesting accepted.
    package var maxDepth = 32
    /// Longest text node or attribute value, in bytes.
    package var maxTextBytes = 1 << 20
    /// Longest element name (prefix included), in bytes.
    package var maxNameBytes = 1024
    /// Most attributes on one element.
    package var maxAttributes = 64

    package init() {}
}
