import TonightCore

/// A record left out of the tables, with its reason (feed.md "Validation").
package struct FeedRejection: Sendable, Equatable {
    package var section: String
    package var id: String?
    package var line: Int
    package var reason: String
    package var detail: String

    package init(section: String, id: String?, line: Int, reason: String, detail: String) {
        self.section = section
        self.id = id
        self.line = line
        self.reason = reason
        self.detail = detail
    }
}
