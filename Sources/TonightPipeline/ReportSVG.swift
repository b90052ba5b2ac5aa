import Foundation

/// The report's pictures as inline SVG (no script, no external resource): each is scaled to
/// its container (`viewBox`, `width="100%"`), so no picture makes the page wider.
enum ReportSVG {
    static let width = 900.0

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func f(_ x: Double) -> String { String(format: "%.1f", x) }

    static func open(height: Double, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(width)) \(f(height))\" width=\"100%\" role=\"img\" aria-label=\"\(escape(label))\">"
    }

    /// One row per stage: a bar from its start to its end on the run's time axis, blue when it
    /// ran, grey and hatched when reused, red when it failed; labels with the seconds.
    static func timeline(_ stages: [(name: String, action: String, start: Double, seconds: Double)]) -> String {
        let rowH = 26.0, left = 140.0, right = 110.0
        let total = max(0.001, stages.map { $0.start + $0.seconds }.max() ?? 0)
        let scale = (width - left - right) / total
        var s = open(height: Double(stages.count) * rowH + 30, label: "stage timeline")
        s += "<defs><pattern id=\"reuse\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        s += "<rect width=\"6\" height=\"6\" fill=\"#d5dde0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9aa9ae\" stroke-width=\"2\"/></pattern></defs>"
        for (i, st) in stages.enumerated() {
            let y = Double(i) * rowH
            let x = left + st.start * scale, w = max(2, st.seconds * scale)
            let fill = st.action == "run" ? "#3b7dd8" : st.action == "reuse" ? "url(#reuse)" : st.action == "not run" ? "#eeeeee" : "#d8453b"
            s += "<text x=\"0\" y=\"\(f(y + 17))\" font-size=\"13\">\(escape(st.name))</text>"
            s += "<rect x=\"\(f(x))\" y=\"\(f(y + 4))\" width=\"\(f(w))\" height=\"18\" fill=\"\(fill)\"><title>\(escape(st.name)): \(escape(st.action)), \(String(format: "%.2f", st.seconds)) s from \(String(format: "%.2f", st.start)) s</title></rect>"
            s += "<text x=\"\(f(x + w + 5))\" y=\"\(f(y + 17))\" font-size=\"12\">\(String(format: "%.2f s", st.seconds)) \(escape(st.action))</text>"
        }
        let axisY = Double(stages.count) * rowH + 18
        s += "<line x1=\"\(f(left))\" y1=\"\(f(axisY - 12))\" x2=\"\(f(width - right))\" y2=\"\(f(axisY - 12))\" stroke=\"#888\"/>"
        for k in 0...4 {
            let t = total * Double(k) / 4
            let format = total < 1 ? "%.2f s" : total < 10 ? "%.1f s" : "%.0f s"
            s += "<text x=\"\(f(left + t * scale))\" y=\"\(f(axisY + 4))\" font-size=\"11\" text-anchor=\"middle\">\(String(format: format, t))</text>"
        }
        return s + "</svg>"
    }

    /// Horizontal bars with labels and values (rejects by reason, geocoding precision).
    static func bars(_ items: [(label: String, value: Double, text: String)], color: String = "#3b7dd8") -> String {
        let rowH = 22.0, left = 260.0, right = 120.0
        let top = max(1e-9, items.map(\.value).max() ?? 0)
        var s = open(height: Double(items.count) * rowH + 6, label: "bar chart")
        for (i, it) in items.enumerated() {
            let y = Double(i) * rowH, w = max(1, (width - left - right) * it.value / top)
            s += "<text x=\"0\" y=\"\(f(y + 15))\" font-size=\"12\">\(escape(String(it.label.prefix(40))))</text>"
            s += "<rect x=\"\(f(left))\" y=\"\(f(y + 3))\" width=\"\(f(w))\" height=\"15\" fill=\"\(color)\"/>"
            s += "<text x=\"\(f(left + w + 5))\" y=\"\(f(y + 15))\" font-size=\"12\">\(escape(it.text))</text>"
        }
        return s + "</svg>"
    }

    /// A histogram of list lengths: one column per length (or per bucket of lengths when there
    /// are more than 60), heights by lists, axis labels at the ends.
    static func histogram(_ l: ListLengths, label: String) -> String {
        let lengths = l.counts.keys.sorted()
        guard let maxLen = lengths.last else { return "" }
        let bucket = max(1, Int((Double(maxLen) / 60).rounded(.up)))
        var counts: [Int: Int] = [:]
        for (len, c) in l.counts { counts[len / bucket, default: 0] += c }
        let columns = maxLen / bucket + 1
        let height = 140.0, left = 50.0, bottom = 24.0
        let top = Double(counts.values.max() ?? 1)
        let colW = (width - left - 10) / Double(columns)
        var s = open(height: height + bottom, label: label)
        for (b, c) in counts.sorted(by: { $0.key < $1.key }) {
            let h = max(1, (height - 10) * Double(c) / top)
            let from = b * bucket, to = from + bucket - 1
            let range = bucket == 1 ? "\(from)" : "\(from)–\(to)"
            s += "<rect x=\"\(f(left + Double(b) * colW))\" y=\"\(f(height - h))\" width=\"\(f(max(1, colW - 1)))\" height=\"\(f(h))\" fill=\"#3b7dd8\"><title>length \(range): \(c) lists</title></rect>"
        }
        s += "<line x1=\"\(f(left))\" y1=\"\(f(height))\" x2=\"\(f(width - 10))\" y2=\"\(f(height))\" stroke=\"#888\"/>"
        s += "<text x=\"\(f(left))\" y=\"\(f(height + 16))\" font-size=\"11\">0</text>"
        s += "<text x=\"\(f(width - 10))\" y=\"\(f(height + 16))\" font-size=\"11\" text-anchor=\"end\">length \(maxLen)</text>"
        s += "<text x=\"0\" y=\"12\" font-size=\"11\">\(Int(top))</text><text x=\"0\" y=\"\(f(height))\" font-size=\"11\">0</text>"
        return s + "</svg>"
    }

    /// A small line of a figure over the last runs (the last point is tonight's, red when
    /// flagged).
    static func sparkline(_ values: [Double], flagged: Bool) -> String {
        guard values.count >= 2 else { return "" }
        let w = 120.0, h = 24.0
        let lo = values.min()!, hi = values.max()!
        let span = max(hi - lo, 1e-9)
        let pts = values.enumerated().map { i, v in (Double(i) * (w - 4) / Double(values.count - 1) + 2, h - 3 - (v - lo) / span * (h - 6)) }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(w)) \(f(h))\" width=\"120\" height=\"24\" role=\"img\" aria-label=\"trend\">"
        s += "<polyline fill=\"none\" stroke=\"#3b7dd8\" stroke-width=\"1.5\" points=\"\(pts.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))\"/>"
        let last = pts.last!
        s += "<circle cx=\"\(f(last.0))\" cy=\"\(f(last.1))\" r=\"3\" fill=\"\(flagged ? "#d8453b" : "#3b7dd8")\"/>"
        return s + "</svg>"
    }
}
