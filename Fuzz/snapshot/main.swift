// libFuzzer target: the snapshot reader's parsers. The first byte chooses: 0 a manifest,
// 1 a key index, 2 a dataset file (seek table, frames, records and their references),
// 3 a binary key table (header, directory, blocks, lookups).
// Build and run: scripts/fuzz.sh snapshot SECONDS
import Foundation
import TonightFuzzSupport
import TonightCore
import TonightSnapshot

let directory = FuzzSupport.scratch("snapshot")
let scanner = RecordScanner(ReferenceRule.standard.filter { $0.dataset == "explore" || $0.dataset == "alerts" })

FuzzSupport.run { data, size in
    guard size > 0 else { return }
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    switch data[0] % 4 {
    case 0:
        let url = directory.appendingPathComponent("manifest.json")
        FuzzSupport.write(data + 1, size - 1, to: url)
        _ = try? SnapshotManifest.read(url.path)
    case 1:
        if let index = try? KeyIndex(ndjson: Array(body), path: "index") {
            for key in ["", "a", "m", "zzzz", "gsDYBAAAAA"] { _ = index.frame(for: key) }
        }
    case 3:
        let url = directory.appendingPathComponent("dataset.keys")
        FuzzSupport.write(data + 1, size - 1, to: url)
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        guard fd >= 0, let table = try? KeyTable(fd: fd, path: url.path, fileSize: size - 1) else { return }
        for key in ["", "a", "m", "zzzz", "gsDYBAAAAA"] {
            var k = key
            _ = k.withUTF8 { try? table.frame(for: $0) }
        }
        for i in 0..<min(table.frames, 8) { _ = try? table.frame(i) }
    default:
        let url = directory.appendingPathComponent("dataset.ndjson.zst")
        FuzzSupport.write(data + 1, size - 1, to: url)
        guard let file = try? SeekableZstdFile(path: url.path) else { return }
        for i in 0..<min(file.frames.count, 8) {
            guard let frame = try? file.frame(i) else { continue }
            for line in frame.split(separator: 0x0A) {
                Array(line).withUnsafeBufferPointer { _ = try? scanner.scan($0) { _, _ in } }
            }
        }
    }
}
