import Foundation
import SyncSample

// Usage: swift run Sync [directory]
let directory = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
do {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  try SyncDemo(directory: URL(fileURLWithPath: directory)).run()
} catch {
  print("Sync failed: \(error)")
  exit(1)
}
