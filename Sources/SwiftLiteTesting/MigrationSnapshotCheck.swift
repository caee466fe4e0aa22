import Foundation
import SwiftLite

/// Checks, in an app's tests, that the schema snapshots of its ``Migrator`` are recorded and
/// current; records the missing ones when asked.
///
/// ```swift
/// import XCTest
///
/// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
/// enum AppDatabase {
///   static var migrator: Migrator {
///     var migrator = Migrator()
///     migrator.register("v1-tables") { db in
///       try db.execute("CREATE TABLE Note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
///     }
///     return migrator
///   }
/// }
///
/// func testMigrationSnapshots() throws {
///   let check = MigrationSnapshotCheck(
///     AppDatabase.migrator,
///     directory: MigrationSnapshotCheck.sourceDirectory("../../Sources/App/MigrationSnapshots"))
///   let report = try check.run()   // records when SWIFTLITE_RECORD_SNAPSHOTS=1
///   XCTAssertTrue(report.passed, report.description)
///   // Swift Testing: #expect(report.passed, "\(report)")
/// }
/// ```
///
/// It reads the snapshot files from `directory` (the folder of the source tree that the app
/// ships as a resource) and compares them with the models as compiled now. It fails, with
/// the fix in its message, when:
///
/// - a model step has no snapshot (record it);
/// - a model differs from the snapshot of the *last* step that registers its table: the
///   model changed without a new step (add one, or re-record a step that has never shipped).
///   The shapes are compared: columns with their type, nullability, UNIQUE, DEFAULT, CHECK,
///   COLLATE and Swift type, primary key, AUTOINCREMENT, STRICT, indexes and foreign keys.
///   Renamed, droppable and lossy-convertible columns are how a step gets to its shape,
///   not the shape: a change to them alone needs no new step;
/// - a file cannot be read, records a step that is not a model step, or two steps share a
///   file name.
///
/// Earlier steps are not compared with today's models: they record history.
///
/// **Recording is explicit**, since a library cannot see the app's build configuration:
/// `run(record: true)`, or the environment variable ``recordEnvironmentVariable`` set to `1`.
/// Recording writes the snapshot of each model step that has none, from the models as
/// compiled now, and reports each file written as a failure, so that a recording run is
/// never mistaken for a passing one: review the files, commit them, run again. It never
/// overwrites a snapshot (a shipped step's shape is history): to re-record a step that has
/// never shipped, delete its file.
///
/// `Sendable`: a `Migrator` and a URL.
public struct MigrationSnapshotCheck: Sendable {
  /// The environment variable that asks ``run(record:)`` to record: `1`, `true` or `yes`.
  public static let recordEnvironmentVariable = "SWIFTLITE_RECORD_SNAPSHOTS"

  /// Whether ``recordEnvironmentVariable`` asks for recording in this process.
  public static var isRecordingRequested: Bool {
    let value = ProcessInfo.processInfo.environment[recordEnvironmentVariable]?.lowercased()
    return ["1", "true", "yes"].contains(value ?? "")
  }

  /// A directory of the source tree, given relative to the folder of the calling file.
  ///
  /// ```swift
  /// let directory = MigrationSnapshotCheck.sourceDirectory("../../Sources/App/MigrationSnapshots")
  /// ```
  public static func sourceDirectory(_ relativePath: String, from file: StaticString = #filePath)
    -> URL
  {
    URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
      .appendingPathComponent(relativePath, isDirectory: true).standardizedFileURL
  }

  /// The migrator checked.
  public let migrator: Migrator
  /// The directory of the snapshot files in the source tree.
  public let directory: URL

  /// A check of `migrator`'s model steps against the snapshot files of `directory`.
  public init(_ migrator: Migrator, directory: URL) {
    self.migrator = migrator
    self.directory = directory
  }

  /// Checks the snapshots, recording the missing ones when `record`.
  /// - Parameter record: write the missing snapshots; by default, what
  ///   ``recordEnvironmentVariable`` asks.
  /// - Returns: the problems found (and files recorded); ``MigrationSnapshotReport/passed``
  ///   when there are none.
  /// - Throws: ``ModelError`` when a model cannot be mapped, the errors of listing or
  ///   writing the directory.
  public func run(record: Bool = isRecordingRequested) throws -> MigrationSnapshotReport {
    var problems: [MigrationSnapshotReport.Problem] = []
    let steps = migrator.modelStepNames
    let manager = FileManager.default

    // The files, read one by one so that one bad file does not hide the others.
    var recorded: [String: (snapshot: SchemaSnapshot, file: String)] = [:]
    if manager.fileExists(atPath: directory.path) {
      let files = try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
      for file in files {
        do {
          let snapshot = try SchemaSnapshot(jsonData: Data(contentsOf: file))
          if let other = recorded[snapshot.step] {
            problems.append(.sharedStep(step: snapshot.step, files: [other.file, file.path]))
          }
          recorded[snapshot.step] = (snapshot, file.path)
          if !steps.contains(snapshot.step) {
            problems.append(.notAModelStep(step: snapshot.step, file: file.path))
          }
        } catch {
          problems.append(.unreadable(file: file.path, reason: "\(error)"))
        }
      }
    }
    var byFileName: [String: [String]] = [:]
    for step in steps {
      byFileName[MigrationSnapshots.fileName(forStep: step), default: []].append(step)
    }
    for (file, sharing) in byFileName.sorted(by: { $0.key < $1.key }) where sharing.count > 1 {
      problems.append(.sharedFileName(steps: sharing, file: file))
    }

    // Current tables of every model step, and the last step of each table.
    var current: [String: [SchemaSnapshot.Table]] = [:]
    var lastStep: [String: String] = [:]
    for step in steps {
      let tables = try migrator.currentModelTables(ofStep: step) ?? []
      current[step] = tables
      for table in tables { lastStep[table.name.lowercased()] = step }
    }

    for step in steps where recorded[step] == nil {
      let file = directory.appendingPathComponent(MigrationSnapshots.fileName(forStep: step))
      guard record else {
        problems.append(.missing(step: step, file: file.path))
        continue
      }
      let tables = current[step] ?? []
      let snapshot = SchemaSnapshot(step: step, tables: tables)
      try manager.createDirectory(at: directory, withIntermediateDirectories: true)
      try snapshot.jsonData().write(to: file, options: .atomic)
      recorded[step] = (snapshot, file.path)
      let registeredLater = tables.map(\.name).filter { lastStep[$0.lowercased()] != step }
      problems.append(
        .recorded(step: step, file: file.path, tablesRegisteredLater: registeredLater))
    }

    for (table, step) in lastStep.sorted(by: { $0.key < $1.key }) {
      guard let snapshot = recorded[step]?.snapshot,
        let now = current[step]?.first(where: { $0.name.lowercased() == table })
      else { continue }
      guard let then = snapshot.tables.first(where: { $0.name.lowercased() == table }) else {
        problems.append(
          .modelChanged(
            table: now.name, step: step, file: recorded[step]?.file ?? "",
            changes: ["+ now: the step registers \(now.name), which its snapshot does not hold"]))
        continue
      }
      let before = Self.lines(then)
      // A snapshot of format 1 cannot hold full-text indexes: the model's are not compared.
      let after = Self.lines(now, fullTextIndexes: snapshot.formatVersion >= 2)
      let changes =
        before.filter { !after.contains($0) }.map { "- recorded: " + $0 }
        + after.filter { !before.contains($0) }.map { "+ now:      " + $0 }
      if !changes.isEmpty {
        problems.append(
          .modelChanged(
            table: now.name, step: step, file: recorded[step]?.file ?? "", changes: changes))
      }
    }
    return MigrationSnapshotReport(problems: problems)
  }

  /// A table's shape, one line per fact, for comparing a snapshot with a model; its
  /// full-text indexes unless `fullTextIndexes` is `false`.
  static func lines(_ table: SchemaSnapshot.Table, fullTextIndexes: Bool = true) -> [String] {
    var lines = table.columns.enumerated().map { position, column in
      var line = "column \(position + 1): \(column.name) \(column.type)"
      if column.isNotNull { line += " NOT NULL" }
      if column.isUnique { line += " UNIQUE" }
      if let value = column.defaultSQL { line += " DEFAULT \(value)" }
      if let collation = column.collation { line += " COLLATE \(collation)" }
      if let check = column.check { line += " CHECK (\(check))" }
      if let swiftType = column.swiftType { line += " (Swift \(swiftType))" }
      return line
    }
    lines.append(
      "primary key (" + table.primaryKey.joined(separator: ", ") + ")"
        + (table.autoIncrement ? " AUTOINCREMENT" : ""))
    if table.isStrict { lines.append("STRICT") }
    lines += table.indexes.map {
      ($0.isUnique ? "unique index " : "index ") + $0.name + " ("
        + $0.columns.joined(separator: ", ") + ")"
    }
    lines += table.foreignKeys.map {
      "foreign key (" + $0.columns.joined(separator: ", ") + ") REFERENCES " + $0.table
        + ($0.parentColumns.isEmpty ? "" : " (" + $0.parentColumns.joined(separator: ", ") + ")")
        + " ON DELETE " + $0.onDelete.rawValue + " ON UPDATE " + $0.onUpdate.rawValue
    }
    lines += (fullTextIndexes ? table.fullTextIndexes : []).map {
      "full-text index \($0.name) (" + $0.columns.joined(separator: ", ") + ") rows by "
        + $0.contentRowID + " tokenize '\($0.tokenizer)'"
        + ($0.prefixes.isEmpty
          ? "" : " prefix " + $0.prefixes.map(String.init).joined(separator: " "))
    }
    return lines
  }
}
