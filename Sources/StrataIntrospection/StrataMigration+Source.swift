import StrataCore
import StrataRuntime

extension StrataMigration {
    /// The migration the generator wrote for a version, as `strata migrate` applies it: its SQL,
    /// checksum, legacy checksum, Date columns and compatibility (what generated
    /// `<Model>Migrations.all` embeds).
    public init(_ source: MigrationSource) {
        self.init(
            version: source.version, sql: source.sql, checksum: source.checksum, legacyChecksum: source.legacyChecksum,
            dateColumns: source.dateColumns, compatibleFrom: source.compatibleFrom,
            incompatibility: source.incompatibility, contract: source.contract,
            contractIncompatibility: source.contractIncompatibility)
    }
}
