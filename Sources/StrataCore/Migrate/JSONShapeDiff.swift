import Foundation
import StrataStorage

/// What changes inside the stored objects of a JSON value type between two versions: the
/// edits a migration makes to each stored value (``JSONEdit``), the members it drops (which
/// `allowDataLoss` must name) and the changes stored values cannot follow without a
/// `transform`. Members are matched by name or `renamedFrom`; a member that is itself a JSON
/// value type is compared member by member, at its path.
///
/// Inside an array of objects no edit is made (SQL cannot rewrite each element in place on both
/// databases): a member added with a default reads as its default, a removed one is dropped on
/// the next write; a rename or a conversion there is an error.
struct JSONShapeDiff {
    /// A member the new shape drops, by the old type's name.
    struct Removal: Hashable {
        var type: String
        var member: String
        var path: [String]
    }

    /// A change stored values cannot follow, with where to report it.
    struct Problem: Hashable {
        var message: String
        var location: SourceLocation
    }

    private(set) var edits: [JSONEdit] = []
    private(set) var removals: [Removal] = []
    private(set) var problems: [Problem] = []

    /// The difference between `old` (of `from`) and `new` (of `to`), both JSON value types.
    init(from old: ValueTypeDecl, in from: Schema, to new: ValueTypeDecl, in to: Schema) {
        compare(old, new, from: from, to: to, path: [], insideArray: false, seen: [])
    }

    /// True when stored values neither change nor lose anything, and nothing is in the way.
    var isEmpty: Bool { edits.isEmpty && removals.isEmpty && problems.isEmpty }

    private mutating func compare(
        _ old: ValueTypeDecl, _ new: ValueTypeDecl, from: Schema, to: Schema, path: [String], insideArray: Bool,
        seen: Set<String>
    ) {
        // A type reached again through an array of itself has been compared already.
        guard !seen.contains(new.name) else { return }
        let seen = seen.union([new.name])
        let oldMembers = old.members ?? []
        var continued: Set<String> = []
        for member in new.members ?? [] {
            let what = "member '\(new.name).\(member.name)'"
            let at = path + [member.name]
            var previous = oldMembers.first { $0.name == member.name }
            if let renamedFrom = member.renamedFrom {
                previous = oldMembers.first { $0.name == renamedFrom }
                if previous == nil {
                    problems.append(Problem(
                        message: "'renamedFrom' of \(what) names '\(renamedFrom)', which is not a member of \(old.name) in \(from.fileName)"
                            + Suggestion.didYouMean(renamedFrom, in: oldMembers.map(\.name)),
                        location: member.location))
                    continue
                }
            }
            guard let previous else {
                added(member, what: what, at: at, in: to, insideArray: insideArray)
                continue
            }
            continued.insert(previous.name)
            if previous.name != member.name {
                if insideArray {
                    problems.append(Problem(
                        message: "\(what) is renamed inside an array of \(new.name), which migrations cannot rewrite yet; give the field holding it a 'transform'",
                        location: member.location))
                } else {
                    edits.append(.rename(from: path + [previous.name], to: at))
                }
            }
            if let transform = member.transform {
                computed(transform, what: what, at: at, member: member, insideArray: insideArray)
                continue
            }
            converted(previous, member, what: what, at: at, from: from, to: to, insideArray: insideArray, seen: seen)
        }
        for member in oldMembers where !continued.contains(member.name) {
            removals.append(Removal(type: old.name, member: member.name, path: path + [member.name]))
            if !insideArray { edits.append(.remove(path: path + [member.name])) }
        }
    }

    private mutating func added(_ member: JSONMember, what: String, at path: [String], in to: Schema, insideArray: Bool) {
        if let transform = member.transform {
            computed(transform, what: what, at: path, member: member, insideArray: insideArray)
        } else if member.isOptional {
            return
        } else if let literal = member.defaultValue, let json = Self.json(of: literal, member: member, in: to) {
            // Inside an array the decoder reads the default where the member is missing.
            if !insideArray { edits.append(.fill(path: path, json: json)) }
        } else {
            problems.append(Problem(
                message: "new \(what) is required, so stored values need one: give it a 'default' or a 'transform' (or make it optional)",
                location: member.location))
        }
    }

    private mutating func computed(_ transform: DialectSQL, what: String, at path: [String], member: JSONMember, insideArray: Bool) {
        if insideArray {
            problems.append(Problem(
                message: "\(what) has a 'transform' inside an array, which migrations cannot rewrite yet; give the field holding it a 'transform'",
                location: transform.location))
        } else {
            edits.append(.compute(path: path, transform))
        }
    }

    private mutating func converted(
        _ old: JSONMember, _ new: JSONMember, what: String, at path: [String], from: Schema, to: Schema, insideArray: Bool,
        seen: Set<String>
    ) {
        if let oldDecl = old.type.valueTypeName.flatMap(from.valueType(named:)), oldDecl.isJSON,
            let newDecl = new.type.valueTypeName.flatMap(to.valueType(named:)), newDecl.isJSON, old.isArray == new.isArray
        {
            compare(oldDecl, newDecl, from: from, to: to, path: path, insideArray: insideArray || new.isArray, seen: seen)
        } else if old.isArray != new.isArray || !Self.readsAs(old, new, from: from, to: to) {
            problems.append(Problem(
                message: "the type of \(what) changes from \(old.spelled) to \(new.spelled), which stored values do not read as: give it a 'transform' that computes the new value",
                location: new.typeLocation))
            return
        }
        guard old.isOptional, !new.isOptional else { return }
        if let literal = new.defaultValue, let json = Self.json(of: literal, member: new, in: to) {
            if !insideArray { edits.append(.fill(path: path, json: json)) }
        } else {
            problems.append(Problem(
                message: "\(what) becomes required, so stored values without it need one: give it a 'default' or a 'transform'",
                location: new.location))
        }
    }

    /// True when a stored value of `old`'s type reads as `new`'s: the same type, an integer into a
    /// wider integer or a floating-point type, `Float` into `Double`, an enum into its raw type, a
    /// value type into its storage and back.
    static func readsAs(_ old: JSONMember, _ new: JSONMember, from: Schema, to: Schema) -> Bool {
        if old.type == new.type { return true }
        if case .enumeration = new.type { return false }
        guard let before = from.storageType(of: old.asField), let after = to.storageType(of: new.asField) else { return false }
        if before == after { return true }
        if before.isInteger, after.isInteger || after.isFloatingPoint {
            return Conversion.isLossless(from: before, to: after) || after.isFloatingPoint
        }
        return before == .float && after == .double
    }

    /// A default as the JSON the member's value is written as: an enum case as its raw value, a
    /// Date as its ISO 8601 text, a value type as its storage's.
    static func json(of literal: Literal, member: JSONMember, in schema: Schema) -> String? {
        switch literal {
        case .null: return "null"
        case .emptyArray: return "[]"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double(let value): return StrataJSONWriter.text(of: .double(value))
        case .enumCase(let name):
            guard case .enumeration(let enumName) = member.type, let decl = schema.enumDecl(named: enumName),
                let rawValue = decl.case(named: name)?.rawValue
            else { return nil }
            return json(of: rawValue, member: member, in: schema)
        case .string(let text):
            if schema.storageType(of: member.asField) == .date {
                guard let date = DateLiteral.parse(text), let stored = SQLiteDateText.timestamp.text(of: date) else { return nil }
                return StrataJSONWriter.text(of: .string(stored))
            }
            return StrataJSONWriter.text(of: .string(text))
        }
    }
}
