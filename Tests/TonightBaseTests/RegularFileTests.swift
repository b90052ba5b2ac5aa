import Foundation
import Testing
import TonightBase
import TonightTesting

/// `RegularFile.read` and `readData` (read straight into their memory, no zero fill and no
/// copy): the file's bytes exactly, at sizes around the read sizes, empty files, and the
/// refusals (missing, a FIFO, a directory, more than `maxBytes`).
struct RegularFileTests {
    @Test(arguments: [0, 1, 4095, 4096, 65_537, 3 << 20])
    func readsTheBytesExactly(_ size: Int) throws {
        let dir = temporaryDirectory("regular-file")
        let path = dir.appendingPathComponent("f").path
        var state: UInt64 = UInt64(size) &+ 1
        let bytes = (0..<size).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try RegularFile.read(path) == bytes)
        let data = try RegularFile.readData(path)
        #expect(data.count == size)
        #expect(Array(data) == bytes)
    }

    @Test func refusals() throws {
        let dir = temporaryDirectory("regular-file-refusals")
        func kind(_ body: () throws -> Any) -> RegularFile.Failure.Kind? {
            do {
                _ = try body()
                return nil
            } catch let f as RegularFile.Failure {
                return f.kind
            } catch {
                return nil
            }
        }
        let missing = dir.appendingPathComponent("missing").path
        #expect(kind { try RegularFile.readData(missing) } == .missing)
        #expect(kind { try RegularFile.read(missing) } == .missing)
        #expect(kind { try RegularFile.readData(dir.path) } == .notRegular)
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(kind { try RegularFile.readData(fifo) } == .notRegular)
        let big = dir.appendingPathComponent("big").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 100)))
        #expect(kind { try RegularFile.readData(big, maxBytes: 99) } == .tooLarge)
        #expect(kind { try RegularFile.read(big, maxBytes: 99) } == .tooLarge)
        #expect(try RegularFile.readData(big, maxBytes: 100).count == 100)
    }
}
