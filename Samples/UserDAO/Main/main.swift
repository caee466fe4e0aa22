// A tour of UserDAO: save, find, modify, remove and list users in UserList.sqlite.
//
//   swift run UserDAO [directory]        (or USERDAO_DIRECTORY=... swift run UserDAO)
//
// The directory defaults to the current one. Running the demo again on the same file gives
// the same output: `save` inserts or updates.
import Foundation
import UserDAOSample

func describe(_ user: User) -> String {
  "\(user.userId) \(user.userName), \(user.userAge)"
}

func runDemo() throws {
  let arguments = CommandLine.arguments.dropFirst()
  let directory =
    arguments.first ?? ProcessInfo.processInfo.environment["USERDAO_DIRECTORY"]
    ?? FileManager.default.currentDirectoryPath
  try FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true)

  // Point the shared instance at the chosen directory before anyone uses it.
  try UserDAO.configure(directory: directory)
  let dao = try UserDAO.shared
  print("database: \(dao.path)")

  let users = [
    User(userId: "u1", userName: "Ann", userAge: 34),
    User(userId: "u2", userName: "Bob", userAge: 27),
    User(userId: "u3", userName: "O'Brien; DROP TABLE user; --", userAge: 41),
  ]
  for user in users {
    try dao.save(user)
    print("save     \(describe(user))")
  }

  if let ann = try dao.findById("u1") { print("findById u1 -> \(describe(ann))") }
  print("findById nobody -> \(try dao.findById("nobody").map(describe) ?? "nil")")

  var bob = users[1]
  bob.userAge += 1
  try dao.modify(bob)
  print("modify   u2: age \(users[1].userAge) -> \(bob.userAge)")

  try dao.remove("u3")
  print("remove   u3")
  do {
    try dao.remove("nobody")
  } catch let error as UserDAOError {
    print("remove   nobody -> \(error)")
  }

  let all = try dao.findAll()
  print("findAll  -> \(all.count) user(s)")
  for user in all { print("  \(describe(user))") }
}

do {
  try runDemo()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
