import Foundation

/// A position in a schema file: the file path as the user gave it, and a 1-based line and column.
///
/// The model keeps several locations per field, so a location is small and holds no reference:
/// the path is stored once in ``SourceFiles`` and the location keeps its number.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    private var fileNumber: SourceFiles.Number
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The file path, as given on the command line (relative paths stay relative).
    public var file: String {
        get { SourceFiles.shared.path(fileNumber) }
        set { fileNumber = SourceFiles.shared.number(of: newValue) }
    }
    /// 1-based line number.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// 1-based column number, counted in Unicode scalars.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.init(file: SourceFiles.shared.number(of: file), line: line, column: column)
    }

    /// A location in the file numbered `file` (``SourceFiles/number(of:)``), for readers that
    /// make many locations in one file.
    init(file: SourceFiles.Number, line: Int, column: Int) {
        fileNumber = file
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// The start of a file, for problems that concern the whole file.
    public static func file(_ path: String) -> SourceLocation {
        SourceLocation(file: path, line: 1, column: 1)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileNumber != rhs.fileNumber { return lhs.file < rhs.file }
        return (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }
}

/// The file paths of every ``SourceLocation`` made in this process, each stored once and numbered.
final class SourceFiles: @unchecked Sendable {
    /// A path's number.
    typealias Number = UInt32

    static let shared = SourceFiles()

    private let lock = NSLock()
    private var paths: [String] = []
    private var numbers: [String: Number] = [:]

    /// The number of `path`, given on first use.
    func number(of path: String) -> Number {
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[path] { return number }
        let number = Number(truncatingIfNeeded: paths.count)
        paths.append(path)
        numbers[path] = number
        return number
    }

    /// The path numbered `number`.
    func path(_ number: Number) -> String {
        lock.lock()
        defer { lock.unlock() }
        return Int(number) < paths.count ? paths[Int(number)] : ""
    }
}
