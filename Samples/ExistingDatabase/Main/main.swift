import ExistingDatabaseSample
import Foundation

// Usage: swift run ExistingDatabase [directory]
let directory =
  CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
do {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = URL(fileURLWithPath: directory).appendingPathComponent("music-store.sqlite").path
  try ExistingDatabaseDemo(path: path).run()
} catch {
  print("ExistingDatabase failed: \(error)")
  exit(1)
}
