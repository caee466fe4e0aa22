import Foundation
import PowerLossVFS
import XCTest

@testable import SwiftLite

// What every test suite of the library shares: a fresh directory per test, a database in
// it, one way to assert a thrown error, and helpers that read a file back.

/// A test case with a fresh, empty directory of its own, removed at tear-down.
class TemporaryDirectoryTestCase: XCTestCase {
  /// The per-test temporary directory.
  private(set) var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SwiftLiteTests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    directory = nil
    try super.tearDownWithError()
  }

  /// A path inside the per-test directory.
  func path(_ name: String = "test.sqlite") -> String {
    directory.appendingPathComponent(name).path
  }

  /// A new connection to a file of this test's directory.
  func open(_ name: String = "test.sqlite") throws -> Connection {
    try Connection(path: path(name))
  }
}

/// Tests of models, each opening the connections it needs on files of its directory.
typealias ModelTestCase = TemporaryDirectoryTestCase

/// A test case with a fresh database file per test.
///
/// `setUp` makes a new temporary directory, opens ``db`` on a real file inside it and records
/// every statement it runs (through ``Connection/trace``) in ``executedSQL``. `tearDown`
/// checks that no statement was left mid-step, closes the connection and removes the
/// directory.
class SQLiteTestCase: TemporaryDirectoryTestCase {
  /// The connection on ``databasePath``, opened with the default options.
  var db: Connection!
  private let log = SQLLog()

  /// The SQL run on ``db`` so far, in order, as SQLite reports it (unexpanded).
  var executedSQL: [String] { log.lines }

  /// The file ``db`` is open on.
  var databasePath: String { path("test.sqlite") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    db = try Connection(path: databasePath)
    let log = self.log
    db.trace = { log.append($0) }
  }

  override func tearDownWithError() throws {
    if let db {
      XCTAssertFalse(db.hasStatementInProgress, "a statement was left mid-step")
      XCTAssertNoThrow(try db.close(), "statements were left unfinalized")
    }
    db = nil
    try super.tearDownWithError()
  }

  /// Opens another connection on the test's database file.
  func openSecondConnection(busyTimeout: Double = 5) throws -> Connection {
    var options = OpenOptions()
    options.busyTimeout = busyTimeout
    return try Connection(path: databasePath, options: options)
  }

  /// Forgets the SQL recorded so far.
  func clearExecutedSQL() { log.lines.removeAll() }

  /// Asserts that `body` throws an `SQLiteError` and hands it to `check`.
  func assertSQLiteError<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (SQLiteError) -> Void = { _ in }
  ) {
    if let error = thrownError(SQLiteError.self, file: file, line: line, { _ = try body() }) {
      check(error)
    }
  }

  /// Asserts that `body` throws a `DecodingError` and returns it with its debug description.
  @discardableResult
  func assertDecodingError<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
  ) -> (error: DecodingError, description: String)? {
    thrownError(DecodingError.self, file: file, line: line) { _ = try body() }
      .map { ($0, $0.debugDescriptionText) }
  }
}

/// Collects traced SQL. Only touched from the test's own thread.
private final class SQLLog {
  var lines: [String] = []
  func append(_ line: String) { lines.append(line) }
}

/// Lets a value cross into a `@Sendable` closure when the test guarantees a single user.
final class Unchecked<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A thread-safe collector for values produced on many threads.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value { lock.withLock { stored } }
  func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// An error a test throws on purpose.
struct TestError: Error, Equatable {
  var id = 0
}

/// The helper executable that writes a database from another process
/// (`SwiftLiteProcessHelper`), built next to the test bundle.
/// - Throws: `TestError(id: 404)` when it was not built (`swift build --build-tests`).
func processHelperURL() throws -> URL {
  #if os(Linux)
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  #else
    let testBinary = Bundle(for: TemporaryDirectoryTestCase.self).bundleURL
  #endif
  let url = testBinary.deletingLastPathComponent().appendingPathComponent(
    "SwiftLiteProcessHelper")
  guard FileManager.default.isExecutableFile(atPath: url.path) else {
    throw TestError(id: 404)
  }
  return url
}

extension DecodingError {
  /// The debug description of the context, whatever the case.
  var debugDescriptionText: String {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return context.debugDescription
    @unknown default:
      return String(describing: self)
    }
  }

  /// The coding path of the context, as strings.
  var codingPathText: [String] {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return context.codingPath.map(\.stringValue)
    @unknown default:
      return []
    }
  }
}

/// Resident memory of this process in bytes, from `/proc/self/statm` (Linux).
func residentMemoryBytes() -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return nil
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The number of file descriptors this process has open, from `/proc/self/fd` (Linux), or
/// `nil` where there is no such directory.
func openFileDescriptorCount() -> Int? {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
}

/// The number of threads of this process, from `/proc/self/task` (Linux), or `nil` where
/// there is no such directory.
func processThreadCount() -> Int? {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
}

/// Waits for `condition` to hold, yielding the thread between looks (no clock involved).
func waitUntil(_ condition: () -> Bool) {
  while !condition() { sched_yield() }
}

/// Runs `body` in a task and blocks the calling (non-task) thread until it is done.
/// - Throws: what `body` throws.
@discardableResult
func resultOfTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Locked<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      let value = try await body()
      result.mutate { $0 = .success(value) }
    } catch {
      result.mutate { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  return try result.value!.get()
}

/// Skips the test where `/proc/self/fd` and `/proc/self/statm` do not exist (not Linux).
func skipUnlessProcessStatsExist() throws {
  guard openFileDescriptorCount() != nil, residentMemoryBytes() != nil else {
    throw XCTSkip("needs /proc/self/fd and /proc/self/statm to count descriptors and memory")
  }
}

/// Asserts that `iterations` runs of `body` leave this process's open file descriptors
/// exactly where they were (within 2) and its resident memory within `memorySlack` bytes:
/// what `body` opens and releases must be closed and freed once released. A few runs come
/// first, so that caches filled once (SQLite's, the allocator's) are not counted. `settle`
/// runs before each count: it waits for work that `body` left running to end.
func assertDescriptorsAndMemoryStayFlat(
  iterations: Int = 1_000, memorySlack: Int = 8 << 20, file: StaticString = #filePath,
  line: UInt = #line, settle: () -> Void = {}, _ body: () throws -> Void
) throws {
  try skipUnlessProcessStatsExist()
  for _ in 0..<20 { try body() }
  settle()
  let descriptorsBefore = try XCTUnwrap(openFileDescriptorCount())
  let memoryBefore = try XCTUnwrap(residentMemoryBytes())
  for _ in 0..<iterations { try body() }
  settle()
  let descriptorsAfter = try XCTUnwrap(openFileDescriptorCount())
  let memoryAfter = try XCTUnwrap(residentMemoryBytes())
  print(
    "\(iterations) iterations: descriptors \(descriptorsBefore) -> \(descriptorsAfter), "
      + "RSS \(memoryBefore >> 10) KB -> \(memoryAfter >> 10) KB")
  XCTAssertLessThanOrEqual(
    abs(descriptorsAfter - descriptorsBefore), 2,
    "open descriptors went from \(descriptorsBefore) to \(descriptorsAfter)", file: file,
    line: line)
  XCTAssertLessThan(
    memoryAfter - memoryBefore, memorySlack,
    "RSS grew by \((memoryAfter - memoryBefore) >> 10) KB", file: file, line: line)
}

/// The error thrown by `body`, failing the test when it throws none or another type.
func thrownError<E: Error>(
  _ type: E.Type, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) -> E? {
  do {
    try body()
    XCTFail("expected \(E.self), nothing was thrown", file: file, line: line)
  } catch let error as E {
    return error
  } catch {
    XCTFail("expected \(E.self), got \(Swift.type(of: error)): \(error)", file: file, line: line)
  }
  return nil
}

extension Connection {
  /// The column names of a table, by `PRAGMA table_info`.
  func columnNames(_ table: String) throws -> [String] {
    try query("PRAGMA table_info(" + SQLIdentifier.quote(table) + ")").map {
      try $0.get(String.self, "name")
    }
  }

  /// The CREATE statement stored for a table, index or trigger.
  func storedSQL(_ name: String) throws -> String? {
    try scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = ?", [name])
  }

  /// The names of the indexes on a table (automatic ones included).
  func indexNames(_ table: String) throws -> [String] {
    try query("PRAGMA index_list(" + SQLIdentifier.quote(table) + ")").map {
      try $0.get(String.self, "name")
    }.sorted()
  }

  /// Every row of a table as text (`typeof:quote` per column), in rowid order. Every
  /// character beyond printable ASCII is written as its scalar (`\u{301}`), so that two dumps
  /// are equal `String`s only when the bytes are equal (Swift's `==` on `String` would find
  /// "caf\u{E9}" and "cafe\u{301}" equal).
  func dump(_ table: String) throws -> [String] {
    try query("SELECT * FROM " + SQLIdentifier.quote(table) + " ORDER BY rowid").map { row in
      try row.values.map { "\($0.storageClass):" + exactASCII($0.description) }
        .joined(separator: "|")
    }
  }

  /// The statements SQLite traces on this connection while `body` runs, in order; the
  /// connection's own trace is off afterwards.
  func traced(_ body: () throws -> Void) rethrows -> [String] {
    let log = Unchecked<[String]>([])
    trace = { log.value.append($0) }
    defer { trace = nil }
    try body()
    return log.value
  }

  /// The whole schema and every row of every table: equal snapshots mean an unchanged file.
  func snapshot() throws -> [String] {
    var lines = try query(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
    ).map { row in
      try row.values.map { exactASCII($0.description) }.joined(separator: " | ")
    }
    let tables = try query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
    ).map { try $0.get(String.self, at: 0) }
    for table in tables {
      lines.append("-- rows of " + table)
      lines += try dump(table)
    }
    return lines
  }
}

/// The text with every scalar beyond printable ASCII written as `\u{...}`: equal results
/// mean equal bytes.
func exactASCII(_ text: String) -> String {
  var result = ""
  for scalar in text.unicodeScalars {
    if (0x20...0x7E).contains(scalar.value) && scalar != "\\" {
      result.unicodeScalars.append(scalar)
    } else {
      result += "\\u{" + String(scalar.value, radix: 16) + "}"
    }
  }
  return result
}

/// Asserts that a file is sound after a migration: `PRAGMA integrity_check` says ok, no row
/// breaks a foreign key, and no half-built copy (`swiftlite_new_<table>`) is left behind.
func assertIntact(_ db: Connection, file: StaticString = #filePath, line: UInt = #line) throws {
  XCTAssertEqual(
    try db.scalar(String.self, "PRAGMA integrity_check"), "ok", file: file, line: line)
  XCTAssertEqual(try db.query("PRAGMA foreign_key_check").count, 0, file: file, line: line)
  XCTAssertFalse(
    try SchemaInspector(db).tableNames().contains { $0.hasPrefix("swiftlite_new_") },
    "no half-built table is left", file: file, line: line)
}

/// A snapshot of a database file taken through a connection of its own.
func snapshot(ofFile path: String) throws -> [String] {
  try Connection(path: path).snapshot()
}

/// The README and the DocC articles (where the README's long sections live), their line
/// breaks and runs of blanks turned into single spaces, so that a test can check a sentence
/// of the documentation whatever the wrapping and whichever page holds it.
func readmeText() throws -> String {
  let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let catalog = root.appendingPathComponent("Sources/SwiftLite/SwiftLite.docc")
  let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
    .filter { $0.hasSuffix(".md") }.sorted().map { catalog.appendingPathComponent($0) }
  let text = try ([root.appendingPathComponent("README.md")] + articles)
    .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
  return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// Asserts that two dumps are the same bytes (not only equal Swift strings, which a
/// different Unicode normalization would be), showing the first line that differs.
func assertSameBytes(
  _ after: [String], _ before: [String], file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(after.count, before.count, "line count", file: file, line: line)
  for (new, old) in zip(after, before) where !new.utf8.elementsEqual(old.utf8) {
    XCTFail("changed:\n  before: \(old)\n  after:  \(new)", file: file, line: line)
    return
  }
}

// MARK: Power loss

/// The power-loss harness, over the VFS of the C target `PowerLossVFS` (the model it
/// simulates is described in `Tests/PowerLossVFS/PowerLossModel.c`): a scenario runs through
/// that VFS, the power is cut at a random write, sync, truncation or deletion, what was
/// durable is written back, and the scenario checks the files through the default VFS.
enum PowerLoss {
  /// The name the VFS is registered under.
  static let vfsName = "swiftlite-powerloss"
  private static let registration = powerloss_register(vfsName)

  /// Options that open through the power-loss VFS.
  static var options: OpenOptions {
    precondition(registration == 0, "the power-loss VFS did not register")
    var options = OpenOptions()
    options.vfs = vfsName
    return options
  }

  /// Cut points per scenario: `SWIFTLITE_POWERLOSS_CUTS`, 100 by default.
  static var cutsPerScenario: Int {
    ProcessInfo.processInfo.environment["SWIFTLITE_POWERLOSS_CUTS"].flatMap { Int($0) } ?? 100
  }

  /// The seed of the cut points: `SWIFTLITE_POWERLOSS_SEED`, 18 by default.
  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["SWIFTLITE_POWERLOSS_SEED"].flatMap { UInt64($0) } ?? 18
  }

  /// Whether the power is off.
  static var isLost: Bool { powerloss_lost() != 0 }
  /// Events counted since the run began.
  static var events: Int { Int(powerloss_events()) }
}

/// SplitMix64: a small seeded generator, so that a run can be repeated from its seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// What one run of a scenario did before the power went off.
final class PowerLossRun {
  /// The folder of the run's files.
  let directory: URL
  /// For choices the run makes (a rename kept or lost, say).
  var random: SeededGenerator
  /// Transactions begun.
  private(set) var started = 0
  /// Transactions that returned while the power was on.
  private(set) var committed = 0
  /// How many of the first transactions must survive: the committed ones when each commit
  /// is durable, those before the last completed checkpoint when not.
  var mustKeep = 0
  /// The events where cuts may fall, when not the whole run: after `cutsFrom`, up to
  /// `cutsTo`.
  private(set) var cutsFrom: Int?
  private(set) var cutsTo: Int?

  init(directory: URL, seed: UInt64) {
    self.directory = directory
    random = SeededGenerator(seed: seed)
  }

  /// A file of the run's folder.
  func path(_ name: String = "db.sqlite") -> String { directory.appendingPathComponent(name).path }

  /// Cuts fall from the next event on.
  func markCutsStart() { cutsFrom = PowerLoss.events }
  /// Cuts fall up to the last event so far.
  func markCutsEnd() { cutsTo = PowerLoss.events }

  /// Runs one transaction, counted as begun, then as committed when it returned with the
  /// power on; then kept for sure when `durable`.
  func transaction(durable: Bool, _ body: () throws -> Void) throws {
    started += 1
    try body()
    if !PowerLoss.isLost {
      committed += 1
      if durable { mustKeep = committed }
    }
  }

  /// In WAL mode: runs `body` (a commit, which may run a checkpoint or restart the log, or
  /// a checkpoint), and when a WAL or database sync ran in it, even if the power went off
  /// later in it, every transaction committed before it must survive. Not those of `body`
  /// itself: the sync that starts a new log comes before the commit's own frames.
  func syncingLog(_ body: () throws -> Void) throws {
    let syncs = powerloss_data_syncs()
    let before = committed
    defer { if powerloss_data_syncs() > syncs { mustKeep = max(mustKeep, before) } }
    try body()
  }
}

/// A workload to cut, and what must hold of its files after any cut.
struct PowerLossScenario {
  /// The name in the figures.
  var name: String
  /// Whether a deletion is durable once done (SQLite's assumption at synchronous=FULL), or
  /// only with a directory sync.
  var unlinkIsDurable = true
  /// Whether one cut point is after the last event: the power lost once the work is done.
  var cutsAfterTheEnd = false
  /// The database files that must pass `PRAGMA integrity_check` after each cut.
  var files = ["db.sqlite"]
  /// Whether broken promises are expected and counted (in ``PowerLossFigures/violations``)
  /// rather than failures: a control that shows the harness sees them.
  var expectsViolations = false
  /// Makes the starting files in the folder, through the default VFS (nothing tracked).
  var prepare: (URL) throws -> Void
  /// The work, through ``PowerLoss/options``; it closes what it opens, even when it throws.
  var run: (PowerLossRun) throws -> Void
  /// Checks the files after the power loss, through the default VFS, and returns how many
  /// of the run's transactions it found.
  var check: (PowerLossRun) throws -> Int
}

/// The figures of a scenario's cuts.
struct PowerLossFigures: CustomStringConvertible {
  var scenario: String
  var events = 0
  var cuts = 0
  var intact = 0
  var committed = 0
  /// Of the committed ones, those that had to survive (all of them when commits are durable).
  var mustKeep = 0
  var kept = 0
  var inFlight = 0
  var inFlightKept = 0
  var droppedWrites = 0
  /// Cuts after which a file failed `integrity_check` or lost what had to survive.
  var violations = 0

  var description: String {
    "power loss: \(scenario): \(cuts) cut points over \(events) events, \(intact) files intact, "
      + "\(kept) transactions kept of \(committed) committed before the cut "
      + "(\(mustKeep) had to be), "
      + "\(inFlightKept) of \(inFlight) in flight, \(droppedWrites) unsynced writes dropped"
      + (violations > 0 ? ", \(violations) broken" : "")
  }
}

extension TemporaryDirectoryTestCase {
  /// Runs `scenario` once to count its events, then cuts it at ``PowerLoss/cutsPerScenario``
  /// random events, checking the files after each; prints and returns the figures.
  @discardableResult
  func measure(_ scenario: PowerLossScenario, file: StaticString = #filePath, line: UInt = #line)
    throws -> PowerLossFigures
  {
    let manager = FileManager.default
    let template = directory.appendingPathComponent("template", isDirectory: true)
    try? manager.removeItem(at: template)
    try manager.createDirectory(at: template, withIntermediateDirectories: true)
    try scenario.prepare(template)
    var seedText = 0 as UInt64
    for byte in scenario.name.utf8 { seedText = seedText &* 31 &+ UInt64(byte) }
    var random = SeededGenerator(seed: PowerLoss.seed ^ seedText)

    func fresh(_ name: String) throws -> URL {
      let folder = directory.appendingPathComponent(name, isDirectory: true)
      try? manager.removeItem(at: folder)
      try manager.copyItem(at: template, to: folder)
      return folder
    }

    // The run without a cut: how many events, and where cuts may fall.
    let dry = PowerLossRun(directory: try fresh("dry"), seed: random.next())
    powerloss_begin(scenario.unlinkIsDurable ? 1 : 0)
    try scenario.run(dry)
    var figures = PowerLossFigures(scenario: scenario.name, events: PowerLoss.events)
    let first = (dry.cutsFrom ?? 0) + 1
    let last = (dry.cutsTo ?? figures.events) + (scenario.cutsAfterTheEnd ? 1 : 0)
    try? manager.removeItem(at: dry.directory)
    XCTAssertLessThanOrEqual(first, last, "no event to cut", file: file, line: line)
    guard first <= last else { return figures }

    var failures = 0
    for index in 0..<PowerLoss.cutsPerScenario where failures < 5 {
      let cut = Int.random(in: first...last, using: &random)
      let seed = random.next()
      let run = PowerLossRun(directory: try fresh("cut\(index)"), seed: seed)
      let cutName = "\(scenario.name), cut \(index) at event \(cut) of \(figures.events)"
      powerloss_begin(scenario.unlinkIsDurable ? 1 : 0)
      powerloss_arm(Int64(cut))
      do {
        try scenario.run(run)
      } catch {
        if !PowerLoss.isLost {
          XCTFail("\(cutName): the run failed with the power on: \(error)", file: file, line: line)
          failures += 1
          continue
        }
      }
      powerloss_cut_now()
      figures.droppedWrites += Int(powerloss_restore(seed, Int32(index % 2)))
      figures.cuts += 1
      figures.committed += run.committed
      figures.mustKeep += run.mustKeep
      let inFlight = run.started - run.committed
      figures.inFlight += inFlight
      if ProcessInfo.processInfo.environment["SWIFTLITE_POWERLOSS_TRACE"] != nil {
        let files = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        print(
          "\(cutName): started \(run.started), committed \(run.committed), "
            + "events \(PowerLoss.events), open files \(files?.count ?? -1), \(Date())")
      }
      do {
        var problems: [String] = []
        for name in scenario.files {
          do {
            let db = try Connection(path: run.path(name))
            defer { try? db.close() }
            let integrity = try db.scalar(String.self, "PRAGMA integrity_check") ?? "no answer"
            if integrity != "ok" { problems.append("\(name): \(integrity)") }
          } catch {
            problems.append("\(name): \(error)")
          }
        }
        guard problems.isEmpty else {
          figures.violations += 1
          if !scenario.expectsViolations {
            XCTFail("\(cutName): integrity_check says \(problems)", file: file, line: line)
            failures += 1
          }
          continue
        }
        figures.intact += 1
        let kept = try scenario.check(run)
        if kept < run.mustKeep || kept > run.started {
          figures.violations += 1
          if !scenario.expectsViolations {
            XCTFail(
              "\(cutName): \(kept) transactions kept, \(run.mustKeep) had to be, "
                + "\(run.started) were begun", file: file, line: line)
            failures += 1
          }
        }
        figures.kept += min(kept, run.committed)
        figures.inFlightKept += max(0, kept - run.committed)
      } catch {
        XCTFail("\(cutName): the check failed: \(error)", file: file, line: line)
        failures += 1
      }
      try? manager.removeItem(at: run.directory)
    }
    print(figures)
    return figures
  }
}

/// A message of one chat, for tests of per-target tables: one table per chat
/// (`Memo_<chat>`).
struct ChatMemo: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "Memo"
  static let primaryKey = ["id"]
}

extension SQLiteTestCase {
  /// More per-target tables than a connection keeps checked: a pass over them checks every
  /// table again.
  static let rotationTargets = Connection.attachmentCapacity + 44

  /// Makes ``rotationTargets`` tables of ``ChatMemo`` (`chat0`, `chat1`, ...) on `db`.
  func makeChatMemoTables() throws {
    try db.transaction { db in
      for target in 0..<Self.rotationTargets {
        try db.createTable(for: ChatMemo.self, target: "chat\(target)")
      }
    }
  }

  /// Makes the tables and saves into each twice: every table is checked, with a blueprint
  /// kept under the catalogue's checkpoint, and out of the connection's cache.
  func checkEveryChatMemoTable() throws {
    try makeChatMemoTables()
    for number in 0..<2 {
      for target in 0..<Self.rotationTargets {
        try db.save(ChatMemo(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
      }
    }
  }
}

extension Connection {
  /// The statements `body` runs on this connection that read the schema (see
  /// `TargetRotationTests.readsSchema(_:)`), but the schema catalogue's check.
  func schemaReads(_ body: () throws -> Void) rethrows -> [String] {
    try traced(body).filter {
      TargetRotationTests.readsSchema($0) && $0 != SchemaCatalogue.checkSQL
    }
  }
}
