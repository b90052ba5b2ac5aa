import CZstd
import Foundation
import TonightBase

/// A dataset's zstd dictionary, digested once for decompression (`ZSTD_DDict`, freed with the
/// value). Checked at open against the manifest's id and SHA-256.
package final class DecompressionDictionary: @unchecked Sendable {
    let ddict: OpaquePointer
    let id: UInt32
    /// The dictionary's bytes, for the copies a scan decompresses after (`PrefixedOutput`).
    let bytes: [UInt8]

    package init(path: String, expectedID: UInt32? = nil, expectedSHA256: String? = nil) throws {
        let bytes = try SnapshotError.reading { try RegularFile.read(path, maxBytes: 16 << 20) }
        if let expectedSHA256, ({ var h = SHA256(); h.update(bytes); return h.finalizeHex() }()) != expectedSHA256 {
            throw SnapshotError(file: path, "dictionary SHA-256 differs from the manifest's")
        }
        id = bytes.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
        guard id != 0 else { throw SnapshotError(file: path, "not a zstd dictionary") }
        if let expectedID, expectedID != id {
            throw SnapshotError(file: path, "dictionary id \(id), the manifest says \(expectedID)")
        }
        guard let d = bytes.withUnsafeBytes({ ZSTD_createDDict($0.baseAddress, $0.count) }) else {
            throw SnapshotError(file: path, "not a zstd dictionary")
        }
        ddict = d
        self.bytes = bytes
    }

    deinit { ZSTD_freeDDict(ddict) }
}
