import Foundation
import Synchronization

/// The two file system calls that put a finished backup in place
/// (``Connection/backup(toPath:pagesPerStep:progress:)``): the rename of its temporary copy
/// over the destination, then the sync of their folder, without which a power loss may undo
/// the rename (the file's own syncs do not cover its name).
///
/// The system's calls for every VFS, unless a test replaced them for its own VFS: the
/// power-loss tests record both as events of their model of the disk, so a cut can fall
/// between them. Each call returns 0 or the `errno` it failed with.
struct BackupPlacement: Sendable {
  /// rename(2): `from` replaces `to` in one step.
  var rename: @Sendable (_ from: String, _ to: String) -> Int32
  /// Makes the entries of the folder at the path durable: opened read-only, synced, closed.
  var syncDirectory: @Sendable (_ directory: String) -> Int32

  /// The operating system's calls.
  static let system = BackupPlacement(rename: systemRename, syncDirectory: systemSyncDirectory)

  private static let replacements = Mutex<[String: BackupPlacement]>([:])

  /// The calls for a connection's VFS (`nil` for the default one).
  static func forVFS(_ name: String?) -> BackupPlacement {
    guard let name else { return .system }
    return replacements.withLock { $0[name] } ?? .system
  }

  /// Replaces the calls for one VFS, or gives it the system's again with `nil`.
  static func replace(forVFS name: String, with placement: BackupPlacement?) {
    replacements.withLock { $0[name] = placement }
  }

  /// The folder that holds the file at `path`: `"."` for a bare name.
  static func directory(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}

private func systemRename(_ from: String, _ to: String) -> Int32 {
  rename(from, to) == 0 ? 0 : errno
}

private func systemSyncDirectory(_ directory: String) -> Int32 {
  let descriptor = open(directory, O_RDONLY)
  guard descriptor >= 0 else { return errno }
  defer { close(descriptor) }
  #if canImport(Darwin)
    // fsync leaves the data in the drive's cache on Darwin; F_FULLFSYNC flushes it, where
    // the file system supports it (fsync then, as SQLite's unix VFS falls back).
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
  #endif
  while fsync(descriptor) != 0 {
    if errno != EINTR { return errno }
  }
  return 0
}
