import Foundation

/// A short reason for a failed file operation ("permission denied", "read-only file system"),
/// instead of Foundation's multi-line error dump.
enum FileErrorReason {
    static func of(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))).lowercased() }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file or directory"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteFileExists: return "a file is in the way"
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "invalid file name"
        default: return error.localizedDescription
        }
    }

    /// Why `path` cannot be used as a folder or file although something is there, or nil when
    /// nothing is there: a symbolic link that leads nowhere (a loop or a missing target).
    static func brokenLink(_ path: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        return "'\(path)' is a symbolic link to '\(target)' that cannot be followed (a loop or a missing target)"
    }
}
