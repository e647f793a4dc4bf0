import Foundation

/// Why `generate` wrote nothing: one path and the reason, on one line.
public struct FileWriteError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The path that could not be written, replaced or removed.
    public var path: String
    /// Why, in a few words.
    public var reason: String

    /// `Generated/x.swift: cannot replace it: permission denied; nothing was changed`.
    public var description: String { "\(path): \(reason); nothing was changed" }
}

/// Replaces a set of files as one transaction: every new file is staged next to its final path
/// first, then the files are swapped in; on any failure every file replaced so far is put back
/// and every staged file is removed, so the folders hold either all of the new files or none.
///
/// Only regular files are replaced or removed: a folder, or a file that lacks Strata's header,
/// at a path Strata writes is an error, never deleted.
enum FileTransaction {
    /// One file to write (`contents`) or remove (`nil`).
    struct Change {
        var path: String
        var contents: Data?
    }

    /// Applies `changes`; returns their paths. Throws a ``FileWriteError`` after undoing everything.
    static func apply(_ changes: [Change], mayReplace: (String) -> Bool) throws -> [String] {
        for change in changes { try checkReplaceable(change.path, mayReplace: mayReplace) }
        var staged: [(change: Change, temporary: String?)] = []
        var createdFolders: [String] = []
        var swapped: [(path: String, backup: String?, temporary: String?)] = []
        func undo() {
            for item in swapped.reversed() {
                if let backup = item.backup {
                    rename(backup, item.path)
                } else {
                    unlink(item.path)
                }
            }
            for item in staged { if let temporary = item.temporary { unlink(temporary) } }
            for folder in createdFolders.reversed() { rmdir(folder) }
        }
        do {
            for change in changes {
                guard let data = change.contents else {
                    staged.append((change, nil))
                    continue
                }
                let folder = (change.path as NSString).deletingLastPathComponent
                if !folder.isEmpty { try createFolders(folder, created: &createdFolders, for: change.path) }
                let temporary = sibling(of: change.path, suffix: "strata-tmp")
                do {
                    try data.write(to: URL(fileURLWithPath: temporary))
                } catch {
                    throw FileWriteError(path: change.path, reason: "cannot stage it: \(FileErrorReason.of(error))")
                }
                staged.append((change, temporary))
            }
            // Everything is rendered and staged before the first file is replaced.
            for (change, temporary) in staged {
                let exists = access(change.path, F_OK) == 0
                let backup = exists ? sibling(of: change.path, suffix: "strata-bak") : nil
                if let backup, rename(change.path, backup) != 0 {
                    throw FileWriteError(path: change.path, reason: "cannot replace it: \(posixReason())")
                }
                swapped.append((change.path, backup, temporary))
                if let temporary, rename(temporary, change.path) != 0 {
                    throw FileWriteError(path: change.path, reason: "cannot replace it: \(posixReason())")
                }
            }
        } catch let error as FileWriteError {
            undo()
            throw error
        } catch {
            undo()
            throw FileWriteError(path: changes.first?.path ?? "", reason: FileErrorReason.of(error))
        }
        for item in swapped { if let backup = item.backup { unlink(backup) } }
        return changes.map(\.path)
    }

    /// A folder, a link or a file without Strata's header at `path` is never replaced or removed.
    private static func checkReplaceable(_ path: String, mayReplace: (String) -> Bool) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard mayReplace(path) else {
                throw FileWriteError(
                    path: path, reason: "a file that Strata did not write (it lacks Strata's header) is in the way; move it away")
            }
        case S_IFDIR:
            throw FileWriteError(path: path, reason: "a folder is where a generated file goes; move it away")
        default:
            throw FileWriteError(path: path, reason: "something other than a regular file is where a generated file goes; move it away")
        }
    }

    private static func createFolders(_ folder: String, created: inout [String], for path: String) throws {
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) != 0 {
                throw FileWriteError(path: folder, reason: "cannot create the folder for \(path): \(posixReason())")
            }
            created.append(folder)
        }
        if !current.isEmpty, !SchemaLoader.isFolder(current) {
            throw FileWriteError(path: current, reason: "is not a folder, so \(path) cannot be written")
        }
    }

    /// `folder/.name.<UUID>.suffix`: hidden, in the same folder (so `rename` is atomic).
    private static func sibling(of path: String, suffix: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let hidden = ".\(name).\(UUID().uuidString).\(suffix)"
        return folder.isEmpty ? hidden : SchemaLoader.join(folder, hidden)
    }

    private static func posixReason() -> String { String(cString: strerror(errno)).lowercased() }
}
