import Foundation
import SwiftLite
import SwiftLiteTesting

/// The notes app through its four releases: once on one file, upgraded release by release
/// (each release's app opening it with its own migrator as the launch preparation), and
/// once from scratch with release 4; then the two schemas, printed and compared.
///
/// The comparison uses `SwiftLiteTesting`'s `DatabaseSchema`, the definition of equality
/// its migration history check uses; an app does that in its tests, not at run time.
public struct NotesDemo {
  /// The folder the two database files are written in.
  public let directory: URL
  /// Where each line goes; `print` by default.
  public var output: (String) -> Void = { print($0) }

  /// A demo writing `notes-upgraded.sqlite` and `notes-fresh.sqlite` in `directory`.
  public init(directory: URL) {
    self.directory = directory
  }

  /// The file upgraded release by release.
  public var upgradedPath: String { directory.appendingPathComponent("notes-upgraded.sqlite").path }
  /// The file made by release 4 from scratch.
  public var freshPath: String { directory.appendingPathComponent("notes-fresh.sqlite").path }

  /// Runs the demo, replacing the files of an earlier run.
  /// - Returns: whether the two schemas are equal.
  /// - Throws: `SQLiteError`, ``MigratorError``, ``ModelError`` or ``MigrationSnapshotError``.
  @discardableResult
  public func run() throws -> Bool {
    for path in [upgradedPath, freshPath] {
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    try releaseOne()
    try releaseTwo()
    try releaseThree()
    try releaseFour(path: upgradedPath, label: "upgraded")
    try freshInstall()

    let upgraded = try schema(of: upgradedPath)
    let fresh = try schema(of: freshPath)
    output("-- schema after upgrading release by release --")
    output(upgraded.description)
    output("-- schema of a fresh install of release 4 --")
    output(fresh.description)
    let differences = upgraded.differences(from: fresh)
    for difference in differences { output("difference: \(difference)") }
    output("schemas equal: \(differences.isEmpty)")
    return differences.isEmpty
  }

  // MARK: Releases

  private static func day(_ n: Int) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 86_400)
  }

  private func open(release: Int, _ path: String) throws -> DatabaseQueue {
    try DatabaseQueue(path: path, preparation: NotesDatabase.migrator(release: release))
  }

  private func releaseOne() throws {
    let queue = try open(release: 1, upgradedPath)
    defer { try? queue.close() }
    try queue.write { db in
      let work = try db.insertAndFetch(Folder(name: "Work", createdAt: Self.day(0)))
      let home = try db.insertAndFetch(Folder(name: "Home", createdAt: Self.day(0)))
      typealias NoteV1 = NotesHistory.NoteV1
      for note in [
        NoteV1(
          folderID: work.id!, title: "Quarterly report", body: "Draft the report for the board",
          tags: ["urgent", "report"], createdAt: Self.day(1)),
        NoteV1(
          folderID: work.id!, title: "Team lunch", body: "Book a table for the team",
          tags: ["team"], createdAt: Self.day(2)),
        NoteV1(
          folderID: home.id!, title: "Groceries", body: "Coffee, bread, and a report binder",
          tags: ["shopping"], createdAt: Self.day(3)),
      ] {
        _ = try db.insert(note)
      }
    }
    output("release 1: \(try queue.read { try $0.count(NotesHistory.NoteV1.self) }) notes")
  }

  private func releaseTwo() throws {
    let queue = try open(release: 2, upgradedPath)
    defer { try? queue.close() }
    let pinned = try queue.read { db in
      try db.scalar(Int.self, "SELECT count(*) FROM note WHERE pinned")
    }
    output("release 2: the data step pinned \(pinned ?? 0) urgent note")
  }

  private func releaseThree() throws {
    let queue = try open(release: 3, upgradedPath)
    defer { try? queue.close() }
    let titles = try queue.read { db in
      try NotesHistory.NoteV3.all().matching(.allWords(in: "report")).fetchAll(db).map(\.title)
    }
    output("release 3: search \"report\": \(titles)")
  }

  /// Release 4's launch: the first call is a read.
  private func releaseFour(path: String, label: String) throws {
    let queue = try open(release: 4, path)
    defer { try? queue.close() }
    let lines = try queue.read { db -> [String] in
      let hits = try Note.all()
        .matching(.allWords(in: "report"), weights: ["title": 10])
        .fetchHits(db, [.snippet(of: "content", before: "[", after: "]", tokens: 6)])
      let counts = try Folder.all()
        .annotated(with: Folder.notes.count.aliased("noteCount"))
        .order(Column("name"))
        .fetchAll(db, as: FolderCount.self)
      let urgent = try Note.filter(Column("tags").jsonArrayContains("urgent")).fetchAll(db)
      return [
        "release 4 (\(label)): search \"report\": "
          + hits.map { "\($0.model.title) \($0.snippets[0] ?? "")" }.joined(separator: "; "),
        "release 4 (\(label)): folders: "
          + counts.map { "\($0.name) \($0.noteCount)" }.joined(separator: ", "),
        "release 4 (\(label)): tagged urgent: \(urgent.map(\.title)), pinned: "
          + "\(urgent.map(\.isPinned))",
      ]
    }
    lines.forEach(output)
  }

  private func freshInstall() throws {
    let queue = try open(release: 4, freshPath)
    try queue.write { db in
      let work = try db.insertAndFetch(Folder(name: "Work", createdAt: Self.day(0)))
      let home = try db.insertAndFetch(Folder(name: "Home", createdAt: Self.day(0)))
      _ = try db.insert(
        Note(
          folderID: work.id!, title: "Quarterly report", content: "Draft the report for the board",
          tags: ["urgent", "report"], isPinned: true, createdAt: Self.day(1)))
      _ = try db.insert(
        Note(
          folderID: work.id!, title: "Team lunch", content: "Book a table for the team",
          tags: ["team"], createdAt: Self.day(2)))
      _ = try db.insert(
        Note(
          folderID: home.id!, title: "Groceries", content: "Coffee, bread, and a report binder",
          tags: ["shopping"], createdAt: Self.day(3)))
    }
    try queue.close()
    try releaseFour(path: freshPath, label: "fresh")
  }

  private func schema(of path: String) throws -> DatabaseSchema {
    let db = try Connection(path: path, options: .readOnly)
    defer { try? db.close() }
    return try DatabaseSchema(db)
  }
}

/// A folder with the number of its notes, read by `annotated(with:)`.
struct FolderCount: Decodable {
  var name: String
  var noteCount: Int
}
