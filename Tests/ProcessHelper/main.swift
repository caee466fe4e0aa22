import Foundation
import SwiftLite

// A second process for the tests: writes rows into a database file through a
// DatabaseQueue or a DatabasePool, while the test process writes the same file.
//
//   SwiftLiteProcessHelper <queue|pool> <path> <writer name> <row count>
//
// Exits 0 when every write committed, 1 (printing the error) at the first failure.

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[4]), ["queue", "pool"].contains(arguments[1])
else {
  FileHandle.standardError.write(
    Data("usage: SwiftLiteProcessHelper <queue|pool> <path> <writer> <count>\n".utf8))
  exit(2)
}
let path = arguments[2]
let writer = arguments[3]

do {
  let database: any DatabaseAccess =
    arguments[1] == "pool" ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
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
