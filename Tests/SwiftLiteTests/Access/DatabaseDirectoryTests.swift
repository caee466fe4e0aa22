import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class DatabaseDirectoryTests: SQLiteTestCase {
  private var folder: String { path("db") }

  private func makeDirectory() throws -> DatabaseDirectory<DatabaseQueue> {
    try makeDirectory { try DatabaseQueue(path: $0) }
  }

  private func makePoolDirectory() throws -> DatabaseDirectory<DatabasePool> {
    try makeDirectory { try DatabasePool(path: $0, maximumReaderCount: 2) }
  }

  private func makeDirectory<Database: DatabaseAccess>(
    _ open: @escaping @Sendable (String) throws -> Database
  ) throws -> DatabaseDirectory<Database> {
    var common = Migrator()
    common.register("settings") { db in
      try db.execute("CREATE TABLE setting(key TEXT PRIMARY KEY, value TEXT)")
    }
    var perUser = Migrator()
    perUser.register("owner") { db in try db.execute("CREATE TABLE owner(id TEXT NOT NULL)") }
    perUser.registerModels("messages", DirectoryMessage.self)
    return try DatabaseDirectory(
      path: folder, prefix: "jk", common: common, perUser: perUser, open: open)
  }

  func testCommonAndPerUserDatabasesAreMigratedOnOpen() throws {
    let directory = try makeDirectory()
    XCTAssertEqual(
      try directory.common?.read { try $0.scalar(Int.self, "SELECT count(*) FROM setting") }, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/jk_common.sqlite"))
    let user = try XCTUnwrap(try directory.switchUser(to: "42"))
    XCTAssertEqual(directory.currentUser?.id, "42")
    XCTAssertEqual(try directory.databasePath(forUser: "42"), folder + "/jk_42.sqlite")
    try user.write { db in try db.save(DirectoryMessage(id: 1, text: "hi")) }
    XCTAssertEqual(try user.read { try $0.count(DirectoryMessage.self) }, 1)
    XCTAssertEqual(try directory.users(), ["42"])
    try directory.close()
  }

  /// Hostile ids never leave the folder, never collide (even folded to one case), and come
  /// back from users() as they went in.
  func testHostileUserIDsStayInTheFolderAndNeverCollide() throws {
    let directory = try makeDirectory()
    let ids = [
      "../x", "/", "\\", ".", "..", "", "\0", "a\0b", "\u{1}\u{7f}\n\t", "common", "Common",
      "Ann", "ann", "ANN", "_41nn", "_61", "a b", "jk_common", "é", "e\u{301}", "😀",
      String(repeating: "x", count: 200), "C:\\Windows", "con", "x.sqlite", "-",
    ]
    var names: Set<String> = []
    for id in ids {
      let file = try directory.databasePath(forUser: id)
      let url = URL(fileURLWithPath: file).standardizedFileURL
      XCTAssertEqual(url.deletingLastPathComponent().path, URL(fileURLWithPath: folder).path)
      let name = url.lastPathComponent
      XCTAssertTrue(
        name.utf8.allSatisfy {
          $0 < 0x80
            && ($0 == 0x2E || $0 == 0x2D || $0 == 0x5F
              || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0))
        }, name)
      XCTAssertTrue(names.insert(name.lowercased()).inserted, "\(id) collides: \(name)")
      XCTAssertNotEqual(name, "jk_common.sqlite")

      let database = try XCTUnwrap(try directory.switchUser(to: id))
      _ = try database.write { db in try db.run("INSERT INTO owner(id) VALUES (?)", [id]) }
    }
    try directory.switchUser(to: nil)
    XCTAssertEqual(
      try directory.users().map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) },
      ids.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    // Every file holds its own user's row.
    for id in ids {
      let db = try Connection(path: try directory.databasePath(forUser: id))
      XCTAssertEqual(
        try db.query("SELECT id FROM owner").map { Array(try $0.get(String.self, at: 0).utf8) },
        [Array(id.utf8)])
      try db.close()
    }
    // Nothing was written outside the folder.
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: path("")).sorted(),
      ["db", "test.sqlite"])
    // A 1,000-byte id is refused before anything is made.
    XCTAssertThrowsError(try directory.switchUser(to: String(repeating: "é", count: 500))) {
      guard case DatabaseDirectoryError.userIDTooLong = $0 else { return XCTFail("\($0)") }
    }
    XCTAssertNil(directory.currentUser)
    try directory.close()
  }

  func testStrayFilesAreNotUsers() throws {
    let directory = try makeDirectory()
    for name in [
      "jk_common.sqlite", "jk_A.sqlite", "jk__61.sqlite", "jk_x.sqlite-wal", "other_x.sqlite",
      "jk_x.db", "jk__zz.sqlite",
    ] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
    }
    XCTAssertEqual(try directory.users(), [])
    try directory.close()
  }

  func testBadPrefixesAreRefused() {
    for prefix in ["", "a_b", "../x", "a/b", "é", String(repeating: "p", count: 65)] {
      XCTAssertThrowsError(try DatabaseDirectory(path: folder, prefix: prefix)) {
        XCTAssertEqual($0 as? DatabaseDirectoryError, .invalidPrefix(prefix))
      }
    }
  }

  /// Switching users while writes are in flight: each write that succeeded is in its
  /// user's file, and the old database refuses work once switched away from.
  func testSwitchingUnderLoad() throws {
    let directory = try makePoolDirectory()
    let succeeded = Locked([String: Int]())
    let stop = Locked(false)
    let group = DispatchGroup()
    for _ in 0..<4 {
      DispatchQueue.global().async(group: group) {
        while !stop.value {
          guard let (user, database) = directory.currentUser else { continue }
          do {
            _ = try database.write { db in
              try db.run("INSERT INTO owner(id) VALUES (?)", [user])
            }
            succeeded.mutate { $0[user, default: 0] += 1 }
          } catch let error as SQLiteError {
            XCTAssertEqual(error.code, .misuse, "\(error)")  // switched away meanwhile
          } catch {
            XCTFail("\(error)")
          }
        }
      }
    }
    for round in 0..<20 { try directory.switchUser(to: "user\(round % 3)") }
    stop.mutate { $0 = true }
    group.wait()
    try directory.switchUser(to: nil)
    for user in try directory.users() {
      let db = try Connection(path: try directory.databasePath(forUser: user))
      XCTAssertEqual(
        try db.scalar(Int.self, "SELECT count(*) FROM owner WHERE id = ?", [user]),
        succeeded.value[user] ?? 0)
      try db.close()
    }
    XCTAssertEqual(try directory.users(), ["user0", "user1", "user2"])
    try directory.close()
  }

  /// Erasing refuses while another connection has the database open, leaving it whole,
  /// and removes every file once it is free.
  func testEraseWithReadersOpen() throws {
    let directory = try makePoolDirectory()
    let user = try XCTUnwrap(try directory.switchUser(to: "Ann"))
    try user.write { db in
      for n in 0..<100 { try db.run("INSERT INTO owner(id) VALUES (?)", ["row\(n)"]) }
    }
    let file = try directory.databasePath(forUser: "Ann")
    let other = try DatabasePool(path: file)
    XCTAssertEqual(try other.read { try $0.scalar(Int.self, "SELECT count(*) FROM owner") }, 100)

    XCTAssertThrowsError(try directory.eraseUser("Ann")) {
      XCTAssertEqual($0 as? DatabaseDirectoryError, .databaseInUse(user: "Ann", path: file))
    }
    XCTAssertNil(directory.currentUser, "erasing signs the user out first")
    XCTAssertEqual(try other.read { try $0.scalar(Int.self, "SELECT count(*) FROM owner") }, 100)
    XCTAssertEqual(try other.writeWithoutTransaction { try $0.journalMode() }, .wal)
    XCTAssertEqual(try directory.users(), ["Ann"])

    try other.close()
    try directory.eraseUser("Ann")
    for suffix in ["", "-wal", "-shm", "-journal"] {
      XCTAssertFalse(FileManager.default.fileExists(atPath: file + suffix), suffix)
    }
    XCTAssertEqual(try directory.users(), [])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder).filter {
        !$0.hasPrefix("jk_common")
      },
      [])
    try directory.eraseUser("nobody")  // nothing to erase
    try directory.close()
  }

  func testEraseWhileAQueueConnectionReads() throws {
    let directory = try makeDirectory()
    try directory.switchUser(to: "bob")
    try directory.switchUser(to: nil)
    let file = try directory.databasePath(forUser: "bob")
    let reader = try Connection(path: file)
    try reader.transaction(.deferred) { db in
      _ = try db.scalar(Int.self, "SELECT count(*) FROM owner")
      XCTAssertThrowsError(try directory.eraseUser("bob")) {
        XCTAssertEqual($0 as? DatabaseDirectoryError, .databaseInUse(user: "bob", path: file))
      }
    }
    try reader.close()
    XCTAssertEqual(try directory.users(), ["bob"])
    try directory.eraseUser("bob")
    XCTAssertEqual(try directory.users(), [])
    try directory.close()
  }
}

private struct DirectoryMessage: Model {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

extension DatabaseDirectoryTests {
  /// The longest id a directory accepts can also be erased: erasing renames the file, and
  /// that name must fit too.
  func testTheLongestAcceptedIDCanBeErased() throws {
    let folder = path("long")
    let directory = try DatabaseDirectory(path: folder, prefix: "app")
    var id = String(repeating: "a", count: 300)
    while (try? directory.databasePath(forUser: id)) == nil { id.removeLast() }
    _ = try directory.switchUser(to: id)
    try directory.currentUser?.database.write { try $0.execute("CREATE TABLE t(x)") }
    _ = try directory.switchUser(to: nil)
    try directory.eraseUser(id)
    XCTAssertFalse(FileManager.default.fileExists(atPath: try directory.databasePath(forUser: id)))
    try directory.close()
  }
}

extension DatabaseDirectoryTests {
  /// The limits the README and the documentation state: with the prefix `app`, 225
  /// lowercase ASCII characters, 37 `é` or 25 CJK characters are the longest ids accepted.
  func testTheDocumentedUserIDLimitsHold() throws {
    let directory = try DatabaseDirectory(path: path("limits"), prefix: "app")
    for (character, longest) in [("a", 225), ("é", 37), ("漢", 25)] {
      let accepted = String(repeating: character, count: longest)
      XCTAssertNoThrow(try directory.databasePath(forUser: accepted), "\(longest) \(character)")
      XCTAssertThrowsError(try directory.databasePath(forUser: accepted + character)) {
        guard case DatabaseDirectoryError.userIDTooLong(_, let limit) = $0 else {
          return XCTFail("\($0)")
        }
        XCTAssertEqual(limit, 236)
      }
    }
    _ = try directory.switchUser(to: String(repeating: "é", count: 37))
    XCTAssertEqual(try directory.users(), [String(repeating: "é", count: 37)])
    try directory.close()

    let readme = try readmeText()
    for claim in [
      "would pass 236 bytes is refused",
      "225 lowercase ASCII characters pass and 226 do not",
      "37 accented letters such as `é` pass and 38 do not",
      "25 CJK characters pass and 26 do not",
    ] {
      XCTAssertTrue(readme.contains(claim), "the README says: \(claim)")
    }
  }
}

extension DatabaseDirectoryTests {
  /// A pool directory gives pools back: a pool's own API is reachable without a cast.
  func testAPoolDirectoryGivesPoolsBack() throws {
    let directory = try DatabaseDirectory(
      path: path("pools"), prefix: "app", maximumReaderCount: 3)
    let pool: DatabasePool = try XCTUnwrap(try directory.switchUser(to: "ann"))
    XCTAssertEqual(pool.maximumReaderCount, 3)
    let current: DatabasePool? = directory.currentUser?.database
    XCTAssertTrue(current === pool)
    try directory.close()
  }

  /// Without a `common:` preparation no common file is created and `common` is nil.
  func testNoCommonFileWithoutACommonPreparation() throws {
    let folder = path("nocommon")
    let directory = try DatabaseDirectory(path: folder, prefix: "app")
    XCTAssertNil(directory.common)
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/app_common.sqlite"))
    _ = try directory.switchUser(to: "ann")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["app_ann.sqlite"])
    try directory.close()
  }
}
