import CSQLite
import Foundation
import SwiftLite

// What recording and applying changesets cost. `changeset_record` and `changeset_apply`
// compare SwiftLite with the C API doing the same work (a session of the C API, its own
// sqlite3changeset_apply): the ratio is what SwiftLite adds. The `_vs_plain` pair compares
// the same SwiftLite work with plain C inserts, no session: what the feature itself costs,
// most of it inside SQLite.

extension Workloads {
  static let changesets: [Workload] = [
    changesetRecord, changesetApply, changesetRecordVsPlain, changesetApplyVsPlain,
  ]

  /// The core `insert` workload with a session recording the table, on both sides. BEGIN
  /// is timed, COMMIT is not, as in `insert`.
  static let changesetRecord = Workload(
    name: "changeset_record",
    summary: "insert rows in one transaction with a session attached, both sides",
    target: 1.3, swiftLite: swiftLiteRecordedInsert,
    raw: { trial in
      let db = RawDatabase(path: trial.fixtures.freshDatabase())
      let session = RawSession(db)
      defer { session.delete() }
      return rawInsertTimed(trial, db, commitTimed: false)
    })

  /// A changeset of every row (recorded untimed on another file) applied to an empty
  /// table, on both sides in one transaction, COMMIT timed (an apply commits by itself).
  static let changesetApply = Workload(
    name: "changeset_apply",
    summary: "apply a changeset inserting every row, both sides (C: sqlite3changeset_apply)",
    target: 1.2, swiftLite: swiftLiteApply,
    raw: { trial in
      let changeset = try recordedInserts(trial)
      let db = RawDatabase(path: trial.fixtures.freshDatabase())
      let apply = RawSession.api.apply
      let code = trial.time {
        changeset.data.withUnsafeBytes { bytes in
          apply(
            db.handle, Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            nil, nil, nil)
        }
      }
      db.check(code)
      return db.scalar(Fixtures.insertChecksumSQL)
    })

  /// `changeset_record`'s SwiftLite side against plain C inserts without a session.
  static let changesetRecordVsPlain = Workload(
    name: "changeset_record_vs_plain",
    summary: "insert rows with a Session attached vs raw C inserts without one",
    target: nil, swiftLite: swiftLiteRecordedInsert,
    raw: { trial in
      rawInsertTimed(trial, RawDatabase(path: trial.fixtures.freshDatabase()), commitTimed: false)
    })

  /// `changeset_apply`'s SwiftLite side against the same inserts by hand in C.
  static let changesetApplyVsPlain = Workload(
    name: "changeset_apply_vs_plain",
    summary: "apply a changeset of every row vs raw C inserts of the rows (COMMIT timed)",
    target: nil, swiftLite: swiftLiteApply,
    raw: { trial in
      rawInsertTimed(trial, RawDatabase(path: trial.fixtures.freshDatabase()), commitTimed: true)
    })

  static func swiftLiteRecordedInsert(_ trial: Trial) throws -> Int64 {
    let db = try Connection(path: trial.fixtures.freshDatabase())
    let session = try Session(on: db)
    try session.attach("item")
    let v = trial.fixtures.values
    try trial.time {
      try db.execute("BEGIN")
      let insert = try db.prepare(Fixtures.insertSQL)
      for base in stride(from: 0, to: trial.rows * 10, by: 10) {
        try insert.bind(
          values: v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
          v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9])
        try insert.run()
      }
    }
    try db.execute("COMMIT")
    guard try session.changeset().changes().count == trial.rows else {
      fatalError("the session missed rows")
    }
    return try db.scalar(Int64.self, Fixtures.insertChecksumSQL) ?? 0
  }

  static func swiftLiteApply(_ trial: Trial) throws -> Int64 {
    let changeset = try recordedInserts(trial)
    let db = try Connection(path: trial.fixtures.freshDatabase())
    try trial.time { try db.apply(changeset) }
    return try db.scalar(Int64.self, Fixtures.insertChecksumSQL) ?? 0
  }

  /// The raw inserts of `rawInsert`, on an open database; COMMIT timed or not.
  static func rawInsertTimed(_ trial: Trial, _ db: RawDatabase, commitTimed: Bool) -> Int64 {
    let v = trial.fixtures.values
    trial.time {
      db.execute("BEGIN IMMEDIATE")
      let insert = db.prepare(Fixtures.insertSQL)
      for base in stride(from: 0, to: trial.rows * 10, by: 10) {
        for column in 0..<10 {
          db.check(sqlite3_bind_int64(insert, Int32(column + 1), v[base + column]))
        }
        db.expect(sqlite3_step(insert), SQLITE_DONE)
        sqlite3_reset(insert)
      }
      sqlite3_finalize(insert)
      if commitTimed { db.execute("COMMIT") }
    }
    if !commitTimed { db.execute("COMMIT") }
    return db.scalar(Fixtures.insertChecksumSQL)
  }

  /// A changeset inserting every row of the fixtures, recorded on a file of its own.
  static func recordedInserts(_ trial: Trial) throws -> Changeset {
    let db = try Connection(path: trial.fixtures.freshDatabase())
    let session = try Session(on: db)
    try session.attach("item")
    let v = trial.fixtures.values
    try db.transaction { db in
      let insert = try db.prepare(Fixtures.insertSQL)
      for base in stride(from: 0, to: trial.rows * 10, by: 10) {
        try insert.bind(
          values: v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
          v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9])
        try insert.run()
      }
    }
    return try session.changeset()
  }
}

/// A session of the C API on the `item` table. `sqlite3.h` declares the session functions
/// only with SQLITE_ENABLE_SESSION, so they are looked up as SwiftLite does.
struct RawSession {
  typealias Create =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
  typealias Attach = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
  typealias Delete = @convention(c) (OpaquePointer?) -> Void
  typealias Apply =
    @convention(c) (
      OpaquePointer?, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> Int32

  static let api = (
    create: unsafeBitCast(symbol("sqlite3session_create"), to: Create.self),
    attach: unsafeBitCast(symbol("sqlite3session_attach"), to: Attach.self),
    delete: unsafeBitCast(symbol("sqlite3session_delete"), to: Delete.self),
    apply: unsafeBitCast(symbol("sqlite3changeset_apply"), to: Apply.self)
  )

  private static func symbol(_ name: String) -> UnsafeMutableRawPointer {
    guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else {
      fatalError("raw: this SQLite has no \(name)")
    }
    return pointer
  }

  let handle: OpaquePointer

  init(_ db: RawDatabase) {
    var session: OpaquePointer?
    db.check(Self.api.create(db.handle, "main", &session))
    handle = session!
    db.check(Self.api.attach(handle, "item"))
  }

  func delete() { Self.api.delete(handle) }
}
