// libFuzzer target: the affinity parser (both halves and one pass must agree).
// Build and run: scripts/fuzz.sh affinity SECONDS
import Foundation
import TonightFuzzSupport
import TonightAffinity
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
}
