import Foundation
import SwiftLite

/// A database for one test: a file in a directory of its own under the system's temporary
/// directory, or in memory, open on ``connection`` and gone when the value is released.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.register("v1") { db in try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY)") }
///
/// let database = try TemporaryDatabase.file()
/// try migrator.migrate(database.connection)
/// ```
///
/// Not `Sendable`: it owns a ``Connection``, which is used by one thread at a time.
public final class TemporaryDatabase {
  /// The connection open on the database.
  public let connection: Connection
  /// The database file, `nil` in memory.
  public let url: URL?
  /// The directory made for the file, removed on release.
  private let directory: URL?

  private init(connection: Connection, url: URL?, directory: URL?) {
    self.connection = connection
    self.url = url
    self.directory = directory
  }

  /// A new, empty database file named `name` in a new temporary directory.
  /// - Parameters:
  ///   - name: the file's name.
  ///   - options: how to open it.
  /// - Throws: the errors of creating the directory, `SQLiteError` when opening fails.
  public static func file(named name: String = "test.sqlite", options: OpenOptions = OpenOptions())
    throws -> TemporaryDatabase
  {
    let directory = try makeDirectory()
    let url = directory.appendingPathComponent(name)
    do {
      return TemporaryDatabase(
        connection: try Connection(path: url.path, options: options), url: url,
        directory: directory)
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  /// A copy of the database file at `source` (a fixture), in a new temporary directory, so
  /// that a test changes the copy only. Its `-wal` file is copied too when there is one.
  /// - Throws: the errors of copying, `SQLiteError` when opening fails.
  public static func copy(of source: URL, options: OpenOptions = OpenOptions()) throws
    -> TemporaryDatabase
  {
    let directory = try makeDirectory()
    let url = directory.appendingPathComponent(source.lastPathComponent)
    do {
      try FileManager.default.copyItem(at: source, to: url)
      let log = URL(fileURLWithPath: source.path + "-wal")
      if FileManager.default.fileExists(atPath: log.path) {
        try FileManager.default.copyItem(at: log, to: URL(fileURLWithPath: url.path + "-wal"))
      }
      return TemporaryDatabase(
        connection: try Connection(path: url.path, options: options), url: url,
        directory: directory)
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  /// A new database in memory, gone when the value is released.
  /// - Throws: `SQLiteError` when opening fails.
  public static func inMemory(options: OpenOptions = OpenOptions()) throws -> TemporaryDatabase {
    TemporaryDatabase(
      connection: try Connection.inMemory(options: options), url: nil, directory: nil)
  }

  private static func makeDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "SwiftLiteTesting-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  deinit {
    try? connection.close()
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }
}

@available(*, unavailable)
extension TemporaryDatabase: Sendable {}
