import GRDB
import StrataCore
import StrataIntrospection

extension TextDateSurvey {
    /// The surveys of the columns of `schema`'s tables that would import as `String` (by table,
    /// then column).
    static func of(_ db: Database, schema: DatabaseSchema) throws -> [String: [String: TextDateSurvey]] {
        var surveys: [String: [String: TextDateSurvey]] = [:]
        for table in schema.tables {
            for column in table.columns
            where column.generated == nil
                && ImportedColumnType.of(column.type, dialect: .sqlite)?.type == .string
            {
                surveys[table.name, default: [:]][column.name] = try of(db, table: table.name, column: column.name)
            }
        }
        return surveys
    }
}
