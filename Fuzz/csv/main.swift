// libFuzzer target: the RFC 4180 reader through the Tickets Tonight loader. The input is cut at
// its first 0xFF byte: before it users.csv, after it favorites.csv.
// Build and run: scripts/fuzz.sh csv SECONDS
import Foundation
import TonightFuzzSupport
import TonightCore
import TonightExports
import TonightGeo

let directory = FuzzSupport.scratch("csv")
let zips = try! ZIPPoints.bundled()

FuzzSupport.run { data, size in
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let cut = bytes.firstIndex(of: 0xFF) ?? size
    FuzzSupport.write(data, cut, to: directory.appendingPathComponent("users.csv"))
    let rest = cut < size ? cut + 1 : size
    FuzzSupport.write(data + rest, size - rest, to: directory.appendingPathComponent("favorites.csv"))
    FuzzSupport.write(Array("user_id,event_id\n".utf8), to: directory.appendingPathComponent("follows.csv"))
    var loader = TicketsLoader(knownArtists: [1, 2, 3], knownEvents: [0xAA], zips: zips)
    loader.maxRejectShare = 1
    loader.csvLimits = CSVLimits(maxFieldBytes: 256, maxFieldLines: 4)
    _ = try? loader.load(directory: directory)
}
