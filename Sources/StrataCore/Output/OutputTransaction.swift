import Foundation

/// A file of `generate`'s output that could not be written, and why: one line, naming the path.
public struct OutputWriteError: Error, CustomStringConvertible, Equatable {
    /// The path that failed.
    public var path: String
    /// Why, in words.
    public var reason: String

    public var description: String { "cannot write \(path): \(reason); nothing was changed" }
}

/// Writes `generate`'s files as one transaction on the file system: every target is checked,
/// every new content is staged next to its target, and only then are the targets replaced (the
/// old files kept aside until the end). On any failure, what was replaced is put back, what was
/// staged is removed with the folders created for it, and an ``OutputWriteError`` names the
/// path: all files or none.
///
/// A directory, or a file that Strata did not write (no generated header), at a target's path is
/// never replaced or removed: it is an error before anything is written. A signal noted by
/// ``Interruption`` (Ctrl-C) stops it before its next file, and it rolls back the same way.
package struct OutputTransaction {
    /// A file to write: its path and text (written as UTF-8 without a copy).
    package struct Write {
        package var path: String
        package var contents: String

        package init(path: String, contents: String) {
            self.path = path
            self.contents = contents
        }
    }

    private let manager = FileManager.default
    /// Temporary files staged so far (each next to its target).
    private var staged: [(temporary: String, final: String)] = []
    /// Targets replaced or removed so far, with where their old content was put aside (nil for
    /// targets that did not exist).
    private var replaced: [(final: String, saved: String?, placed: Bool)] = []
    /// Folders created so far, outermost first.
    private var createdFolders: [String] = []
    /// The signal that stops the transaction before its next file, if one arrived.
    private let interruption: () -> Int32?

    /// A transaction that stops, and rolls back, once `interruption` names a signal (by default,
    /// one that ``Interruption`` noted); it is asked before each file is staged or put in place.
    package init(interruption: @escaping () -> Int32? = { Interruption.received }) {
        self.interruption = interruption
    }

    /// Writes `writes` and removes `removals` (generated files that no longer belong), all or nothing.
    package static func run(
        writes: [Write], removals: [String], isOurs: (String) -> Bool,
        interruption: @escaping () -> Int32? = { Interruption.received }
    ) throws {
        var transaction = OutputTransaction(interruption: interruption)
        do {
            try transaction.check(writes.map(\.path) + removals, isOurs: isOurs)
            for write in writes { try transaction.stage(write) }
            try transaction.finish(removals: removals, isOurs: isOurs)
        } catch {
            transaction.rollBack()
            throw error
        }
    }

    /// Checks the target of `write` and stages it: for a writer that renders files one at a time
    /// (then ``finish(removals:isOurs:)``, or ``rollBack()`` on any error).
    mutating func add(_ write: Write, isOurs: (String) -> Bool) throws {
        try check([write.path], isOurs: isOurs)
        try stage(write)
    }

    /// Checks `path` and stages the file whose text `parts` yields part by part, comparing each
    /// part with the file on disk as it goes: a large file is never held whole. Returns false,
    /// with nothing staged, when the text is the file's.
    mutating func add(path: String, isOurs: (String) -> Bool, parts: inout GeneratedParts) throws -> Bool {
        try stopIfInterrupted()
        try check([path], isOurs: isOurs)
        try makeFolder(of: path)
        let temporary = Self.sibling(of: path, suffix: "strata-tmp")
        guard manager.createFile(atPath: temporary, contents: nil), let output = FileHandle(forWritingAtPath: temporary)
        else {
            throw OutputWriteError(path: path, reason: "cannot create a file in its folder")
        }
        staged.append((temporary, path))
        defer { try? output.close() }
        // The file on disk, read along with the parts while they match it.
        var current = FileHandle(forReadingAtPath: path)
        defer { try? current?.close() }
        do {
            while let text = parts.next() {
                try stopIfInterrupted()
                try Self.withBytes(of: text) { bytes in
                    try output.write(contentsOf: bytes)
                    if let reader = current, try reader.read(upToCount: bytes.count) ?? Data() != bytes {
                        current = nil
                    }
                }
            }
            if let reader = current, try (reader.read(upToCount: 1) ?? Data()).isEmpty {
                try? manager.removeItem(atPath: temporary)
                staged.removeLast()
                return false
            }
        } catch let error as OutputWriteError {
            throw error
        } catch let error as OutputInterrupted {
            throw error
        } catch {
            throw OutputWriteError(path: path, reason: Self.reason(error))
        }
        return true
    }

    /// The temporary files staged so far.
    var stagedPaths: Set<String> { Set(staged.map(\.temporary)) }

    /// Checks `removals`, then replaces every staged target and removes `removals`.
    mutating func finish(removals: [String], isOurs: (String) -> Bool) throws {
        try check(removals, isOurs: isOurs)
        for item in staged { try replace(item.final, with: item.temporary) }
        for path in removals { try replace(path, with: nil) }
        commit()
    }

    /// Refuses directories and files that Strata did not write, before anything is written.
    private func check(_ paths: [String], isOurs: (String) -> Bool) throws {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                throw OutputWriteError(
                    path: path, reason: "a directory is in the way (Strata never removes a directory)")
            }
            if !isOurs(path) {
                throw OutputWriteError(
                    path: path,
                    reason: "the file there was not written by Strata (it has no generated header); move it away")
            }
        }
    }

    private mutating func stage(_ write: Write) throws {
        try stopIfInterrupted()
        try makeFolder(of: write.path)
        let temporary = Self.sibling(of: write.path, suffix: "strata-tmp")
        do {
            try Self.withBytes(of: write.contents) { try $0.write(to: URL(fileURLWithPath: temporary)) }
        } catch {
            throw OutputWriteError(path: write.path, reason: Self.reason(error))
        }
        staged.append((temporary, write.path))
    }

    /// Creates the folder of `path` and any missing folder above it, each recorded so that a roll
    /// back removes it again; a file in the place of any of them is an error naming it.
    private mutating func makeFolder(of path: String) throws {
        // The missing folders, innermost first, up to the first one that exists.
        var missing: [String] = []
        var folder = SchemaLoader.parent(of: path)
        while !folder.isEmpty {
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw OutputWriteError(path: folder, reason: "a file is where a folder should be")
                }
                break
            }
            missing.append(folder)
            let parent = SchemaLoader.parent(of: folder)
            if parent == folder { break }
            folder = parent
        }
        for folder in missing.reversed() {
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: false)
            } catch {
                throw OutputWriteError(path: folder, reason: Self.reason(error))
            }
            createdFolders.append(folder)
        }
    }

    /// Puts the current file at `final` aside and moves `temporary` there (or, without one, just
    /// puts the file aside: a removal).
    private mutating func replace(_ final: String, with temporary: String?) throws {
        try stopIfInterrupted()
        var saved: String?
        if manager.fileExists(atPath: final) {
            let aside = Self.sibling(of: final, suffix: "strata-old")
            do {
                try manager.moveItem(atPath: final, toPath: aside)
            } catch {
                throw OutputWriteError(path: final, reason: Self.reason(error))
            }
            saved = aside
        }
        replaced.append((final, saved, false))
        guard let temporary else { return }
        do {
            try manager.moveItem(atPath: temporary, toPath: final)
        } catch {
            throw OutputWriteError(path: final, reason: Self.reason(error))
        }
        replaced[replaced.count - 1].placed = true
        staged.removeAll { $0.temporary == temporary }
    }

    /// Throws ``OutputInterrupted`` once a signal arrived: the caller rolls back.
    private func stopIfInterrupted() throws {
        if let signal = interruption() { throw OutputInterrupted(signal: signal) }
    }

    /// Every file is in place: the old contents put aside are removed.
    private func commit() {
        for item in replaced {
            if let saved = item.saved { try? manager.removeItem(atPath: saved) }
        }
    }

    /// Puts back what was replaced, newest first, and removes what was staged and the folders
    /// created for it.
    func rollBack() {
        for item in replaced.reversed() {
            if item.placed { try? manager.removeItem(atPath: item.final) }
            if let saved = item.saved { try? manager.moveItem(atPath: saved, toPath: item.final) }
        }
        for item in staged { try? manager.removeItem(atPath: item.temporary) }
        // The folders it created, innermost first, each only if empty (`rmdir` removes nothing else).
        for folder in createdFolders.reversed() { _ = rmdir(folder) }
    }

    /// Calls `body` with the UTF-8 bytes of `text` as `Data`, without copying them.
    static func withBytes<Result>(of text: String, _ body: (Data) throws -> Result) rethrows -> Result {
        var text = text
        text.makeContiguousUTF8()
        let borrowed = try text.utf8.withContiguousStorageIfAvailable { buffer -> Result in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return try body(Data()) }
            return try body(
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
        }
        return try borrowed ?? body(Data(text.utf8))
    }

    /// A hidden file next to `path`: `.<name>.<UUID>.<suffix>`.
    private static func sibling(of path: String, suffix: String) -> String {
        let folder = SchemaLoader.parent(of: path)
        let name = ".\(SchemaLoader.name(of: path)).\(UUID().uuidString).\(suffix)"
        return folder.isEmpty ? name : SchemaLoader.join(folder, name)
    }

    /// The reason of a file-system error in words, without Foundation's domain and code dump.
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))).lowercased() }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the volume is read-only"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileWriteFileExists: return "a file is in the way"
        default: return nsError.localizedDescription
        }
    }
}
