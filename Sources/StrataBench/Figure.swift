/// One measured figure of the suite, with the baseline it is compared to in the same run.
public struct Figure: Codable, Sendable, Equatable {
    /// What a value counts.
    public enum Unit: String, Codable, Sendable {
        /// Wall-clock seconds.
        case seconds
        /// Bytes (peak resident memory).
        case bytes
        /// A plain factor (a growth ratio).
        case factor
    }

    /// The section: `generator`, `repository`, `migration`, `plugin`, `memory`, `compile`, `postgres`, `coredata`, `rebase` or `stalls`.
    public var section: Section
    /// What was measured.
    public var name: String
    /// The measured value.
    public var value: Double
    /// What the baseline is.
    public var baselineName: String
    /// The baseline's value, measured in the same run.
    public var baseline: Double
    /// The unit of `value` and `baseline`.
    public var unit: Unit
    /// `value / baseline`.
    public var ratio: Double
    /// The target this figure is held to, if any.
    public var target: Target?
    /// Extra facts (rows, files, how many times the generator ran, …).
    public var detail: String?

    /// Creates a figure; the ratio is computed.
    public init(
        section: Section, name: String, value: Double, baselineName: String, baseline: Double,
        unit: Unit, target: Target? = nil, detail: String? = nil
    ) {
        self.section = section
        self.name = name
        self.value = value
        self.baselineName = baselineName
        self.baseline = baseline
        self.unit = unit
        self.ratio = baseline > 0 ? value / baseline : 0
        self.target = target
        self.detail = detail
    }

    /// True when the figure has no target or meets it.
    public var meetsTarget: Bool { target?.isMet(by: self) ?? true }
}

/// A figure's target.
public struct Target: Codable, Sendable, Equatable {
    /// What is held to the limit.
    public enum Kind: String, Codable, Sendable {
        /// The ratio value/baseline must be at most `limit`.
        case ratioAtMost
        /// The value must be below `limit` (in the figure's unit).
        case valueBelow
        /// The value must be at most `limit` (in the figure's unit).
        case valueAtMost
    }

    /// What is held to the limit.
    public var kind: Kind
    /// The limit.
    public var limit: Double

    /// The ratio must be at most `limit`.
    public static func ratioAtMost(_ limit: Double) -> Target { Target(kind: .ratioAtMost, limit: limit) }
    /// The value must be below `limit`.
    public static func valueBelow(_ limit: Double) -> Target { Target(kind: .valueBelow, limit: limit) }
    /// The value must be at most `limit`.
    public static func valueAtMost(_ limit: Double) -> Target { Target(kind: .valueAtMost, limit: limit) }

    /// True when `figure` meets the target.
    public func isMet(by figure: Figure) -> Bool {
        switch kind {
        case .ratioAtMost: figure.ratio <= limit
        case .valueBelow: figure.value < limit
        case .valueAtMost: figure.value <= limit
        }
    }
}

/// The sections of the suite, in the order they run and print.
public enum Section: String, Codable, Sendable, CaseIterable {
    /// Generator scale: synthetic models, generate against the YAML parse alone.
    case generator
    /// The repository benchmark: generated against raw SQLite and GRDB Codable.
    case repository
    /// Migration cost on a large SQLite table, against the same change written by hand.
    case migration
    /// Build plugin overhead in a consumer package, against the same package without the plugin.
    case plugin
    /// Peak resident memory.
    case memory
    /// What generated code costs the user's build: `swift build` of it against the model structs alone.
    case compile
    /// The PostgreSQL repository benchmark: generated against hand-written PostgresNIO and FluentKit.
    case postgres
    /// Moving a Core Data store's rows into a new database, against the same copy written by hand in SQL.
    case coredata
    /// `strata rebase` of parallel versions, against `strata generate` of the rebased model.
    case rebase
    /// A writer's longest stall while each change kind's PostgreSQL migration runs, against the writer alone.
    case stalls
}
