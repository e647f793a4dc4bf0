import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// A rolling version (`migration.rolling: true`): its PostgreSQL migration is the expand, which
/// keeps code of the version before working, its contract file drops what only that code needed,
/// and changes no expand can keep working are errors.
@Suite struct RollingExpandTests {
    static let v1 = """
        model: M
        version: 1
        enums:
          Tier:
            type: String
            cases: [basic, gold]
            unknown: basic
        entities:
          Team:
            fields:
              id: { type: Int64, autoincrement: true }
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              name: { type: String, default: "" }
              code: { type: String, unique: true }
              team: Team?
              tier: { type: Tier, default: basic }
              email: String?
              note: { type: String, default: "" }
            indexes:
              - [name, email]
              - { fields: [code], name: customer_by_code }
              - [note]
        """

    /// Renames (a plain field, a unique one, a reference, an enum), a field filled by a
    /// transform, NULLs filled, a removed field.
    static let v2 = """
        model: M
        version: 2
        enums:
          Tier:
            type: String
            cases: [basic, gold]
            unknown: basic
        entities:
          Team:
            fields:
              id: { type: Int64, autoincrement: true }
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              fullName: { type: String, default: "", renamedFrom: name }
              reference: { type: String, unique: true, renamedFrom: code }
              squad: { type: Team?, renamedFrom: team }
              level: { type: Tier, default: basic, renamedFrom: tier }
              email: { type: String, default: "none" }
              slug: { type: String, transform: "lower(name)" }
            indexes:
              - [fullName, email]
              - { fields: [reference], name: customer_by_code }
        migration:
          rolling: true
          allowDataLoss: [Customer.note]
        """

    static func plans(_ versions: [String]) throws -> [MigrationPlan] {
        Generator.migrationPlans(for: try MigrationCompatibilityTests.history(versions))
    }

    @Test("the expand adds renamed columns beside the old ones and keeps removed ones; the contract drops them")
    func expandAndContract() throws {
        let plan = try #require(try Self.plans([Self.v1, Self.v2]).first)
        #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
        let expand = MigrationSQLRenderer.file(for: plan, dialect: .postgres)
        for statement in [
            #"ALTER TABLE "customer" ADD COLUMN "full_name" TEXT;"#,
            #"ALTER TABLE "customer" ADD COLUMN "reference" TEXT;"#,
            #"ALTER TABLE "customer" ADD COLUMN "squad" BIGINT;"#,
            #"ALTER TABLE "customer" ADD COLUMN "slug" TEXT;"#,
            // The old column's default goes, so that a row code of v2 inserts shows NULL there.
            #"ALTER TABLE "customer" ALTER COLUMN "name" DROP DEFAULT;"#,
            #"    IF NEW."full_name" IS NULL THEN NEW."full_name" := NEW."name"; ELSE NEW."name" := NEW."full_name"; END IF;"#,
            #"UPDATE "customer" SET "reference" = "code" WHERE "reference" IS NULL;"#,
            #"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "customer_reference_key" ON "customer" ("reference");"#,
            #"ALTER TABLE "customer" ADD CONSTRAINT "customer_reference_key" UNIQUE USING INDEX "customer_reference_key";"#,
            #"ALTER TABLE "customer" VALIDATE CONSTRAINT "customer_squad_fkey";"#,
            #"ALTER TABLE "customer" VALIDATE CONSTRAINT "customer_level_check";"#,
            // The filled columns are computed only for rows that come without a value.
            #"UPDATE "customer" SET "slug" = (lower(name)) WHERE "slug" IS NULL;"#,
            #"UPDATE "customer" SET "email" = COALESCE("email", 'none') WHERE "email" IS NULL;"#,
            // Indexes over renamed columns: a new name built as it is, N-1's name beside N-1's index.
            #"CREATE INDEX CONCURRENTLY IF NOT EXISTS "customer_full_name_email_idx" ON "customer" ("full_name", "email");"#,
            #"CREATE INDEX CONCURRENTLY IF NOT EXISTS "customer_by_code_strata_new" ON "customer" ("reference");"#,
        ] {
            #expect(expand.contains(statement), "\(statement)\n\(expand)")
        }
        #expect(expand.contains("-- undo: ALTER TABLE \"customer\" ALTER COLUMN \"name\" SET DEFAULT ''\n"))
        for absent in [
            "RENAME COLUMN", "DROP COLUMN", "DROP TRIGGER", "DROP FUNCTION", "DROP INDEX",
            #"ALTER COLUMN "full_name" SET DEFAULT"#,
        ] {
            #expect(!expand.contains(absent), "\(absent)\n\(expand)")
        }
        #expect(
            expand.contains(
                "-- Compatible with code of version 1: yes, until the contract (then no (renames Customer.name"))

        let contract = MigrationSQLRenderer.contractFile(for: plan)
        for statement in [
            #"DROP TRIGGER "customer_strata_backfill" ON "customer";"#, #"DROP FUNCTION "customer_strata_backfill"();"#,
            #"ALTER TABLE "customer" DROP COLUMN "name";"#, #"ALTER TABLE "customer" DROP COLUMN "code";"#,
            #"ALTER TABLE "customer" DROP COLUMN "team";"#, #"ALTER TABLE "customer" DROP COLUMN "tier";"#,
            #"ALTER TABLE "customer" DROP COLUMN "note";"#,
            #"ALTER TABLE "customer" ALTER COLUMN "full_name" SET DEFAULT '';"#,
            #"ALTER TABLE "customer" ALTER COLUMN "level" SET DEFAULT 'basic';"#,
            #"ALTER INDEX "customer_by_code_strata_new" RENAME TO "customer_by_code";"#,
        ] {
            #expect(contract.contains(statement), "\(statement)\n\(contract)")
        }
        // SQLite databases are embedded in one app: the version is applied whole there.
        let sqlite = MigrationSQLRenderer.file(for: plan, dialect: .sqlite)
        #expect(sqlite.contains("-- Compatible with code of version 1: no (renames Customer.name"))
        #expect(!sqlite.contains("contract"))
    }

    @Test(
        "the ledger records the expand as compatible with v1 on PostgreSQL, and the versions after count from the contract"
    )
    func compatibleFrom() throws {
        let v3 = Self.v2.replacingOccurrences(of: "version: 2", with: "version: 3")
            .replacingOccurrences(of: "migration:\n  rolling: true\n  allowDataLoss: [Customer.note]", with: "")
            .replacingOccurrences(of: ", renamedFrom: name", with: "").replacingOccurrences(
                of: ", renamedFrom: code", with: ""
            )
            .replacingOccurrences(of: ", renamedFrom: team", with: "").replacingOccurrences(
                of: ", renamedFrom: tier", with: ""
            )
            .replacingOccurrences(
                of: #"slug: { type: String, transform: "lower(name)" }"#, with: "slug: String\n      extra: String?")
        let history = try MigrationCompatibilityTests.history([Self.v1, Self.v2, v3])
        let plans = Generator.migrationPlans(for: history)
        #expect(MigrationCompatibility.compatibleFrom(plans, expanded: true) == [1: 1, 2: 1, 3: 2])
        #expect(MigrationCompatibility.compatibleFrom(plans) == [1: 1, 2: 2, 3: 2])
        let postgres = MigrationSources.postgres(for: history)
        #expect(postgres.map(\.compatibleFrom) == [nil, 1, 2])
        #expect(postgres.map { $0.contract != nil } == [false, true, false])
        #expect(postgres[1].incompatibility == nil)
        #expect(postgres[1].contractIncompatibility?.hasPrefix("renames Customer.name to fullName") == true)
        #expect(MigrationSources.sqlite(for: history).allSatisfy { $0.contract == nil })
    }

    @Test("a change no expand keeps working for code of the version before is an error at `rolling`")
    func unsupported() throws {
        let v2 =
            Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "email: String?", with: "email: String")
            .replacingOccurrences(of: #"note: { type: String, default: "" }"#, with: "").replacingOccurrences(
                of: "      - [note]", with: ""
            )
            .replacingOccurrences(
                of: "code: { type: String, unique: true }", with: "code: { type: Int64, unique: true }")
            + "\nmigration:\n  rolling: true\n  allowDataLoss: [Customer.note]\n"
        let diagnostics = try Self.plans([Self.v1, v2]).flatMap(\.diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }.map(\.description)
        let line =
            try #require(v2.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "  rolling: true"))
            + 1
        #expect(
            errors.contains {
                $0.contains(
                    "v2.yaml:\(line):3: error: v2.yaml is rolling, but code of v1 cannot run beside its expand: it changes the type of Customer.code"
                )
            }, "\(errors)")
        #expect(
            errors.contains {
                $0.contains("it makes Customer.email required (a rolling version keeps a field made required when")
            }, "\(errors)")
        // A removed field with a default stays until the contract: no error.
        #expect(!errors.contains { $0.contains("note") }, "\(errors)")
    }

    @Test("a widened integer: filled into a shadow column the trigger keeps in step, swapped in by the contract")
    func widenedInteger() throws {
        let v1 = """
            model: M
            version: 1
            entities:
              Account:
                fields:
                  id: { type: Int64, autoincrement: true }
                  visits: { type: Int32, default: 0 }
                  label: String
                indexes:
                  - [visits]
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "Int32", with: "Int64") + "\nmigration:\n  rolling: true\n"
        let plan = try #require(try Self.plans([v1, v2]).first)
        #expect(plan.diagnostics.filter { $0.severity == .error }.isEmpty, "\(plan.diagnostics)")
        let expand = MigrationSQLRenderer.file(for: plan, dialect: .postgres)
        #expect(expand.contains(#"ALTER TABLE "account" ADD COLUMN "visits_strata_new" BIGINT;"#), "\(expand)")
        #expect(expand.contains(#"UPDATE "account" SET "visits_strata_new" = CAST("visits" AS BIGINT);"#), "\(expand)")
        for absent in ["DROP COLUMN", "RENAME COLUMN", "DROP TRIGGER", "ALTER COLUMN \"visits\" TYPE"] {
            #expect(!expand.contains(absent), "\(absent)\n\(expand)")
        }
        let contract = MigrationSQLRenderer.contractFile(for: plan)
        for statement in [
            #"ALTER TABLE "account" DROP COLUMN "visits";"#,
            #"ALTER TABLE "account" RENAME COLUMN "visits_strata_new" TO "visits";"#,
            #"ALTER INDEX "account_visits_idx_strata_new" RENAME TO "account_visits_idx";"#,
        ] {
            #expect(contract.contains(statement), "\(statement)\n\(contract)")
        }
        // Narrowing, or another type: code of v2 could not write into the old column.
        let narrowed = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "label: String", with: "label: Int64") + "\nmigration:\n  rolling: true\n"
        let refused = try #require(try Self.plans([v1, narrowed]).first)
        #expect(refused.diagnostics.contains { $0.message.contains("it changes the type of Account.label") })
    }

    @Test("`rolling` must be a boolean; a rolling version with nothing to expand is a warning")
    func keyAndWarning() throws {
        let additive =
            Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "      email: String?", with: "      email: String?\n      extra: String?")
            + "\nmigration:\n  rolling: true\n"
        let plan = try #require(try Self.plans([Self.v1, additive]).first)
        #expect(
            plan.diagnostics.map(\.message).contains {
                $0.hasPrefix("migration.rolling: nothing to expand and contract")
            })
        #expect(MigrationSQLRenderer.contractFile(for: plan).contains("DROP") == false)

        let folder = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("M"), withIntermediateDirectories: true)
        let bad = additive.replacingOccurrences(of: "rolling: true", with: "rolling: yes please")
        for (offset, text) in [Self.v1, bad].enumerated() {
            try text.write(
                to: folder.appendingPathComponent("M/v\(offset + 1).yaml"), atomically: true, encoding: .utf8)
        }
        let (_, _, diagnostics) = SchemaLoader.loadModel(named: "M", in: folder.path)
        #expect(
            diagnostics.map(\.description).contains { $0.contains("error: 'rolling' must be true or false, found") },
            "\(diagnostics)")
    }
}
