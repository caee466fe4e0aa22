import CSQLite
import Foundation
import XCTest

@testable import SwiftLite

/// The escape hatches: the connection's `sqlite3*` inside a closure, and loading an
/// extension the test builds with the system's C compiler.
final class UnsafeHandleTests: SQLiteTestCase {
  func testTheHandleIsTheConnectionsOwn() throws {
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
    let changes = try db.withUnsafeHandle { handle in sqlite3_changes64(handle) }
    XCTAssertEqual(changes, 2)
    let name = try db.withUnsafeHandle { handle in
      sqlite3_db_filename(handle, "main").map { String(cString: $0) }
    }
    XCTAssertEqual(
      name.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path },
      URL(fileURLWithPath: databasePath).resolvingSymlinksInPath().path)
  }

  /// `CSQLite` declares the session extension too, for C calls of one's own.
  func testTheSessionDeclarationsAreThereForTheCAPI() throws {
    try db.execute("CREATE TABLE s(id INTEGER PRIMARY KEY, v)")
    let recorded = try db.withUnsafeHandle { handle -> Bool in
      var session: OpaquePointer?
      guard sqlite3session_create(handle, "main", &session) == SQLITE_OK, let session else {
        return false
      }
      defer { sqlite3session_delete(session) }
      guard sqlite3session_attach(session, "s") == SQLITE_OK else { return false }
      sqlite3_exec(handle, "INSERT INTO s(v) VALUES (1)", nil, nil, nil)
      return sqlite3session_isempty(session) == 0
    }
    XCTAssertTrue(recorded)
  }

  func testTheHandleIsRefusedOutsideItsQueue() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    defer { try? queue.close() }
    let escaped = try queue.read { db in db }
    XCTAssertThrowsError(try escaped.withUnsafeHandle { _ in 1 }) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .misuse)
    }
  }

  /// A C compiler, or a skip that says why.
  private func compiler() throws -> String {
    for candidate in ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    throw XCTSkip("SKIPPED: no C compiler (cc, gcc or clang) to build the test extension")
  }

  /// Builds a loadable extension with a function `half(x)` (and a second entry point that
  /// fails), and returns its path.
  private func buildExtension() throws -> String {
    let source = path("half.c")
    let library = path("half.so")
    try """
    #include <sqlite3ext.h>
    SQLITE_EXTENSION_INIT1
    static void half(sqlite3_context *context, int argc, sqlite3_value **argv) {
      sqlite3_result_double(context, sqlite3_value_double(argv[0]) / 2.0);
    }
    int sqlite3_extension_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
      SQLITE_EXTENSION_INIT2(api);
      return sqlite3_create_function(db, "half", 1, SQLITE_UTF8, 0, half, 0, 0);
    }
    int refusing_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
      SQLITE_EXTENSION_INIT2(api);
      *error = sqlite3_mprintf("refused on purpose");
      return SQLITE_ERROR;
    }
    """.write(toFile: source, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try compiler())
    process.arguments = ["-shared", "-fPIC", "-o", library, source]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "the test extension did not compile")
    return library
  }

  func testAnExtensionLoadsForThisConnectionOnly() throws {
    let library = try buildExtension()
    try db.loadExtension(path: library)
    XCTAssertEqual(try db.scalar(Double.self, "SELECT half(5)"), 2.5)
    // Loading stays off for SQL: load_extension() is refused after the call.
    XCTAssertThrowsError(try db.execute("SELECT load_extension('\(library)')")) { error in
      XCTAssertTrue("\(error)".contains("not authorized"), "\(error)")
    }
    // Another connection does not have it.
    let other = try openSecondConnection()
    XCTAssertThrowsError(try other.scalar(Double.self, "SELECT half(5)"))
    try other.close()
  }

  func testAFailingEntryPointAndAMissingLibraryAreTypedErrors() throws {
    let library = try buildExtension()
    XCTAssertThrowsError(try db.loadExtension(path: library, entryPoint: "refusing_init")) {
      error in
      let error = error as? SQLiteError
      XCTAssertEqual(error?.code, .error)
      XCTAssertTrue(
        error?.message.contains("refused on purpose") ?? false, "\(String(describing: error))")
    }
    XCTAssertThrowsError(try db.loadExtension(path: path("missing.so"))) { error in
      XCTAssertTrue("\(error)".contains("missing.so"), "\(error)")
    }
    XCTAssertThrowsError(try db.loadExtension(path: "a\0b")) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .misuse)
    }
  }
}
