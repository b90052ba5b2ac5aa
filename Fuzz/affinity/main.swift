// libFuzzer target: the affinity parser (both halves and one pass must agree).
// Build and run: scripts/fuzz.sh affinity SECONDS
import Foundation
import TonightFuzzSupport
import TonightAffinity
import TonightBase
import TonightCore

let parser: AffinityParser = {
    var p = AffinityParser(artists: [(1, "Battle At the Boat"), (2, "Showtime Boxing"), (859485, "Showtime Boxing"), (900333, "Guns N Hoses")])
    p.maxRejectShare = 1
    return p
}()

FuzzSupport.run { data, size in
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let split = try? parser.parse(buffer, path: "affinity.txt", split: true)
    let whole = try? parser.parse(buffer, path: "affinity.txt", split: false)
    if (split == nil) != (whole == nil) { fatalError("the two halves and one pass disagree on failing") }
    if let split, let whole, split.edges != whole.edges || split.counts != whole.counts {
        fatalError("the two halves and one pass disagree")
    }
    // Names are keyed from the artists table's bytes (valid UTF-8) through a byte-level fast
    // path where it applies: on any such text it must give Foundation's key (NFKC, case
    // folding, white space collapsed and trimmed).
    for line in buffer.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(8) {
        let bytes = UnsafeBufferPointer(rebasing: line)
        guard let text = String(validating: bytes, as: UTF8.self) else { continue }
        var fromBytes: [UInt8] = []
        TextNormalizer.appendNameKey(bytes, to: &fromBytes)
        if fromBytes != Array(NameKey.general(text).utf8) { fatalError("name key differs from Foundation's for \(Array(bytes))") }
    }
}
