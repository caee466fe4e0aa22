import Foundation
import XCTest

@testable import SwiftLite

private struct Memo: Model, Equatable {
  var id: String
  var body: String
  var updatedAt: Date
  static let primaryKey = ["id"]
}

/// Sessions attached to a model's table.
final class SessionModelTests: TemporaryDirectoryTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
  }

  func testAttachingAModelCreatesItsTableAndItsSavesTravel() throws {
    let source = try open("source.sqlite")
    let target = try open("target.sqlite")
    let session = try Session(on: source)
    try session.attach(Memo.self)
    XCTAssertEqual(session.tables, ["Memo"])
    let memo = Memo(id: UUID().uuidString, body: "hello", updatedAt: Date(timeIntervalSince1970: 5))
    try source.save(memo)
    try target.createTable(for: Memo.self)
    try target.apply(try session.changeset())
    XCTAssertEqual(try target.findAll(Memo.self), [memo])
  }

  func testAQueueSessionAttachesAModelOnTheWriter() throws {
    let source = try DatabaseQueue(path: path("source.sqlite"))
    let session = try source.makeSession()
    try session.attach(Memo.self)
    try source.write { db in try db.save(Memo(id: "m", body: "b", updatedAt: Date())) }
    XCTAssertEqual(try session.changeset().changes().map(\.table), ["Memo"])
  }
}
