import Foundation

/// Wall-clock timing for the benchmarks.
public enum Stopwatch {
    /// How long `body` takes, in seconds.
    public static func time(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return seconds(clock.now - start)
    }

    /// The CPU time (user + system, every thread of this process) `body` takes, in seconds.
    public static func cpuTime(_ body: () throws -> Void) rethrows -> Double {
        let start = processCPUSeconds()
        try body()
        return processCPUSeconds() - start
    }

    /// The CPU time this process has used so far (user + system), in seconds.
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// A duration in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Runs each of `bodies` once to warm up, then `repetitions` times taking turns (so that a
    /// change in machine load affects all alike), and returns the fastest time of each: noise from
    /// other processes only ever adds time, so the minimum is the steadiest estimate.
    ///
    /// `prepare` runs before every timed call of body `index` and is not timed (copying a
    /// database file, for instance).
    public static func fastest(
        repetitions: Int,
        warmUp: Bool = true,
        prepare: (Int) throws -> Void = { _ in },
        _ bodies: [() throws -> Void]
    ) throws -> [Double] {
        var best = Array(repeating: Double.infinity, count: bodies.count)
        for round in (warmUp ? 0 : 1)...max(1, repetitions) {
            for (index, body) in bodies.enumerated() {
                try prepare(index)
                let elapsed = try time(body)
                if round > 0 { best[index] = min(best[index], elapsed) }
            }
        }
        return best
    }
}
