import TonightBase

/// Text from inputs (user ids, affinity names, paths, error messages) made literal in
/// `report.md`: an id like `<img src=x onerror=…>` was raw HTML to every Markdown viewer
/// that renders it, and `*`, `_` or a backtick changed how the rest of the line read.
enum MarkdownText {
    /// Characters that mean something to CommonMark or GitHub's tables in running text.
    private static let special: Set<Unicode.Scalar> = ["`", "*", "_", "<", ">", "[", "]", "&", "\\", "|", "~"]

    /// `text` as it is when nothing in it has a Markdown meaning, else as a code span (which
    /// shows every character as it is: no HTML, no entities, no emphasis).
    /// Control characters are escaped first (`Quoted.line`): a line break would end the
    /// list item or table row, an escape sequence act on the terminal of whoever reads
    /// the file with `cat`.
    static func literal(_ text: String) -> String {
        let text = Quoted.line(text)
        return text.unicodeScalars.contains(where: special.contains) ? code(text) : text
    }

    /// `text` as a code span, fenced by more backticks than any run of them in it, with a
    /// space inside each fence where the text starts or ends with a backtick or a space
    /// (CommonMark strips exactly one such space from each side).
    static func code(_ text: String) -> String {
        let text = Quoted.line(text)
        let fence = String(repeating: "`", count: longestBacktickRun(text) + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") || text.hasPrefix(" ") || text.hasSuffix(" ") ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// `text` as a fenced code block (a fence line no line of the text can close).
    static func block(_ text: String) -> String {
        let text = Quoted.lines(text)
        let fence = String(repeating: "`", count: max(3, longestBacktickRun(text) + 1))
        return fence + "\n" + text + "\n" + fence
    }

    private static func longestBacktickRun(_ text: String) -> Int {
        var longest = 0
        var run = 0
        for b in text.utf8 {
            run = b == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
