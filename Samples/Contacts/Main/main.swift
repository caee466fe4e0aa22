// A tour of ContactsStore: add, the friendly duplicate-phone error, list, LIKE search,
// count, paging, update, passwords and delete, in contacts.sqlite.
//
//   swift run Contacts [directory]        (or CONTACTS_DIRECTORY=... swift run Contacts)
//
// The directory defaults to the current one. Each run starts by emptying the table, so the
// demo can run again on the same file; ids keep growing, as AUTOINCREMENT never reuses one.
import ContactsSample
import Foundation
import SwiftLite

func show(_ contacts: [Contact]) -> String {
  contacts.isEmpty ? "(none)" : contacts.map { "#\($0.id) \($0.name)" }.joined(separator: ", ")
}

func runDemo() throws {
  let directory =
    CommandLine.arguments.dropFirst().first
    ?? ProcessInfo.processInfo.environment["CONTACTS_DIRECTORY"]
    ?? FileManager.default.currentDirectoryPath
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = URL(fileURLWithPath: directory).appendingPathComponent("contacts.sqlite").path

  let store = try ContactsStore(path: path)
  print("database: \(path)")
  print("deleteAll -> \(try store.deleteAll()) contact(s) left by an earlier run")

  let people = [
    ("555-0100", "Ann Lee", "correct horse"),
    ("555-0101", "Joanna Smith", "battery staple"),
    ("555-0102", "Bob Stone", "hunter2"),
    ("555-0103", "100% Fresh Grocer", "apples"),
    ("555-0104", "snake_case Sam", "hiss"),
  ]
  var ids: [Int64] = []
  for (phone, name, password) in people {
    let id = try store.add(phone: phone, name: name, password: password)
    ids.append(id)
    print("add    \(name) (\(phone)) -> id \(id)")
  }

  // The UNIQUE phone column turns a second "555-0100" into a clear, typed error.
  do {
    try store.add(phone: "555-0100", name: "Another Ann", password: "x")
  } catch let error as ContactsError {
    print("add    Another Ann (555-0100) -> \(error)")
  }

  print("count  -> \(try store.count())")
  print("all    -> \(show(try store.all()))")
  print("search \"an\" -> \(show(try store.search(name: "an")))")
  print("search \"%\"  -> \(show(try store.search(name: "%")))  (% matched literally)")
  print("search \"_\"  -> \(show(try store.search(name: "_")))  (_ matched literally)")

  let pageSize = 2
  var pageNumber = 0
  while true {
    let page = try store.page(limit: pageSize, offset: pageNumber * pageSize, orderedBy: .name)
    if page.isEmpty { break }
    pageNumber += 1
    print("page \(pageNumber) by name, \(pageSize) per page -> \(show(page))")
  }

  if var bob = try store.contact(id: ids[2]) {
    bob.name = "Robert Stone"
    try store.update(bob)
    print("update #\(bob.id) name -> \(try store.contact(id: bob.id)?.name ?? "?")")
  }

  for attempt in ["correct horse", "Correct Horse"] {
    let ok = try store.verifyPassword(attempt, phone: "555-0100")
    print("verify 555-0100 \"\(attempt)\" -> \(ok)")
  }

  // What the file holds instead of the password: a derived key and its salt.
  let db = try Connection(path: path, options: .readOnly)
  let sql = "SELECT length(password_hash), length(password_salt) FROM users WHERE phone = ?"
  if let row = try db.queryFirst(sql, ["555-0100"]) {
    let keyLength = try row.get(Int.self, at: 0)
    let saltLength = try row.get(Int.self, at: 1)
    print("stored -> \(keyLength)-byte PBKDF2 key and \(saltLength)-byte salt, no password")
  }
  try db.close()

  try store.delete(id: ids[1])
  print("delete #\(ids[1]) -> count \(try store.count())")
  do {
    try store.delete(id: ids[1])
  } catch let error as ContactsError {
    print("delete #\(ids[1]) again -> \(error)")
  }
}

do {
  try runDemo()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
