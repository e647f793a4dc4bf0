import Foundation
import StrataRuntime

/// An array field's value on SQLite: the text of a JSON array of its elements (`["a","b"]`,
/// `[1,2]`, `[true]`; UUIDs and URLs as their text), written by ``StrataJSONWriter`` and read from
/// the column's parsed ``StrataJSON``, without Foundation's JSON coders.
public enum StrataJSONArray {
    /// A number JSON cannot hold (NaN, an infinity), in an array being bound.
    public struct NotRepresentable: Error, CustomStringConvertible {
        /// The value.
        public var value: String
        public var description: String {
            "\(value) has no JSON form: arrays of numbers stored on SQLite hold finite numbers"
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
        }
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
            }
        } catch let error as StrataJSONError {
            throw StrataDecodingError.malformedJSON(column: column, type: "array of \(kind)", reason: error.description)
        }
    }
}
