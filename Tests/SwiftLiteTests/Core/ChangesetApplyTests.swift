import Foundation
import XCTest

@testable import SwiftLite

/// Applying changesets: every conflict kind with every answer, all-or-nothing, and the
/// checks made before anything is written.
final class ChangesetApplyTests: TemporaryDirectoryTestCase {
  typealias Kind = ChangesetConflict.Kind
  typealias Resolution = ChangesetConflict.Resolution

  static let schema = """
    CREATE TABLE parent(id TEXT PRIMARY KEY NOT NULL);
    CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT, parentId TEXT REFERENCES parent(id));
    CREATE UNIQUE INDEX note_body ON note(body);
    INSERT INTO parent VALUES ('p');
    INSERT INTO note VALUES ('n1', 'one', 'p');
    """

  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
  }

  /// Two copies of one database; `prepare` edits the receiving copy, `edit` the recording
  /// one while a session records `parent` (with one clean insert first) then `note`.
  private func scenario(
    _ name: String, target prepare: String, source edit: String, sourceSetup: String = ""
  ) throws -> (target: Connection, changeset: Changeset) {
    let source = try open(name + "-source.sqlite")
    let target = try open(name + "-target.sqlite")
    try source.execute(Self.schema + sourceSetup)
    try target.execute(Self.schema + prepare)
    let session = try Session(on: source)
    try session.attach("parent")
    try session.attach("note")
    try source.run("INSERT INTO parent VALUES ('clean')")
    try source.execute(edit)
    let changeset = try session.changeset()
    try session.close()
    try source.close()
    return (target, changeset)
  }

  private func scenario(_ kind: Kind, _ tag: String) throws -> (Connection, Changeset) {
    switch kind {
    case .data:
      return try scenario(
        "data-" + tag, target: "UPDATE note SET body = 'theirs' WHERE id = 'n1';",
        source: "UPDATE note SET body = 'mine' WHERE id = 'n1';")
    case .notFound:
      return try scenario(
        "notFound-" + tag, target: "DELETE FROM note WHERE id = 'n1';",
        source: "UPDATE note SET body = 'mine' WHERE id = 'n1';")
    case .conflict:
      return try scenario(
        "conflict-" + tag, target: "INSERT INTO note VALUES ('n2', 'theirs', 'p');",
        source: "INSERT INTO note VALUES ('n2', 'mine', 'p');")
    case .constraint:
      return try scenario(
        "constraint-" + tag, target: "INSERT INTO note VALUES ('n3', 'dup', 'p');",
        source: "INSERT INTO note VALUES ('n4', 'dup', 'p');")
    case .foreignKey:
      return try scenario(
        "foreignKey-" + tag, target: "", source: "INSERT INTO note VALUES ('n5', 'five', 'q');",
        sourceSetup: "INSERT INTO parent VALUES ('q');")
    }
  }

  private func notes(_ db: Connection) throws -> [String] {
    try db.query("SELECT id || ':' || body FROM note ORDER BY id").map {
      try $0.get(String.self, at: 0)
    }
  }

  private func cleanApplied(_ db: Connection) throws -> Bool {
    try db.scalar(Int.self, "SELECT count(*) FROM parent WHERE id = 'clean'") == 1
  }

  func testEveryConflictKindWithEveryAnswer() throws {
    let kinds: [Kind] = [.data, .notFound, .conflict, .constraint, .foreignKey]
    let answers: [Resolution] = [.omit, .replace, .abort]
    // What the notes of the receiving copy are after each accepted answer.
    let expected: [Kind: [Resolution: [String]]] = [
      .data: [.omit: ["n1:theirs"], .replace: ["n1:mine"]],
      .notFound: [.omit: []],
      .conflict: [.omit: ["n1:one", "n2:theirs"], .replace: ["n1:one", "n2:mine"]],
      .constraint: [.omit: ["n1:one", "n3:dup"]],
      .foreignKey: [.omit: ["n1:one", "n5:five"]],
    ]
    for kind in kinds {
      for answer in answers {
        let label = "\(kind) answered \(answer)"
        let (target, changeset) = try scenario(kind, "\(answer)")
        defer { try? target.close() }
        let file = URL(fileURLWithPath: target.path)
        let before = try Data(contentsOf: file)
        let notesBefore = try notes(target)
        var seen: [ChangesetConflict] = []
        do {
          try target.apply(changeset) { conflict in
            seen.append(conflict)
            return answer
          }
          guard let rows = expected[kind]?[answer] else {
            XCTFail("\(label): accepted")
            continue
          }
          XCTAssertEqual(try notes(target), rows, label)
          XCTAssertTrue(try cleanApplied(target), label)
          XCTAssertEqual(try target.scalar(Int.self, "PRAGMA foreign_keys"), 1, label)
        } catch let error as ChangesetError {
          switch (answer, error) {
          case (.abort, .aborted(let abortedKind, let table)):
            XCTAssertEqual(abortedKind, kind, label)
            XCTAssertEqual(table, kind == .foreignKey ? nil : "note", label)
          case (.replace, .invalidResolution(.replace, let invalidKind, _)):
            XCTAssertEqual(invalidKind, kind, label)
            XCTAssertFalse([.data, .conflict].contains(kind), label)
          default:
            XCTFail("\(label): \(error)")
          }
          XCTAssertEqual(try notes(target), notesBefore, label)
          XCTAssertFalse(try cleanApplied(target), "\(label): the clean change is rolled back")
          XCTAssertFalse(target.isInTransaction, label)
          XCTAssertEqual(try Data(contentsOf: file), before, "\(label): the file is unchanged")
        }
        XCTAssertEqual(seen.map(\.kind), [kind], label)
        guard let conflict = seen.first else { continue }
        XCTAssertEqual(conflict.allows(.replace), kind == .data || kind == .conflict, label)
        switch kind {
        case .data:
          XCTAssertEqual(conflict.table, "note", label)
          XCTAssertEqual(conflict.operation, .update, label)
          XCTAssertEqual(conflict.columns, ["id", "body", "parentId"], label)
          XCTAssertEqual(conflict.primaryKey, [true, false, false], label)
          XCTAssertEqual(conflict.old("body"), "one", label)
          XCTAssertEqual(conflict.new("body"), "mine", label)
          XCTAssertEqual(conflict.current("body"), "theirs", label)
          XCTAssertNil(
            conflict.new?[2] ?? nil, "an UPDATE holds no value for columns it left alone")
        case .notFound:
          XCTAssertEqual(conflict.operation, .update, label)
          XCTAssertEqual(conflict.old("id"), "n1", label)
          XCTAssertNil(conflict.current, label)
        case .conflict:
          XCTAssertEqual(conflict.operation, .insert, label)
          XCTAssertEqual(conflict.new("body"), "mine", label)
          XCTAssertEqual(conflict.current("body"), "theirs", label)
          XCTAssertNil(conflict.old, label)
        case .constraint:
          XCTAssertEqual(conflict.operation, .insert, label)
          XCTAssertEqual(conflict.new("id"), "n4", label)
          XCTAssertNil(conflict.current, label)
        case .foreignKey:
          XCTAssertNil(conflict.table, label)
          XCTAssertNil(conflict.operation, label)
          XCTAssertEqual(conflict.foreignKeyConflicts, 1, label)
          XCTAssertNil(conflict.current, label)
        }
      }
    }
  }

  func testByDefaultAConflictAbortsAndTheErrorSaysWhere() throws {
    let (target, changeset) = try scenario(.data, "default")
    defer { try? target.close() }
    XCTAssertThrowsError(try target.apply(changeset)) { error in
      XCTAssertEqual(error as? ChangesetError, .aborted(kind: .data, table: "note"))
      XCTAssertEqual(
        "\(error)",
        "the changeset was not applied: the conflict handler aborted on a data conflict in "
          + "table 'note'")
    }
  }

  func testAHandlerThatThrowsRollsBackAndItsErrorIsRethrown() throws {
    let (target, changeset) = try scenario(.conflict, "throws")
    defer { try? target.close() }
    let before = try Data(contentsOf: URL(fileURLWithPath: target.path))
    XCTAssertThrowsError(try target.apply(changeset) { _ in throw TestError(id: 7) }) {
      XCTAssertEqual($0 as? TestError, TestError(id: 7))
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target.path)), before)
  }

  func testAnApplyInsideATransactionIsASavepointOfIt() throws {
    let (target, changeset) = try scenario(.conflict, "nested")
    defer { try? target.close() }
    try target.transaction { db in
      try db.run("INSERT INTO parent VALUES ('outer')")
      XCTAssertThrowsError(try db.apply(changeset))
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM parent WHERE id = 'outer'"), 1)
      try db.apply(changeset) { _ in .replace }
    }
    XCTAssertEqual(try notes(target), ["n1:one", "n2:mine"])
  }

  func testATableWhoseColumnsOrKeyDifferIsATypedErrorAndNothingIsApplied() throws {
    let source = try open("source.sqlite")
    try source.execute(
      "CREATE TABLE parent(id TEXT PRIMARY KEY NOT NULL); CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT)"
    )
    let session = try Session(on: source)
    try session.attachAllTables()
    try source.run("INSERT INTO parent VALUES ('p')")
    try source.run("INSERT INTO note VALUES ('n', 'body')")
    let changeset = try session.changeset()
    let receivers = [
      "added": "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT, extra TEXT)",
      "removed": "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL)",
      "rekeyed": "CREATE TABLE note(id TEXT NOT NULL, body TEXT PRIMARY KEY)",
      "unkeyed": "CREATE TABLE note(id TEXT, body TEXT)",
      "missing": "",
      "virtual": "CREATE VIRTUAL TABLE note USING fts5(id, body)",
    ]
    for (name, sql) in receivers.sorted(by: { $0.key < $1.key }) {
      let target = try open(name + ".sqlite")
      defer { try? target.close() }
      try target.execute("CREATE TABLE parent(id TEXT PRIMARY KEY NOT NULL);" + sql)
      XCTAssertThrowsError(try target.apply(changeset), name) { error in
        guard case .schemaMismatch(let table, _)? = error as? ChangesetError else {
          return XCTFail("\(name): \(error)")
        }
        XCTAssertEqual(table, "note", name)
      }
      XCTAssertEqual(
        try target.scalar(Int.self, "SELECT count(*) FROM parent"), 0,
        "\(name): the matching table is not applied either")
    }
  }

  func testWithoutRowIDTablesApplyAndCountAsChanged() throws {
    let source = try open("source.sqlite")
    let target = try open("target.sqlite")
    defer { try? target.close() }
    let schema = "CREATE TABLE tag(name TEXT PRIMARY KEY NOT NULL, n INTEGER) WITHOUT ROWID"
    try source.execute(schema)
    try target.execute(schema)
    let session = try Session(on: source)
    try session.attach("tag")
    try source.run("INSERT INTO tag VALUES ('a', 1)")
    target.startTrackingChanges()
    try target.apply(try session.changeset())
    XCTAssertEqual(target.takeCommittedChanges(), ["tag"])
    XCTAssertEqual(try target.scalar(Int.self, "SELECT n FROM tag WHERE name = 'a'"), 1)
  }
}
