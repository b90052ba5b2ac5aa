import Foundation

/// Progress of a long stage on a terminal: bytes, records, rate and ETA, refreshed twice a
/// second once the stage has taken more than a second. Silent when stderr is not a TTY.
package final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private var stage = ""
    private var bytes: Int64 = 0
    private var totalBytes: Int64 = 0
    private var records: Int64 = 0
    private var started = Date()
    private var thread: Thread?
    private var running = false
    private let enabled: Bool
    private var printed = false

    package init(enabled: Bool = isatty(2) == 1) {
        self.enabled = enabled
    }

    package func begin(stage: String, totalBytes: Int64 = 0) {
        lock.lock()
        self.stage = stage
        self.totalBytes = totalBytes
        bytes = 0
        records = 0
        started = Date()
        running = true
        printed = false
        lock.unlock()
        guard enabled else { return }
        let t = Thread { [weak self] in self?.loop() }
        t.start()
        thread = t
    }

    package func update(bytes: Int64? = nil, records: Int64? = nil) {
        lock.lock()
        if let bytes { self.bytes = bytes }
        if let records { self.records = records }
        lock.unlock()
    }

    package func end() {
        lock.lock()
        running = false
        let wasPrinted = printed
        lock.unlock()
        if enabled && wasPrinted { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
    }

    private func loop() {
        while true {
            Thread.sleep(forTimeInterval: 0.5)
            lock.lock()
            guard running else {
                lock.unlock()
                return
            }
            let elapsed = Date().timeIntervalSince(started)
            let line = elapsed >= 1 ? render(elapsed) : nil
            if line != nil { printed = true }
            lock.unlock()
            if let line { FileHandle.standardError.write(Data(("\r\u{1b}[K" + line).utf8)) }
        }
    }

    private func render(_ elapsed: Double) -> String {
        var s = "\(stage): "
        let mb = Double(bytes) / 1e6
        let rate = mb / max(elapsed, 0.001)
        if totalBytes > 0 {
            s += String(format: "%.1f / %.1f MB", mb, Double(totalBytes) / 1e6)
            let remaining = Double(totalBytes - bytes) / 1e6 / max(rate, 0.001)
            s += String(format: "  %.0f MB/s  ETA %.0fs", rate, max(0, remaining))
        } else if bytes > 0 {
            s += String(format: "%.1f MB  %.0f MB/s", mb, rate)
        }
        if records > 0 { s += "  \(records) records" }
        s += String(format: "  %.1fs", elapsed)
        return s
    }
}
