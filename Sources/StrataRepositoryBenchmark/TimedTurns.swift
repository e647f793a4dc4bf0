/// Times two implementations of one operation, taking turns: the generated one first on even
/// repetitions, the hand-written one first on odd ones, so that neither always runs on a warm cache.
enum TimedTurns {
    /// The seconds `generated` and `handWritten` took, in that order.
    static func run(repetition: Int, generated: () throws -> Void, handWritten: () throws -> Void) throws
        -> (generated: Double, handWritten: Double)
    {
        if repetition.isMultiple(of: 2) {
            let g = try time(generated)
            return (g, try time(handWritten))
        }
        let r = try time(handWritten)
        return (try time(generated), r)
    }

    /// The seconds `body` took.
    static func time(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
