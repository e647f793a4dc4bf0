/// A unified diff of two texts, as `diff -u` prints it, for `strata check` and the golden tests.
public enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The diff from `old` to `new`, or the empty string when they are equal.
    public static func render(old: String, new: String, oldPath: String, newPath: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = diff(a, b)
        var output = "--- \(oldPath)\n+++ \(newPath)\n"
        var index = 0
        while index < edits.count {
            if case .same = edits[index] {
                index += 1
                continue
            }
            // A hunk: from `context` lines before the first change to `context` after the last nearby one.
            let start = max(0, index - context)
            var end = index
            var lastChange = index
            while end < edits.count {
                if case .same = edits[end] {
                    if end - lastChange > context * 2 { break }
                } else {
                    lastChange = end
                }
                end += 1
            }
            end = min(edits.count, lastChange + context + 1)
            let slice = edits[start..<end]
            let oldStart = edits[..<start].filter { if case .added = $0 { false } else { true } }.count
            let newStart = edits[..<start].filter { if case .removed = $0 { false } else { true } }.count
            let oldCount = slice.filter { if case .added = $0 { false } else { true } }.count
            let newCount = slice.filter { if case .removed = $0 { false } else { true } }.count
            output += "@@ -\(oldStart + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(newStart + (newCount > 0 ? 1 : 0)),\(newCount) @@\n"
            for edit in slice {
                switch edit {
                case .same(let line): output += " \(line)\n"
                case .removed(let line): output += "-\(line)\n"
                case .added(let line): output += "+\(line)\n"
                }
            }
            index = end
        }
        return output
    }

    private static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// Longest-common-subsequence edit script; past a size limit, a whole-file replacement.
    private static func diff(_ a: [String], _ b: [String]) -> [Edit] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let midA = Array(a[prefix..<(a.count - suffix)])
        let midB = Array(b[prefix..<(b.count - suffix)])
        var middle: [Edit] = []
        if midA.count * midB.count > 4_000_000 {
            middle = midA.map(Edit.removed) + midB.map(Edit.added)
        } else {
            var table = [[Int]](repeating: [Int](repeating: 0, count: midB.count + 1), count: midA.count + 1)
            for i in stride(from: midA.count - 1, through: 0, by: -1) {
                for j in stride(from: midB.count - 1, through: 0, by: -1) {
                    table[i][j] = midA[i] == midB[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < midA.count || j < midB.count {
                if i < midA.count && j < midB.count && midA[i] == midB[j] {
                    middle.append(.same(midA[i]))
                    i += 1
                    j += 1
                } else if i < midA.count && (j == midB.count || table[i + 1][j] >= table[i][j + 1]) {
                    middle.append(.removed(midA[i]))
                    i += 1
                } else {
                    middle.append(.added(midB[j]))
                    j += 1
                }
            }
        }
        return a[..<prefix].map(Edit.same) + middle + a[(a.count - suffix)...].map(Edit.same)
    }
}
