import Foundation
import SwiftLite

// A second process for the tests: writes rows into a database file through a
// DatabaseQueue or a DatabasePool, while the test process writes the same file.
//
//   SwiftLiteProcessHelper <queue|pool> <path> <writer name> <row count>
//
// Exits 0 when every write committed, 1 (printing the error) at the first failure.
//
//   SwiftLiteProcessHelper apply-changesets <path> <folder> <count>
//
// Applies the changesets <folder>/1.changeset ... <count>.changeset to the database, each
// as soon as it appears (a writer renames each file into place whole), then exits 0; 1 at
// the first failure, or when a file has not appeared after 60 seconds.

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "apply-changesets", let count = Int(arguments[4]) {
  do {
    let database = try DatabaseQueue(path: arguments[2])
    for number in 1...count {
      let file = URL(fileURLWithPath: arguments[3]).appendingPathComponent("\(number).changeset")
      let deadline = Date().addingTimeInterval(60)
      while !FileManager.default.fileExists(atPath: file.path) {
        if Date() > deadline { throw CocoaError(.fileNoSuchFile) }
        usleep(5_000)
      }
      try database.apply(Changeset(data: try Data(contentsOf: file)))
    }
    try database.close()
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("apply-changesets: \(error)\n".utf8))
    exit(1)
  }
}
guard arguments.count == 5, let count = Int(arguments[4]), ["queue", "pool"].contains(arguments[1])
else {
  FileHandle.standardError.write(
    Data("usage: SwiftLiteProcessHelper <queue|pool> <path> <writer> <count>\n".utf8))
  exit(2)
}
let path = arguments[2]
let writer = arguments[3]

do {
  // Three processes take turns at one write lock: on a loaded machine a writer can wait
  // longer than the default 5 seconds (SQLite's busy wait is not a queue), so the tests
  // give it a minute.
  var options = OpenOptions()
  options.busyTimeout = 60
  let database: any DatabaseAccess =
    arguments[1] == "pool"
    ? try DatabasePool(path: path, options: options)
    : try DatabaseQueue(path: path, options: options)
  for n in 0..<count {
    try database.write { db in
      try db.run("INSERT INTO event(writer, n) VALUES (?, ?)", [writer, n])
    }
    if n % 10 == 0 {
      _ = try database.read { db in try db.scalar(Int.self, "SELECT count(*) FROM event") }
    }
  }
  try database.close()
} catch {
  FileHandle.standardError.write(Data("\(writer): \(error)\n".utf8))
  exit(1)
}
