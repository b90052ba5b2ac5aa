import TonightBase
import TonightCore

/// A record left out of the tables, with its reason (feed.md "Validation").
package struct FeedRejection: Sendable, Equatable {
    package var section: String
    package var id: String?
    package var line: Int
    package var reason: String
    package var detail: String

    /// `id` is the record's ID attribute as it came, so it is quoted (`TonightError.quoted`,
    /// up to 200 characters; a valid id is unchanged), and `detail` has its control
    /// characters escaped: both are read by people, in the rejects file and the report.
    package init(section: String, id: String?, line: Int, reason: String, detail: String) {
        self.section = section
        self.id = id.map { TonightError.quoted($0, limit: 200) }
        self.line = line
        self.reason = reason
        self.detail = Quoted.line(detail)
    }
}
