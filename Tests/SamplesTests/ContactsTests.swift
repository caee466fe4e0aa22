import ContactsSample
import Foundation
import SwiftLite
import XCTest

final class ContactsTests: TemporaryDirectoryTestCase {
  /// Few iterations keep the tests fast; the production default is tested separately.
  private let hasher = PasswordHasher(iterations: 1_000)

  private var path: String { directory.appendingPathComponent("contacts.sqlite").path }

  private func makeStore() throws -> ContactsStore {
    try ContactsStore(path: path, hasher: hasher)
  }

  /// A plain read-only connection on the store's file, to check what really is stored.
  private func openFile() throws -> Connection {
    try Connection(path: path, options: .readOnly)
  }

  private func names(_ contacts: [Contact]) -> [String] { contacts.map(\.name) }

  // MARK: Adding, updating, deleting

  func testAddReturnsNewIdsAndWritesRowsToTheFile() throws {
    let store = try makeStore()
    let ann = try store.add(phone: "555-0100", name: "Ann", password: "secret one")
    let bob = try store.add(phone: "555-0101", name: "Bob", password: nil)
    XCTAssertEqual(bob, ann + 1)
    XCTAssertEqual(try store.contact(id: ann), Contact(id: ann, phone: "555-0100", name: "Ann"))

    let db = try openFile()
    defer { try? db.close() }
    let rows = try db.query("SELECT id, phone, name, password_hash FROM users ORDER BY id")
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(try rows[0].get(Int64.self, "id"), ann)
    XCTAssertEqual(try rows[0].get(String.self, "phone"), "555-0100")
    XCTAssertEqual(try rows[1].get(String.self, "name"), "Bob")
    XCTAssertEqual(try rows[1]["password_hash"], .null)
  }

  func testAutoincrementNeverReusesTheIdOfADeletedContact() throws {
    let store = try makeStore()
    let first = try store.add(phone: "1", name: "First", password: nil)
    let second = try store.add(phone: "2", name: "Second", password: nil)
    try store.delete(id: second)
    XCTAssertEqual(try store.add(phone: "3", name: "Third", password: nil), second + 1)
    XCTAssertEqual(try store.all().map(\.id), [first, second + 1])
  }

  func testAddingADuplicatePhoneThrowsPhoneAlreadyExists() throws {
    let store = try makeStore()
    try store.add(phone: "555-0100", name: "Ann", password: "pw")
    XCTAssertThrowsError(try store.add(phone: "555-0100", name: "Other Ann", password: "pw")) {
      error in
      XCTAssertEqual(error as? ContactsError, .phoneAlreadyExists("555-0100"))
      XCTAssertEqual("\(error)", "A contact with phone 555-0100 already exists.")
      XCTAssertEqual(
        error.localizedDescription, "A contact with phone 555-0100 already exists.")
    }
    XCTAssertEqual(try store.count(), 1)
    XCTAssertEqual(names(try store.all()), ["Ann"])
  }

  func testUpdatingToATakenPhoneThrowsPhoneAlreadyExists() throws {
    let store = try makeStore()
    try store.add(phone: "555-0100", name: "Ann", password: nil)
    let bob = try store.add(phone: "555-0101", name: "Bob", password: nil)
    XCTAssertThrowsError(try store.update(Contact(id: bob, phone: "555-0100", name: "Bob"))) {
      XCTAssertEqual($0 as? ContactsError, .phoneAlreadyExists("555-0100"))
    }
    XCTAssertEqual(try store.contact(id: bob)?.phone, "555-0101")
  }

  func testUpdateSavesPhoneAndName() throws {
    let store = try makeStore()
    let id = try store.add(phone: "555-0100", name: "Ann", password: "pw")
    try store.update(Contact(id: id, phone: "555-0199", name: "Ann Lee"))
    XCTAssertEqual(try store.all(), [Contact(id: id, phone: "555-0199", name: "Ann Lee")])
    XCTAssertTrue(try store.verifyPassword("pw", phone: "555-0199"))
  }

  func testUpdateAndDeleteOfAMissingContactThrowNotFound() throws {
    let store = try makeStore()
    XCTAssertThrowsError(try store.update(Contact(id: 42, phone: "1", name: "Nobody"))) {
      XCTAssertEqual($0 as? ContactsError, .contactNotFound(id: 42))
    }
    XCTAssertThrowsError(try store.delete(id: 42)) {
      XCTAssertEqual($0 as? ContactsError, .contactNotFound(id: 42))
    }
    XCTAssertThrowsError(try store.setPassword("pw", forContact: 42)) {
      XCTAssertEqual($0 as? ContactsError, .contactNotFound(id: 42))
    }
  }

  func testDeleteRemovesTheRowFromTheFile() throws {
    let store = try makeStore()
    let ann = try store.add(phone: "1", name: "Ann", password: nil)
    try store.add(phone: "2", name: "Bob", password: nil)
    try store.delete(id: ann)
    let db = try openFile()
    defer { try? db.close() }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM users"), 1)
    XCTAssertNil(try db.queryFirst("SELECT 1 FROM users WHERE id = ?", [ann]))
    XCTAssertEqual(try store.deleteAll(), 1)
    XCTAssertEqual(try store.count(), 0)
  }

  func testEmptyFieldsAreRefused() throws {
    let store = try makeStore()
    XCTAssertThrowsError(try store.add(phone: "", name: "Ann", password: nil)) {
      XCTAssertEqual($0 as? ContactsError, .emptyField("phone"))
    }
    XCTAssertThrowsError(try store.add(phone: "1", name: "", password: nil)) {
      XCTAssertEqual($0 as? ContactsError, .emptyField("name"))
    }
    XCTAssertThrowsError(try store.add(phone: "1", name: "Ann", password: "")) {
      XCTAssertEqual($0 as? ContactsError, .emptyField("password"))
    }
    XCTAssertEqual(try store.count(), 0)
  }

  // MARK: Search, count, paging

  func testSearchByNameUsesLikeIgnoringASCIICase() throws {
    let store = try makeStore()
    for (phone, name) in [("1", "Ann Lee"), ("2", "Joanna"), ("3", "Bob"), ("4", "DANA")] {
      try store.add(phone: phone, name: name, password: nil)
    }
    XCTAssertEqual(names(try store.search(name: "an")), ["Ann Lee", "DANA", "Joanna"])
    XCTAssertEqual(names(try store.search(name: "BOB")), ["Bob"])
    XCTAssertEqual(names(try store.search(name: "zed")), [])
    XCTAssertEqual(try store.search(name: "").count, 4)
  }

  func testSearchMatchesPercentUnderscoreAndBackslashLiterally() throws {
    let store = try makeStore()
    let names = [
      "100% Fresh", "100 Fresh", "snake_case", "snakeXcase", #"back\slash"#, "backslash",
    ]
    for (index, name) in names.enumerated() {
      try store.add(phone: "\(index)", name: name, password: nil)
    }
    XCTAssertEqual(self.names(try store.search(name: "%")), ["100% Fresh"])
    XCTAssertEqual(self.names(try store.search(name: "0% F")), ["100% Fresh"])
    XCTAssertEqual(self.names(try store.search(name: "_")), ["snake_case"])
    XCTAssertEqual(self.names(try store.search(name: "e_c")), ["snake_case"])
    XCTAssertEqual(self.names(try store.search(name: #"\"#)), [#"back\slash"#])
    XCTAssertEqual(self.names(try store.search(name: "'")), [])
  }

  func testCountFollowsAddsAndDeletes() throws {
    let store = try makeStore()
    XCTAssertEqual(try store.count(), 0)
    let ids = try (0..<5).map { try store.add(phone: "\($0)", name: "P\($0)", password: nil) }
    XCTAssertEqual(try store.count(), 5)
    try store.delete(id: ids[0])
    XCTAssertEqual(try store.count(), 4)
  }

  func testPagingWithLimitAndOffsetCoversEveryContactOnce() throws {
    let store = try makeStore()
    let unordered = ["Gus", "ann", "Eve", "Bob", "Dan", "cal", "Fay"]
    for (index, name) in unordered.enumerated() {
      try store.add(phone: "555-01\(index)", name: name, password: nil)
    }
    var pages: [[String]] = []
    var offset = 0
    while true {
      let page = try store.page(limit: 3, offset: offset, orderedBy: .name)
      if page.isEmpty { break }
      pages.append(names(page))
      offset += 3
    }
    XCTAssertEqual(pages, [["ann", "Bob", "cal"], ["Dan", "Eve", "Fay"], ["Gus"]])

    XCTAssertEqual(names(try store.page(limit: 2, offset: 0)), ["Gus", "ann"])
    XCTAssertEqual(
      names(try store.page(limit: 2, offset: 0, orderedBy: .newestFirst)), ["Fay", "cal"])
    XCTAssertEqual(names(try store.page(limit: 1, offset: 6, orderedBy: .phone)), ["Fay"])
    XCTAssertEqual(try store.page(limit: 0, offset: 0), [])
    XCTAssertEqual(try store.page(limit: 10, offset: 100), [])
    XCTAssertThrowsError(try store.page(limit: -1, offset: 0)) {
      XCTAssertEqual($0 as? ContactsError, .invalidPage(limit: -1, offset: 0))
    }
    XCTAssertThrowsError(try store.page(limit: 1, offset: -1))
  }

  // MARK: Passwords

  func testVerifyPasswordAcceptsOnlyTheRightPassword() throws {
    let store = try makeStore()
    let id = try store.add(phone: "555-0100", name: "Ann", password: "correct horse")
    try store.add(phone: "555-0101", name: "Bob", password: nil)
    XCTAssertTrue(try store.verifyPassword("correct horse", phone: "555-0100"))
    XCTAssertFalse(try store.verifyPassword("Correct horse", phone: "555-0100"))
    XCTAssertFalse(try store.verifyPassword("correct horse ", phone: "555-0100"))
    XCTAssertFalse(try store.verifyPassword("", phone: "555-0100"))
    XCTAssertFalse(try store.verifyPassword("correct horse", phone: "555-0999"))
    XCTAssertFalse(try store.verifyPassword("anything", phone: "555-0101"))

    try store.setPassword("new one", forContact: id)
    XCTAssertFalse(try store.verifyPassword("correct horse", phone: "555-0100"))
    XCTAssertTrue(try store.verifyPassword("new one", phone: "555-0100"))
    try store.setPassword(nil, forContact: id)
    XCTAssertFalse(try store.verifyPassword("new one", phone: "555-0100"))
  }

  func testTheFileHoldsASaltedHashNotThePassword() throws {
    let store = try makeStore()
    let password = "correct horse battery staple"
    try store.add(phone: "1", name: "Ann", password: password)
    try store.add(phone: "2", name: "Bob", password: password)

    let db = try openFile()
    defer { try? db.close() }
    let rows = try db.query("SELECT password_hash, password_salt FROM users ORDER BY id")
    let hashes = try rows.map { try $0.get(Data.self, "password_hash") }
    let salts = try rows.map { try $0.get(Data.self, "password_salt") }
    XCTAssertEqual(hashes.map(\.count), [32, 32])
    XCTAssertEqual(salts.map(\.count), [16, 16])
    XCTAssertNotEqual(salts[0], salts[1], "each password gets its own salt")
    XCTAssertNotEqual(hashes[0], hashes[1], "same password, different salt, different hash")
    let passwordBytes = Data(password.utf8)
    for hash in hashes {
      XCTAssertNotEqual(hash, passwordBytes)
      XCTAssertNil(hash.range(of: passwordBytes))
    }
    XCTAssertEqual(hashes[0], try hasher.deriveKey(password, salt: salts[0]))

    // Nothing in the whole file contains the password's bytes.
    try db.close()
    let file = try Data(contentsOf: URL(fileURLWithPath: path))
    XCTAssertNil(file.range(of: passwordBytes))
  }

  func testPasswordHasherMatchesPBKDF2HMACSHA256TestVectors() throws {
    // RFC 7914, section 11 (the first 32 bytes of each 64-byte output).
    XCTAssertEqual(
      try PasswordHasher(iterations: 1).deriveKey("passwd", salt: Data("salt".utf8)),
      Data(hex: "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"))
    XCTAssertEqual(
      try PasswordHasher(iterations: 80_000).deriveKey("Password", salt: Data("NaCl".utf8)),
      Data(hex: "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"))
  }

  func testPasswordHasherDefaultsAndVerification() throws {
    XCTAssertGreaterThanOrEqual(PasswordHasher().iterations, 100_000)
    XCTAssertGreaterThanOrEqual(try store().hasher.iterations, 100_000)
    let stored = try hasher.hash("pässwörd")
    XCTAssertEqual(stored.key.count, PasswordHasher.keyLength)
    XCTAssertEqual(stored.salt.count, PasswordHasher.saltLength)
    XCTAssertTrue(try hasher.verify("pässwörd", against: stored))
    XCTAssertFalse(try hasher.verify("passwörd", against: stored))
    XCTAssertFalse(
      try hasher.verify(
        "pässwörd", against: PasswordHash(key: stored.key.dropLast(), salt: stored.salt)))
    XCTAssertNotEqual(try hasher.hash("pässwörd").salt, stored.salt)
  }

  private func store() throws -> ContactsStore { try ContactsStore(path: path) }

  // MARK: The demo

  func testTheDemoRunsTwiceAndShowsTheFriendlyDuplicateMessage() throws {
    let first = try runSample("Contacts")
    XCTAssertTrue(first.contains("A contact with phone 555-0100 already exists."), first)
    XCTAssertTrue(first.contains("deleteAll -> 0 contact(s)"), first)
    let second = try runSample("Contacts")
    XCTAssertTrue(second.contains("deleteAll -> 4 contact(s)"), second)
    XCTAssertTrue(second.contains("verify 555-0100 \"correct horse\" -> true"), second)
  }
}

extension Data {
  fileprivate init(hex: String) {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    self.init(bytes)
  }
}
