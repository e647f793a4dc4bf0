import Foundation
import StrataCore

/// Reads a `.xcdatamodel`'s `contents` file for ``CoreDataModelReader``: within
/// ``Limits/coreDataContentsBytes`` (checked before anything is read or parsed), decoded in the
/// encoding its XML declaration names (UTF-8 without one, UTF-16 after a byte order mark), and
/// without a document type declaration (Core Data writes none; a DTD is how XML declares
/// external entities and entities that expand without bound). The text returned is Unicode,
/// with the declaration saying UTF-8 so that the parser reads it as such; columns stay as in the
/// file.
enum CoreDataContentsFile {
    /// The encodings a declaration may name (lowercased), and how Foundation calls them.
    static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii, "iso-8859-1": .isoLatin1,
        "latin1": .isoLatin1, "iso_8859-1": .isoLatin1, "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
        "utf-16": .utf16, "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
    ]

    /// The text of the file at `path`, or the located error that stops reading it.
    static func read(_ path: String, limit: Int = Limits.coreDataContentsBytes) -> Result<String, DiagnosticsError> {
        func failure(_ message: String, line: Int = 1, column: Int = 1) -> Result<String, DiagnosticsError> {
            .failure(DiagnosticsError([Diagnostic(.error, message, at: SourceLocation(file: path, line: line, column: column))]))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        if let size, size > limit {
            return failure(
                "the Core Data model file is \(megabytes(size)), larger than the \(megabytes(limit)) Strata imports (a version of it would not fit the \(megabytes(Limits.versionFileBytes)) limit of a version file)"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else { return failure("cannot read '\(path)'") }
        // Grown while it was read: the limit holds whatever the first look said.
        if data.count > limit {
            return failure("the Core Data model file is larger than the \(megabytes(limit)) Strata imports")
        }
        let text: String
        switch decode(data) {
        case .success(let decoded): text = decoded
        case .failure(let problem): return failure(problem.message, line: problem.line, column: problem.column)
        }
        if let doctype = range(of: "<!DOCTYPE", in: text) {
            let (line, column) = position(of: doctype.lowerBound, in: text)
            return failure(
                "a document type declaration (<!DOCTYPE …>) is not allowed in a Core Data model: Strata refuses the entities it can declare (external files, entities that expand without bound)",
                line: line, column: column)
        }
        return .success(text)
    }

    /// A reason the bytes cannot be decoded, and where.
    struct Problem: Error {
        var message: String
        var line = 1
        var column = 1
    }

    /// The bytes decoded as their byte order mark or XML declaration says, the declaration
    /// rewritten to say UTF-8 (padded with spaces to keep its length).
    static func decode(_ data: Data) -> Result<String, Problem> {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            guard let text = String(data: data, encoding: .utf16) else {
                return .failure(Problem(message: "the file starts as UTF-16 but is not valid UTF-16"))
            }
            return .success(declaringUTF8(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text).text)
        }
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        // The declaration is ASCII in every encoding accepted here but UTF-16.
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        let declared = declaredEncoding(head)
        var encoding = String.Encoding.utf8
        if let declared {
            guard let known = encodings[declared.name.lowercased()] else {
                return .failure(
                    Problem(
                        message:
                            "the XML declaration names the encoding '\(declared.name)', which Strata does not read: use UTF-8 (or UTF-16, ISO-8859-1, Windows-1252, US-ASCII)",
                        column: declared.column))
            }
            encoding = known
        }
        if encoding == .utf8, let bad = firstInvalidUTF8(bytes) {
            let before = String(decoding: bytes.prefix(bad - bytes.startIndex), as: UTF8.self)
            let (line, column) = position(of: before.endIndex, in: before)
            return .failure(
                Problem(
                    message:
                        "the file is not valid \(declared == nil ? "UTF-8 (the encoding of an XML file without an encoding declaration)" : "UTF-8"): byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) here; declare its real encoding (e.g. <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>) or convert it",
                    line: line, column: column))
        }
        guard let text = String(data: Data(bytes), encoding: encoding) else {
            return .failure(Problem(message: "the file is not valid \(declared?.name ?? "UTF-8")"))
        }
        return .success(declaringUTF8(text).text)
    }

    /// `text` with the encoding in its XML declaration replaced by UTF-8.
    static func declaringUTF8(_ text: String) -> (text: String, changed: Bool) {
        guard let declared = declaredEncoding(String(text.prefix(200))), declared.name.lowercased() != "utf-8" else {
            return (text, false)
        }
        let padding = String(repeating: " ", count: max(0, declared.name.count - 5))
        var result = text
        result.replaceSubrange(declared.range, with: "UTF-8")
        // After the closing quote: spaces are allowed before '?>'.
        let after = result.index(declared.range.lowerBound, offsetBy: 6)
        result.insert(contentsOf: padding, at: after)
        return (result, true)
    }

    /// The encoding name of an XML declaration at the start of `head`, with its range and column.
    static func declaredEncoding(_ head: String) -> (name: String, range: Range<String.Index>, column: Int)? {
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[head.startIndex..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        var index = key.upperBound
        while index < declaration.endIndex, declaration[index] == " " || declaration[index] == "=" {
            index = declaration.index(after: index)
        }
        guard index < declaration.endIndex, declaration[index] == "\"" || declaration[index] == "'" else { return nil }
        let quote = declaration[index]
        let start = declaration.index(after: index)
        guard let close = declaration[start...].firstIndex(of: quote) else { return nil }
        return (String(declaration[start..<close]), start..<close, head.distance(from: head.startIndex, to: start) + 1)
    }

    /// The offset of the first byte that is not part of valid UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: Data.SubSequence) -> Data.Index? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func range(of needle: String, in text: String) -> Range<String.Index>? {
        text.range(of: needle)
    }

    /// The 1-based line and column (in scalars) of `index` in `text`.
    private static func position(of index: String.Index, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars[..<index] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value == value.rounded() ? "\(Int(value)) MB" : String(format: "%.1f MB", value)
    }
}
