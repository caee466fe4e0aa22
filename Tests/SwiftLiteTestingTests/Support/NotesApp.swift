import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

// What every test of SwiftLiteTesting shares: a notes app through three releases, its
// migrators release by release, and where its committed snapshots and fixture are.
//
// Release 1 registers Folder and Note from their models; release 2 pins urgent notes in SQL
// written against release 1's columns; release 3 renames Note.pinned to isPinned. The
// fixture Fixtures/notes-release2.sqlite is a file release 2 made (see Fixtures/README.md).

struct Folder: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

/// Note as releases 1 and 2 declared it.
struct NoteV1: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  var body: String
  var tags: [String]
  var pinned: Bool
  var createdAt: Date
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "title": [.collate("NOCASE"), .check("length(title) > 0")],
    "pinned": [.default(.integer(0))],
  ]
  static let indexes = [TableIndex(["pinned"])]
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
}

/// Note today (release 3): `pinned` is `isPinned`.
struct Note: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  var body: String
  var tags: [String]
  var isPinned: Bool
  var createdAt: Date
  static let primaryKey = ["id"]
  static let renamedProperties = ["isPinned": "pinned"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "title": [.collate("NOCASE"), .check("length(title) > 0")],
    "isPinned": [.default(.integer(0))],
  ]
  static let indexes = [TableIndex(["isPinned"])]
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
}

enum NotesApp {
  static let pinUrgent = "v2-data: pin urgent notes"

  /// The SQL step of release 2, against release 1's columns.
  static func registerPinUrgent(_ migrator: inout Migrator) {
    migrator.register(pinUrgent) { db in
      _ = try db.run("UPDATE Note SET pinned = 1 WHERE tags LIKE '%\"urgent\"%'")
    }
  }

  /// Release 1's migrator, as release 1 compiled it.
  static func release1(snapshots: MigrationSnapshots? = nil) -> Migrator {
    var migrator = Migrator()
    migrator.snapshots = snapshots
    migrator.registerModels("v1-tables", Folder.self, NoteV1.self)
    return migrator
  }

  /// Release 2's migrator, as release 2 compiled it (no snapshots: as SwiftLite ran then).
  static func release2() -> Migrator {
    var migrator = release1()
    registerPinUrgent(&migrator)
    return migrator
  }

  /// Today's migrator, as an app writes it: Note in both model steps.
  static func today(snapshots: MigrationSnapshots?) -> Migrator {
    var migrator = Migrator()
    migrator.snapshots = snapshots
    migrator.registerModels("v1-tables", Folder.self, Note.self)
    registerPinUrgent(&migrator)
    migrator.registerModels("v3-notes", Note.self)
    return migrator
  }

  /// The snapshot folder in the source tree (where recording writes).
  static let snapshotSource = MigrationSnapshotCheck.sourceDirectory("../MigrationSnapshots")

  /// The snapshots as the tests ship them (a resource, as an app ships its own).
  static func shippedSnapshots() throws -> MigrationSnapshots {
    let url = try XCTUnwrap(
      Bundle.module.url(forResource: "MigrationSnapshots", withExtension: nil))
    return try MigrationSnapshots(directory: url)
  }

  /// The file release 2 made, as shipped with the tests.
  static func release2Fixture() throws -> URL {
    let folder = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return folder.appendingPathComponent("notes-release2.sqlite")
  }

  /// A new temporary directory, removed by the returned closure.
  static func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "SwiftLiteTestingTests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// A failure a `verify` closure throws.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
