import Foundation
import SwiftLite

/// The walk-through: save people, read them back, evolve the model (rename,
/// add, remove with permission), show the migration plan and the rows that survived it,
/// then one message table per chat. Re-runnable on the same file: it starts by resetting
/// the `Person` table to the first version.
public struct PersonStoreDemo {
  /// The database file.
  public let path: String
  private let say: (String) -> Void

  /// A demo over a file.
  /// - Parameters:
  ///   - path: the database file (created when missing).
  ///   - output: where to print each line; `print` by default.
  public init(path: String, output: @escaping (String) -> Void = { print($0) }) {
    self.path = path
    self.say = output
  }

  /// Runs every step.
  /// - Throws: `SQLiteError`, ``MigrationError``, ``ModelError`` from SwiftLite.
  public func run() throws {
    let db = try Connection(path: path)
    say("Database: \(path)")

    // 1. Version 1 of the model: the table is created on first use.
    try db.dropTable(for: Person.self)
    try db.save([
      Person(
        personName: "Zhang San", personAge: 28, personHeight: 1.75, personLikes: ["tea", "go"]),
      Person(personName: "Li Si", personAge: 34, personHeight: 1.62, personLikes: ["music"]),
      Person(personName: "Wang Wu", personAge: 19, personHeight: 1.80, personLikes: []),
    ])
    say("Saved \(try db.count(Person.self)) people (version 1):")
    for person in try db.findAll(Person.self, orderBy: "personID") {
      say(
        "  #\(person.personID ?? 0) \(person.personName), \(person.personAge), "
          + "\(person.personHeight) m, likes \(person.personLikes)")
    }

    // Save-or-update by primary key: one UPSERT.
    if var first = try db.find(Person.self, id: 1) {
      first.personAge += 1
      try db.save(first)
      say("Updated #1: now \(first.personAge)")
    }

    // 2. The app evolves: a new connection sees PersonV2 for the first time.
    let evolved = try Connection(path: path)
    let plan = try evolved.migrationPlan(for: PersonV2.self)
    say("")
    say(plan.description)
    try evolved.migrate(PersonV2.self)
    say("")
    say("After the migration (version 2), every row kept its values:")
    for person in try evolved.findAll(PersonV2.self, orderBy: "personID") {
      say(
        "  #\(person.personID ?? 0) \(person.name), \(person.personAge), likes "
          + "\(person.personLikes), email \(person.email ?? "none")")
    }
    let adults = try evolved.findAll(PersonV2.self, where: "personAge >= ?", [21], orderBy: "name")
    say("Adults by name: " + adults.map(\.name).joined(separator: ", "))

    // 3. One table per chat, same model.
    say("")
    for chat in ["42", "7"] {
      try evolved.deleteAll(ChatMessage.self, target: chat)
    }
    let now = Date(timeIntervalSince1970: 1_764_460_800)
    try evolved.save(ChatMessage(sender: "Zhang San", text: "Hello!", sentAt: now), target: "42")
    try evolved.save(
      ChatMessage(sender: "Li Si", text: "Hi, how are you?", sentAt: now + 60), target: "42")
    try evolved.save(ChatMessage(sender: "Wang Wu", text: "Meeting at 3", sentAt: now), target: "7")
    for chat in ["42", "7"] {
      let messages = try evolved.findAll(ChatMessage.self, orderBy: "sentAt", target: chat)
      say(
        "\(ChatMessage.tableName(target: chat)): "
          + messages.map { "\($0.sender): \($0.text)" }.joined(separator: " | "))
    }
  }
}
