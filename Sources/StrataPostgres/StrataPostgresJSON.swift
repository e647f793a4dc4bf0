import NIOCore
import PostgresNIO
import StrataRuntime

/// JSON text bound as `JSONB` in PostgreSQL's binary format: a version byte, then the text.
struct StrataPostgresJSONB: PostgresNonThrowingEncodable {
    static var psqlType: PostgresDataType { .jsonb }
    static var psqlFormat: PostgresFormat { .binary }

    let text: String

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(UInt8(1))
        byteBuffer.writeString(text)
    }
}

extension PostgresCell {
    /// The cell's JSON, parsed from its bytes (`JSONB` in binary after its version byte, or
    /// `JSON` / text): no detour through `String` or `Codable`.
    func strataJSON() throws -> StrataJSON {
        guard var bytes = self.bytes else { throw StrataDecodingError.unexpectedNull(column: columnName) }
        if format == .binary, dataType == .jsonb {
            guard bytes.readInteger(as: UInt8.self) == 1 else {
                throw StrataDecodingError.malformedJSON(column: columnName, type: "JSON", reason: "unknown JSONB version")
            }
        }
        do {
            return try bytes.withUnsafeReadableBytes { try StrataJSONParser.parse($0) }
        } catch let error as StrataJSONError {
            throw StrataDecodingError.malformedJSON(column: columnName, type: "JSON", reason: error.description)
        }
    }
}
