import Foundation
import StrataRuntime

/// An array field's value on SQLite: the text of a JSON array of its elements (`["a","b"]`,
/// `[1,2]`, `[true]`; UUIDs and URLs as their text), written by ``StrataJSONWriter`` and read from
/// the column's parsed ``StrataJSON``, without Foundation's JSON coders. A Date is the number a
/// Date column stores (seconds since 2001-01-01, `[728395200.5]`), so it reads back `==`; a
/// Decimal the string of its text (`["19.99"]`: no digit lost through a `Double`); Data the
/// string of its base64 (`["AAEC"]`).
public enum StrataJSONArray {
    /// A number JSON cannot hold (NaN, an infinity, a Date that far away, Decimal's NaN), in an
    /// array being bound.
    public struct NotRepresentable: Error, CustomStringConvertible {
        /// The value.
        public var value: String
        public var description: String {
            "\(value) has no JSON form: arrays of numbers (and Dates) stored on SQLite hold finite numbers"
        }
    }

    /// The JSON text of the elements.
    public static func text(of array: StrataArray) throws -> String {
        switch array {
        case .strings(let values): return StrataJSONWriter.text(of: values)
        case .ints(let values): return StrataJSONWriter.text(of: values)
        case .int64s(let values): return StrataJSONWriter.text(of: values)
        case .int32s(let values): return StrataJSONWriter.text(of: values)
        case .int16s(let values): return StrataJSONWriter.text(of: values)
        case .doubles(let values):
            if let wrong = values.first(where: { !$0.isFinite }) { throw NotRepresentable(value: "\(wrong)") }
            return StrataJSONWriter.text(of: values)
        case .floats(let values):
            if let wrong = values.first(where: { !$0.isFinite }) { throw NotRepresentable(value: "\(wrong)") }
            return StrataJSONWriter.text(of: values)
        case .bools(let values): return StrataJSONWriter.text(of: values)
        case .uuids(let values): return StrataJSONWriter.text(of: values)
        case .dates(let values):
            if let wrong = values.first(where: { !SQLiteStorage.seconds(of: $0).isFinite }) {
                throw NotRepresentable(value: "\(wrong)")
            }
            return text(of: values) { $0.write(SQLiteStorage.seconds(of: $1)) }
        case .decimals(let values):
            if let wrong = values.first(where: \.isNaN) { throw NotRepresentable(value: "\(wrong)") }
            return text(of: values) { $0.write(SQLiteStorage.text(of: $1)) }
        case .data(let values): return text(of: values) { $0.write($1.base64EncodedString()) }
        }
    }

    /// A JSON array of `values`, each written by `write`.
    private static func text<Element>(of values: [Element], _ write: (inout StrataJSONWriter, Element) -> Void)
        -> String
    {
        var writer = StrataJSONWriter()
        writer.array { writer in
            for value in values { write(&writer, value) }
        }
        return writer.text
    }

    /// The elements of parsed JSON, all of type `kind`, read from `column`; JSON that is no array
    /// of such elements (an integer out of the type's range, a fraction for an integer, text that
    /// is no UUID…) is ``StrataDecodingError/malformedJSON(column:type:reason:)``.
    public static func array(_ json: StrataJSON, of kind: StrataArray.Kind, column: String) throws -> StrataArray {
        do {
            switch kind {
            case .string: return .strings(try [String](strataJSON: json))
            case .int: return .ints(try [Int](strataJSON: json))
            case .int64: return .int64s(try [Int64](strataJSON: json))
            case .int32: return .int32s(try [Int32](strataJSON: json))
            case .int16: return .int16s(try [Int16](strataJSON: json))
            case .double: return .doubles(try [Double](strataJSON: json))
            case .float: return .floats(try [Float](strataJSON: json))
            case .bool: return .bools(try [Bool](strataJSON: json))
            case .uuid: return .uuids(try [UUID](strataJSON: json))
            case .date: return .dates(try json.elements { SQLiteStorage.date(seconds: try Double(strataJSON: $0)) })
            case .decimal:
                return .decimals(
                    try json.elements { element in
                        guard let decimal = SQLiteStorage.exactDecimal(text: try String(strataJSON: element)) else {
                            throw StrataJSONError.mismatch(expected: "a Decimal's text", found: "another string")
                        }
                        return decimal
                    })
            case .data:
                return .data(
                    try json.elements { element in
                        guard let data = Data(base64Encoded: try String(strataJSON: element)) else {
                            throw StrataJSONError.mismatch(expected: "base64 data", found: "another string")
                        }
                        return data
                    })
            }
        } catch let error as StrataJSONError {
            throw StrataDecodingError.malformedJSON(column: column, type: "array of \(kind)", reason: error.description)
        }
    }
}
