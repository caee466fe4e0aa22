import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

final class TemporaryDatabaseTests: XCTestCase {
  func testAFileIsMadeInADirectoryOfItsOwnAndRemovedOnRelease() throws {
    var database: TemporaryDatabase? = try TemporaryDatabase.file(named: "notes.sqlite")
    let url = try XCTUnwrap(database?.url)
    XCTAssertEqual(url.lastPathComponent, "notes.sqlite")
    try database?.connection.execute("CREATE TABLE t(a)")
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
    database = nil
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
  }

  func testACopyOfAFixtureLeavesTheFixtureAsItWas() throws {
    let fixture = try NotesApp.release2Fixture()
    let before = try Data(contentsOf: fixture)
    let copy = try TemporaryDatabase.copy(of: fixture)
    try copy.connection.execute("DELETE FROM Note")
    XCTAssertEqual(try copy.connection.scalar(Int.self, "SELECT count(*) FROM Note"), 0)
    XCTAssertEqual(try Data(contentsOf: fixture), before)
  }

  func testInMemoryHasNoFile() throws {
    let database = try TemporaryDatabase.inMemory()
    XCTAssertNil(database.url)
    try database.connection.execute("CREATE TABLE t(a)")
    XCTAssertEqual(try SchemaInspector(database.connection).tableNames(), ["t"])
  }
}
