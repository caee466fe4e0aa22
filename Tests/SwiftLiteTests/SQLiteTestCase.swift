import Foundation
import XCTest

@testable import SwiftLite

/// A test case with a fresh database file per test.
///
/// `setUp` makes a new temporary directory, opens ``db`` on a real file inside it and records
/// every statement it runs (through ``Connection/trace``) in ``executedSQL``. `tearDown`
/// checks that no statement was left mid-step, closes the connection and removes the
/// directory.
class SQLiteTestCase: XCTestCase {
  /// The per-test temporary directory.
  private(set) var directory: URL!
  /// The connection on ``databasePath``, opened with the default options.
  var db: Connection!
  private let log = SQLLog()

  /// The SQL run on ``db`` so far, in order, as SQLite reports it (unexpanded).
  var executedSQL: [String] { log.lines }

  /// The file ``db`` is open on.
  var databasePath: String { path("test.sqlite") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SwiftLiteTests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
    if let directory { try? FileManager.default.removeItem(at: directory) }
    directory = nil
    try super.tearDownWithError()
  }

  /// A path inside the per-test directory.
  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

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
    do {
      _ = try body()
      XCTFail("expected an SQLiteError, nothing was thrown", file: file, line: line)
    } catch let error as SQLiteError {
      check(error)
    } catch {
      XCTFail("expected an SQLiteError, got \(type(of: error)): \(error)", file: file, line: line)
    }
  }

  /// Asserts that `body` throws a `DecodingError` and returns its debug description.
  @discardableResult
  func assertDecodingError<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
  ) -> (error: DecodingError, description: String)? {
    do {
      _ = try body()
      XCTFail("expected a DecodingError, nothing was thrown", file: file, line: line)
    } catch let error as DecodingError {
      return (error, error.debugDescriptionText)
    } catch {
      XCTFail("expected a DecodingError, got \(type(of: error)): \(error)", file: file, line: line)
    }
    return nil
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
