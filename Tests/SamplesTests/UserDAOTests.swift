import Foundation
import SwiftLite
import UserDAOSample
import XCTest

final class UserDAOTests: TemporaryDirectoryTestCase {
  private let ann = User(userId: "u1", userName: "Ann", userAge: 34)
  private let bob = User(userId: "u2", userName: "Bob", userAge: 27)

  private func makeDAO() throws -> UserDAO { try UserDAO(directory: directory.path) }

  /// The rows as the file holds them, read with a plain read-only `Connection`.
  private func rowsInFile() throws -> [[SQLiteValue]] {
    let path = directory.appendingPathComponent(UserDAO.fileName).path
    let db = try Connection(path: path, options: .readOnly)
    defer { try? db.close() }
    return try db.query("SELECT user_id, user_name, user_age FROM user ORDER BY user_id")
      .map { try $0.values }
  }

  func testCreateThenFindByIdAndFindAll() throws {
    let dao = try makeDAO()
    try dao.create(bob)
    try dao.create(ann)
    XCTAssertEqual(try dao.findById("u1"), ann)
    XCTAssertNil(try dao.findById("nobody"))
    XCTAssertEqual(try dao.findAll(), [ann, bob])
  }

  func testRowsAreWrittenToTheFileInTheChosenDirectory() throws {
    let dao = try makeDAO()
    XCTAssertEqual(dao.path, directory.appendingPathComponent("UserList.sqlite").path)
    try dao.create(ann)
    try dao.create(User(userId: "big", userName: "Old", userAge: Int(Int64.max)))
    XCTAssertEqual(
      try rowsInFile(),
      [
        [.text("big"), .text("Old"), .integer(.max)],
        [.text("u1"), .text("Ann"), .integer(34)],
      ])
  }

  func testDataSurvivesReopening() throws {
    try makeDAO().create(ann)
    XCTAssertEqual(try makeDAO().findAll(), [ann])
  }

  func testCreateRefusesATakenIdAndSaveReplacesIt() throws {
    let dao = try makeDAO()
    try dao.create(ann)
    XCTAssertThrowsError(try dao.create(User(userId: "u1", userName: "Other", userAge: 1))) {
      XCTAssertEqual($0 as? UserDAOError, .userExists(userId: "u1"))
    }
    try dao.save(User(userId: "u1", userName: "Ann B.", userAge: 35))
    try dao.save(bob)
    XCTAssertEqual(
      try rowsInFile(),
      [[.text("u1"), .text("Ann B."), .integer(35)], [.text("u2"), .text("Bob"), .integer(27)]])
  }

  func testModifyChangesTheStoredUser() throws {
    let dao = try makeDAO()
    try dao.create(ann)
    try dao.create(bob)
    try dao.modify(User(userId: "u1", userName: "Annie", userAge: 35))
    XCTAssertEqual(
      try rowsInFile(),
      [
        [.text("u1"), .text("Annie"), .integer(35)],
        [.text("u2"), .text("Bob"), .integer(27)],
      ])
  }

  func testModifyOfAMissingUserThrowsNotFoundAndChangesNothing() throws {
    let dao = try makeDAO()
    try dao.create(ann)
    XCTAssertThrowsError(try dao.modify(bob)) { error in
      XCTAssertEqual(error as? UserDAOError, .userNotFound(userId: "u2"))
      XCTAssertEqual("\(error)", "No user with id 'u2'.")
    }
    XCTAssertEqual(try dao.findAll(), [ann])
  }

  func testRemoveDeletesTheRowAndAMissingUserThrowsNotFound() throws {
    let dao = try makeDAO()
    try dao.create(ann)
    try dao.create(bob)
    try dao.remove("u1")
    XCTAssertEqual(try rowsInFile(), [[.text("u2"), .text("Bob"), .integer(27)]])
    XCTAssertThrowsError(try dao.remove("u1")) { error in
      XCTAssertEqual(error as? UserDAOError, .userNotFound(userId: "u1"))
    }
  }

  func testQuotesAndSQLInValuesAreStoredAsData() throws {
    let dao = try makeDAO()
    let tricky = User(userId: "x'); DROP TABLE user; --", userName: "O'Brien \"Bob\"", userAge: 1)
    try dao.create(tricky)
    XCTAssertEqual(try dao.findById(tricky.userId), tricky)
    try dao.modify(tricky)
    try dao.remove(tricky.userId)
    XCTAssertEqual(try dao.findAll(), [])
  }

  func testOpeningInAMissingDirectoryThrowsCannotOpen() {
    let missing = directory.appendingPathComponent("missing/deeper").path
    XCTAssertThrowsError(try UserDAO(directory: missing)) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .cannotOpen)
    }
  }

  func testSharedUsesTheConfiguredDirectory() throws {
    let configured = try UserDAO.configure(directory: directory.path)
    let shared = try UserDAO.shared
    XCTAssertTrue(shared === configured)
    XCTAssertTrue(try UserDAO.shared === shared)
    XCTAssertEqual(shared.path, directory.appendingPathComponent(UserDAO.fileName).path)
    try shared.create(ann)
    XCTAssertEqual(try rowsInFile().count, 1)
  }

  func testOneInstanceServesManyThreadsWithoutLosingWrites() throws {
    let dao = try makeDAO()
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 200) { index in
      let id = String(format: "u%03d", index)
      do {
        try dao.create(User(userId: id, userName: "User \(index)", userAge: index))
        if try dao.findById(id)?.userAge != index { failures.append("\(id) not read back") }
      } catch {
        failures.append("\(id): \(error)")
      }
    }
    XCTAssertEqual(failures.all, [])
    let all = try dao.findAll()
    XCTAssertEqual(all.count, 200)
    XCTAssertEqual(all.first?.userId, "u000")
    XCTAssertEqual(all.last?.userId, "u199")
  }

  func testTheDemoRunsTwiceOnTheSameFile() throws {
    let first = try runSample("UserDAO")
    let second = try runSample("UserDAO")
    XCTAssertEqual(first, second)
    XCTAssertTrue(first.contains("remove   nobody -> No user with id 'nobody'."), first)
    XCTAssertTrue(first.contains("findAll  -> 2 user(s)"), first)
  }
}

/// Failures collected from many threads, asserted on afterwards from the test's thread.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []

  func append(_ message: String) {
    lock.lock()
    defer { lock.unlock() }
    messages.append(message)
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return messages
  }
}
