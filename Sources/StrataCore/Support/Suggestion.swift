/// "did you mean" suggestions by edit distance.
enum Suggestion {
    /// The candidate nearest to `word`, if it is near enough to be a plausible typo.
    /// Only names of similar length are compared (a suggestion is at most 3 edits away), and none
    /// for a word longer than ``Limits/nameLength``: the work is bounded whatever the input.
    static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let length = word.unicodeScalars.count
        guard length <= Limits.nameLength else { return nil }
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates
        where abs(candidate.unicodeScalars.count - length) <= Limits.suggestionLengthDifference {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        guard let best else { return nil }
        let limit = max(1, min(3, (word.count + 2) / 3))
        return best.distance <= limit ? best.name : nil
    }

    /// `; did you mean 'x'?` or the empty string.
    static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
