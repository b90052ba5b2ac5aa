// libFuzzer target: the RFC 4180 reader through the Tickets Tonight loader. The input is cut at
// its first two 0xFF bytes: users.csv, favorites.csv, then follows.csv (event ids; a header
// alone when the input has one 0xFF or none).
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
    let parts = bytes.split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
    FuzzSupport.write(Array(parts[0]), to: directory.appendingPathComponent("users.csv"))
    FuzzSupport.write(parts.count > 1 ? Array(parts[1]) : [], to: directory.appendingPathComponent("favorites.csv"))
    FuzzSupport.write(parts.count > 2 ? Array(parts[2]) : Array("user_id,event_id\n".utf8), to: directory.appendingPathComponent("follows.csv"))
    var loader = TicketsLoader(knownArtists: [1, 2, 3], knownEvents: [0xAA], zips: zips)
    loader.maxRejectShare = 1
    loader.csvLimits = CSVLimits(maxFieldBytes: 256, maxFieldLines: 4)
    _ = try? loader.load(directory: directory)
}
