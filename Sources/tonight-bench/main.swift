import Foundation
import TonightFeed
import TonightCore
let url = URL(fileURLWithPath: CommandLine.arguments[1])
do {
let t0 = Date()
let r = try FeedParser.parse(url)
print("artists \(r.artists.count) cats \(r.categories.count) venues \(r.venues.count) events \(r.events.count) rejects \(r.rejects.count) warnings \(r.warnings) in \(Date().timeIntervalSince(t0))")
var w = JSONWriter()
for e in r.events.prefix(3) { e.writeJSON(to: &w); w.newline() }
for v in r.venues.prefix(3) { v.writeJSON(to: &w); w.newline() }
for v in r.rejects.prefix(3) { v.writeJSON(to: &w); w.newline() }
print(String(decoding: w.bytes, as: UTF8.self))
} catch { print("ERROR \(error)") }
