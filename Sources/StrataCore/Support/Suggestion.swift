/// "did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The candidate nearest to `word`, if it is near enough to be a plausible typo.
    /// Only names of similar length are compared (a suggestion is at most 3 edits away), and none
    /// for a word longer than ``Limits/nameLength``: the work is bounded whatever the input.
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let length = word.unicodeScalars.count
        guard length <= Limits.nameLength else { return nil }
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates
        where abs(candidate.unicodeScalars.count - length) <= Limits.suggestionLengthDifference {
            let distance = EditDistance.between(lowered, candidate.lowercased())
            if distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        guard let best else { return nil }
        let limit = max(1, min(3, (word.count + 2) / 3))
        return best.distance <= limit ? best.name : nil
    }

    /// `; did you mean 'x'?` or the empty string.
    package static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
