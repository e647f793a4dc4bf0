import Foundation

/// The suite's output: a table for people, or JSON with the same figures.
public struct Report: Sendable {
    /// The figures, in section order.
    public var figures: [Figure]
    /// How the run was configured (rows, sizes, repetitions, …), for the header and the JSON.
    public var settings: [String: String]
    /// The sections that could not be measured, with why (the others' figures are still reported).
    public var failures: [String: String]

    /// A report.
    public init(figures: [Figure], settings: [String: String], failures: [String: String] = [:]) {
        self.figures = figures
        self.settings = settings
        self.failures = failures
    }

    /// The figures that have a target and miss it.
    public var missed: [Figure] { figures.filter { !$0.meetsTarget } }

    /// The table.
    public func table() -> String {
        let header = ["section", "figure", "value", "baseline", "baseline value", "ratio", "target"]
        var rows: [[String]] = []
        for figure in figures {
            rows.append([
                figure.section.rawValue, figure.name, Format.value(figure.value, figure.unit), figure.baselineName,
                Format.value(figure.baseline, figure.unit), Format.ratio(figure.ratio), Self.describe(figure),
            ])
        }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let rightAligned: Set<Int> = [2, 4, 5]
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var out = ["Strata performance suite: " + settings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "), ""]
        out.append(line(header))
        out.append(line(widths.map { String(repeating: "-", count: $0) }))
        var section: Section?
        for (figure, row) in zip(figures, rows) {
            if let section, section != figure.section { out.append("") }
            section = figure.section
            out.append(line(row))
        }
        let details = figures.filter { $0.detail != nil }
        if !details.isEmpty {
            out.append("")
            for figure in details { out.append("  \(figure.name): \(figure.detail ?? "")") }
        }
        let targets = figures.filter { $0.target != nil }
        out.append("")
        out.append("targets: \(targets.count - missed.count) of \(targets.count) met" + (missed.isEmpty ? "" : "; missed:"))
        for figure in missed { out.append("  - \(figure.name): \(Self.describe(figure))") }
        for (section, reason) in failures.sorted(by: { $0.key < $1.key }) {
            out.append("FAILED section \(section): \(reason)")
        }
        return out.joined(separator: "\n")
    }

    /// `<= 1.15x met`, `< 2.00 s MISSED`, or empty.
    static func describe(_ figure: Figure) -> String {
        guard let target = figure.target else { return "" }
        let verdict = figure.meetsTarget ? "met" : "MISSED"
        switch target.kind {
        case .ratioAtMost: return "<= \(Format.ratio(target.limit)) \(verdict)"
        case .valueBelow: return "< \(Format.value(target.limit, figure.unit)) \(verdict)"
        case .valueAtMost: return "<= \(Format.value(target.limit, figure.unit)) \(verdict)"
        }
    }

    /// The JSON: the settings, every figure (with `met` where it has a target), and the counts.
    public func json() throws -> String {
        struct Entry: Encodable {
            var figure: Figure
            var met: Bool?

            enum Keys: String, CodingKey { case met }

            func encode(to encoder: Encoder) throws {
                try figure.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encodeIfPresent(met, forKey: .met)
            }
        }
        struct Document: Encodable {
            var settings: [String: String]
            var figures: [Entry]
            var targets: Int
            var targetsMissed: Int
            var failures: [String: String]
        }
        let document = Document(
            settings: settings,
            figures: figures.map { Entry(figure: $0, met: $0.target == nil ? nil : $0.meetsTarget) },
            targets: figures.filter { $0.target != nil }.count,
            targetsMissed: missed.count,
            failures: failures)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}
