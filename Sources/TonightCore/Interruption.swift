import TonightBase
import Dispatch
import Foundation

/// SIGTERM and SIGINT, which systemd and Kubernetes send before they kill: the job stops at the
/// next safe point (`check()`, called between stages and in the long loops), marks its run
/// `interrupted`, removes its partial output and exits 143 (SIGTERM) or 130 (SIGINT). A stage
/// that does not reach a safe point within `grace` seconds is cut short the same way by the
/// `forcedExit` cleanup, on the signal's own thread.
package enum Interruption {
    private static let state = Locked<(signal: Int32?, cleanup: (@Sendable () -> Void)?)>((nil, nil))
    private static let sources = Locked<[DispatchSourceSignal]>([])
    /// Seconds between the signal and the forced exit.
    package static let grace = 10.0

    /// Handles SIGTERM and SIGINT from now on (idempotent).
    package static func install() {
        sources.withLock { list in
            guard list.isEmpty else { return }
            for sig in [SIGTERM, SIGINT] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { received(sig) }
                source.resume()
                list.append(source)
            }
        }
    }

    static func received(_ sig: Int32) {
        let first = state.withLock { s -> Bool in
            guard s.signal == nil else { return false }
            s.signal = sig
            return true
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            state.current.cleanup?()
            _exit(128 + sig)
        }
    }

    /// The signal received, if any.
    package static var caught: Int32? { state.current.signal }

    /// Throws the interruption if a signal arrived (a safe point).
    package static func check() throws {
        if let sig = caught { throw TonightError.interrupted(signal: sig) }
    }

    /// What to do if the work does not stop within the grace period (mark the run, remove
    /// partial output); nil to clear.
    package static func setForcedExitCleanup(_ body: (@Sendable () -> Void)?) {
        state.withLock { $0.cleanup = body }
    }
}
