import CSQLite
import Foundation
import SwiftLite

// What an app pays at launch: opening its database brought up to date by its migrator,
// then its first read; and the first use of a model on a new connection. Each side launches
// many times, on a file already at the latest version (the common case: the app has been
// opened before).

/// A folder of the launch workloads' app.
struct LaunchFolder: Model, Sendable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

/// A note of the launch workloads' app.
struct LaunchNote: Model, Sendable {
  var id: Int64?
  var folderId: Int64
  var title: String
  var body: String
  var pinned: Bool
  static let primaryKey = ["id"]
}

extension Workloads {
  static let launch: [Workload] = [launchPrepared, launchFirstModelUse]

  /// The launches each side times.
  static let launches = 200

  /// The app's history: two model steps and three SQL steps, all applied on the files the
  /// workloads open.
  static var launchMigrator: Migrator {
    var migrator = Migrator()
    migrator.registerModels("v1-tables", LaunchFolder.self, LaunchNote.self)
    migrator.register("v2-index") { db in
      try db.execute("CREATE INDEX note_by_folder ON LaunchNote(folderId)")
    }
    migrator.register("v3-seed") { db in
      try db.execute("INSERT INTO LaunchFolder(name) VALUES ('Inbox')")
    }
    migrator.register("v4-welcome") { db in
      try db.run(
        "INSERT INTO LaunchNote(folderId, title, body, pinned) VALUES (1, 'Welcome', '', 1)")
    }
    migrator.registerModels("v5-tables", LaunchFolder.self, LaunchNote.self)
    return migrator
  }

  /// A file the app has already opened once: every step applied.
  static func launchDatabase(_ trial: Trial) throws -> String {
    let path = trial.fixtures.freshDatabase()
    let queue = try DatabaseQueue(path: path, preparation: launchMigrator)
    try queue.close()
    // The version number a program by hand keeps, for the raw side's check.
    RawDatabase(path: path).execute("PRAGMA user_version = 5")
    return path
  }

  /// Open with the migrator, first read, close, `launches` times. Raw C: open, read
  /// `PRAGMA user_version` (the check an app by hand makes), the same first read, close.
  static let launchPrepared = Workload(
    name: "launch_prepared",
    summary: "\(launches) launches: DatabaseQueue(path:preparation: migrator of 5 applied "
      + "steps) + first read + close (raw: open + user_version + the read + close)",
    target: nil,
    swiftLite: { trial in
      let path = try launchDatabase(trial)
      let migrator = launchMigrator
      return try trial.time {
        var sum: Int64 = 0
        for _ in 0..<launches {
          let queue = try DatabaseQueue(path: path, preparation: migrator)
          sum &+= try queue.read { db in
            try db.scalar(Int64.self, "SELECT count(*) FROM LaunchNote WHERE pinned = 1") ?? 0
          }
          try queue.close()
        }
        return sum
      }
    },
    raw: { trial in
      let path = try launchDatabase(trial)
      return trial.time {
        var sum: Int64 = 0
        for _ in 0..<launches {
          let db = RawDatabase(path: path)
          guard db.scalar("PRAGMA user_version") == 5 else { fatalError("raw: not migrated") }
          sum &+= db.scalar("SELECT count(*) FROM LaunchNote WHERE pinned = 1")
        }
        return sum
      }
    })

  /// Open a connection, find one note by its key as a model, close, `launches` times: the
  /// model's first use on each connection (its table described and checked). Raw C: open,
  /// prepare the same SELECT, read the row into the struct, close.
  static let launchFirstModelUse = Workload(
    name: "launch_first_model_use",
    summary: "\(launches) times: open a Connection + db.find(Model.self, id:) + close "
      + "(raw: open + prepare + step into the struct + close)",
    target: nil,
    swiftLite: { trial in
      let path = try launchDatabase(trial)
      return try trial.time {
        var sum: Int64 = 0
        for _ in 0..<launches {
          let db = try Connection(path: path)
          if let note = try db.find(LaunchNote.self, id: 1) {
            sum &+= note.folderId &+ Int64(note.title.utf8.count) &+ (note.pinned ? 1 : 0)
          }
          try db.close()
        }
        return sum
      }
    },
    raw: { trial in
      let path = try launchDatabase(trial)
      return trial.time {
        var sum: Int64 = 0
        for _ in 0..<launches {
          let db = RawDatabase(path: path)
          let statement = db.prepare(
            "SELECT id, folderId, title, body, pinned FROM LaunchNote WHERE id = ?")
          db.check(sqlite3_bind_int64(statement, 1, 1))
          if sqlite3_step(statement) == SQLITE_ROW {
            let note = LaunchNote(
              id: sqlite3_column_int64(statement, 0),
              folderId: sqlite3_column_int64(statement, 1),
              title: String(cString: sqlite3_column_text(statement, 2)),
              body: String(cString: sqlite3_column_text(statement, 3)),
              pinned: sqlite3_column_int64(statement, 4) != 0)
            sum &+= note.folderId &+ Int64(note.title.utf8.count) &+ (note.pinned ? 1 : 0)
          }
          sqlite3_finalize(statement)
        }
        return sum
      }
    })
}
