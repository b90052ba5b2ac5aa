import Foundation

/// CPU time as `getrusage` and `wait4` report it: user plus system seconds.
package enum CPUTime {
    /// The user and system seconds of `usage`.
    package static func seconds(_ usage: rusage) -> Double {
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's user and system seconds so far, every thread's.
    package static func process() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage)
    }
}
