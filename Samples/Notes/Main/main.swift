import Foundation
import NotesSample

// Usage: swift run Notes [directory]
let directory = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
do {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let equal = try NotesDemo(directory: URL(fileURLWithPath: directory)).run()
  exit(equal ? 0 : 1)
} catch {
  print("Notes failed: \(error)")
  exit(1)
}
