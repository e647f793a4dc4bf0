import StrataRuntime
import Testing

/// The ledger decisions both migrators share, on ledgers given as values (no database).
@Suite struct MigrationPlanTests {
    static let plan = StrataMigrationPlan(
        model: "M",
        migrations: [
            StrataMigration(version: 2, sql: "CREATE TABLE b (x INTEGER)"),
            StrataMigration(version: 1, sql: "CREATE TABLE a (x INTEGER)"),
        ])

    static func entry(_ version: Int, model: String = "M", checksum: String? = nil) -> AppliedStrataMigration {
        AppliedStrataMigration(
            model: model, version: version, checksum: checksum ?? plan.migrations[version - 1].checksum, appliedAt: 0)
    }

    @Test func pendingFollowsTheLedgerAndTheTarget() throws {
        #expect(try Self.plan.pending([]).map(\.version) == [1, 2])
        #expect(try Self.plan.pending([], to: 1).map(\.version) == [1])
        #expect(try Self.plan.pending([Self.entry(1)]).map(\.version) == [2])
        #expect(try Self.plan.pending([Self.entry(1), Self.entry(2)]).isEmpty)
        #expect(throws: StrataMigrationError.cannotDowngrade(model: "M", databaseVersion: 2, target: 1)) {
            try Self.plan.pending([Self.entry(1), Self.entry(2)], to: 1)
        }
        #expect(throws: StrataMigrationError.unknownTargetVersion(model: "M", target: 3, latestKnownVersion: 2)) {
            try Self.plan.pending([], to: 3)
        }
    }

    @Test func aBaselineRecordsVersionsOneToNOfAnEmptyLedgerOnly() throws {
        #expect(try Self.plan.baseline([], at: 1) == [Self.plan.migrations[0]])
        #expect(try Self.plan.baseline([], at: 2) == Self.plan.migrations)
        #expect(throws: StrataMigrationError.ledgerNotEmpty(model: "M", recorded: 1)) {
            try Self.plan.baseline([Self.entry(1)], at: 2)
        }
        for version in [0, 3] {
            let refusal = StrataMigrationError.unknownTargetVersion(model: "M", target: version, latestKnownVersion: 2)
            #expect(throws: refusal) { try Self.plan.baseline([], at: version) }
        }
    }

    @Test func ledgersThatAreRefused() {
        #expect(throws: StrataMigrationError.otherModel(expected: "M", found: "N")) {
            try Self.plan.currentVersion([Self.entry(1, model: "N")])
        }
        #expect(throws: StrataMigrationError.databaseIsNewer(
            model: "M", databaseVersion: 3, latestKnownVersion: 2, firstIncompatibleVersion: 3, reason: nil)) {
            try Self.plan.currentVersion([
                Self.entry(1), Self.entry(2),
                AppliedStrataMigration(model: "M", version: 3, checksum: "x", appliedAt: 0),
            ])
        }
        #expect(throws: StrataMigrationError.ledgerHasGap(model: "M", missing: 1)) {
            try Self.plan.currentVersion([Self.entry(2)])
        }
        let recorded = "0000"
        #expect(
            throws: StrataMigrationError.checksumMismatch(
                model: "M", version: 1, recorded: recorded, expected: Self.plan.migrations[0].checksum)
        ) {
            try Self.plan.currentVersion([Self.entry(1, checksum: recorded)])
        }
        #expect(throws: StrataMigrationError.invalidMigrationList(model: "M", versions: [1, 3])) {
            try StrataMigrationPlan(
                model: "M", migrations: [StrataMigration(version: 1, sql: "x"), StrataMigration(version: 3, sql: "y")]
            ).currentVersion([])
        }
    }

    /// A row of a version the plan does not know, recording the oldest code that runs against it.
    static func ahead(_ version: Int, compatibleFrom: Int?, reason: String? = nil) -> AppliedStrataMigration {
        AppliedStrataMigration(
            model: "M", version: version, checksum: "v\(version)", appliedAt: 0, compatibleFrom: compatibleFrom,
            incompatibility: reason)
    }

    @Test func aDatabaseAheadIsAcceptedWhenEveryVersionBeyondIsCompatibleWithTheCode() throws {
        let ledger = [Self.entry(1), Self.entry(2), Self.ahead(3, compatibleFrom: 2), Self.ahead(4, compatibleFrom: 1)]
        #expect(try Self.plan.currentVersion(ledger) == 4)
        #expect(try Self.plan.pending(ledger).isEmpty)
        #expect(Self.plan.isAhead(ledger))
        // Never a downgrade, even asked for the code's latest version.
        #expect(throws: StrataMigrationError.cannotDowngrade(model: "M", databaseVersion: 4, target: 2)) {
            try Self.plan.pending(ledger, to: 2)
        }
        // The checksums of the versions the code knows are still checked.
        #expect(throws: StrataMigrationError.checksumMismatch(
            model: "M", version: 2, recorded: "x", expected: Self.plan.migrations[1].checksum)) {
            try Self.plan.currentVersion([Self.entry(1), Self.entry(2, checksum: "x"), Self.ahead(3, compatibleFrom: 1)])
        }
        // A gap above the code's versions is still a gap.
        #expect(throws: StrataMigrationError.ledgerHasGap(model: "M", missing: 3)) {
            try Self.plan.currentVersion([Self.entry(1), Self.entry(2), Self.ahead(4, compatibleFrom: 1)])
        }
    }

    @Test func aDatabaseAheadIsRefusedAtItsFirstVersionIncompatibleWithTheCode() throws {
        // v4 allows code from v3 on, not the code at v2: transitively refused even though v3 allows v2.
        let ledger = [
            Self.entry(1), Self.entry(2), Self.ahead(3, compatibleFrom: 2),
            Self.ahead(4, compatibleFrom: 3, reason: "renames Post.title to headline"),
        ]
        #expect(throws: StrataMigrationError.databaseIsNewer(
            model: "M", databaseVersion: 4, latestKnownVersion: 2, firstIncompatibleVersion: 4,
            reason: "renames Post.title to headline")) {
            try Self.plan.pending(ledger)
        }
        let message = "\(StrataMigrationError.databaseIsNewer(model: "M", databaseVersion: 4, latestKnownVersion: 2, firstIncompatibleVersion: 4, reason: "renames Post.title to headline"))"
        #expect(message.contains("v4 is not compatible with the code of v3: it renames Post.title to headline"))
        // A row written before Strata recorded compatibility (NULL) is incompatible.
        #expect(throws: StrataMigrationError.databaseIsNewer(
            model: "M", databaseVersion: 3, latestKnownVersion: 2, firstIncompatibleVersion: 3, reason: nil)) {
            try Self.plan.currentVersion([Self.entry(1), Self.entry(2), Self.ahead(3, compatibleFrom: nil)])
        }
    }

    @Test func legacyChecksumsCountOnlyForTheVersionsBeforeTheDateConversion() throws {
        let plan = StrataMigrationPlan(
            model: "M",
            migrations: [
                StrataMigration(
                    version: 1, sql: "CREATE TABLE a (x REAL DEFAULT 0)", checksum: "new1", legacyChecksum: "old1"),
                StrataMigration(
                    version: 2, sql: "CREATE TABLE b (x REAL DEFAULT 0)", checksum: "new2", legacyChecksum: "old2"),
            ])
        let ledger = [
            AppliedStrataMigration(model: "M", version: 1, checksum: "old1", appliedAt: 0),
            AppliedStrataMigration(model: "M", version: 2, checksum: "new2", appliedAt: 0),
        ]
        #expect(try plan.currentVersion(ledger, legacyVersions: 1) == 2)
        #expect(
            throws: StrataMigrationError.checksumMismatch(model: "M", version: 1, recorded: "old1", expected: "new1")
        ) {
            try plan.currentVersion(ledger)
        }
    }

    @Test func aVersionAnotherProcessAppliedMeanwhileIsSkipped() throws {
        let second = Self.plan.migrations[1]
        #expect(try Self.plan.needsApplying(second, ledger: [Self.entry(1)]))
        #expect(try !Self.plan.needsApplying(second, ledger: [Self.entry(1), Self.entry(2)]))
    }
}
