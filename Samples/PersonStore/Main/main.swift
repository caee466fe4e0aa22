import Foundation
import PersonStoreSample

// Usage: swift run PersonStore [directory]   (or PERSONSTORE_DIRECTORY=...)
let arguments = CommandLine.arguments.dropFirst()
let directory =
  arguments.first ?? ProcessInfo.processInfo.environment["PERSONSTORE_DIRECTORY"]
  ?? FileManager.default.currentDirectoryPath
do {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = URL(fileURLWithPath: directory).appendingPathComponent("PersonStore.sqlite").path
  try PersonStoreDemo(path: path).run()
} catch {
  print("PersonStore failed: \(error)")
  exit(1)
}
