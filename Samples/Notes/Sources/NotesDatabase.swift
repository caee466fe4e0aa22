import Foundation
import SwiftLite

/// The notes app's migrations, release by release: each release's app ships the steps of
/// the releases before it, unchanged, and adds its own.
///
/// | Release | Step | Kind |
/// |---|---|---|
/// | 1 | `v1-tables` | models: `Folder`, `Note` (`pinned`, `body`) |
/// | 2 | `v2-data: pin urgent notes` | SQL, against release 1's columns |
/// | 3 | `v3-notes` | model: `pinned` renamed `isPinned`, an FTS index over title and body |
/// | 4 | `v4-notes` | model: `body` renamed `content`, the FTS index carried |
///
/// Every model step applies the shape recorded for it in `MigrationSnapshots/` (shipped as
/// a resource, recorded by `SwiftLiteTesting`'s `MigrationSnapshotCheck` in the tests), so
/// the release-2 SQL finds `pinned` on a fresh install of release 4 too.
public enum NotesDatabase {
  /// The last release.
  public static let latestRelease = 4

  /// Today's app's migrator: release 4's.
  /// - Throws: ``MigrationSnapshotError`` if the shipped snapshots cannot be read.
  public static var migrator: Migrator { get throws { try migrator(release: latestRelease) } }

  /// The migrator release `release` (1 to 4) shipped, with that release's models.
  /// - Throws: ``MigrationSnapshotError`` if the shipped snapshots cannot be read.
  public static func migrator(release: Int) throws -> Migrator {
    var migrator = try Migrator(snapshots: snapshotFolder)
    switch release {
    case ...2: migrator.registerModels("v1-tables", Folder.self, NotesHistory.NoteV1.self)
    case 3: migrator.registerModels("v1-tables", Folder.self, NotesHistory.NoteV3.self)
    default: migrator.registerModels("v1-tables", Folder.self, Note.self)
    }
    if release >= 2 {
      migrator.register("v2-data: pin urgent notes") { db in
        try db.run(
          """
          UPDATE note SET pinned = 1
          WHERE EXISTS (SELECT 1 FROM json_each(note.tags) WHERE value = 'urgent')
          """)
      }
    }
    switch release {
    case ...2: break
    case 3: migrator.registerModels("v3-notes", NotesHistory.NoteV3.self)
    default: migrator.registerModels("v3-notes", Note.self)
    }
    if release >= 4 { migrator.registerModels("v4-notes", Note.self) }
    return migrator
  }

  /// The schema snapshots the sample ships.
  private static var snapshotFolder: URL {
    get throws {
      guard let url = Bundle.module.url(forResource: "MigrationSnapshots", withExtension: nil)
      else {
        throw MigrationSnapshotError.unreadable(
          file: "MigrationSnapshots", reason: "the sample's resource folder is missing")
      }
      return url
    }
  }
}
