import Foundation
import SwiftLite

/// The School sample: grades, classes, teachers and students with real foreign keys and
/// cascades, read through the query interface and relations without one query per row.
public struct SchoolDemo {
  let path: String
  let output: (String) -> Void

  /// A demo on the database file at `path`, printing through `output`.
  public init(path: String, output: @escaping (String) -> Void = { print($0) }) {
    self.path = path
    self.output = output
  }

  /// The versioned schema: the tables from the models (their indexes included), then a
  /// step of data written in SQL. A schema change to a table the models manage belongs in
  /// the model (an index in `indexes`, say): SQL that changes such a table behind the
  /// model's back would be undone by the model's next migration.
  ///
  /// Each model step applies the shape recorded for it in `MigrationSnapshots/` (shipped as
  /// a resource, recorded by the sample's tests), so a fresh install and an upgrade run the
  /// same history whatever the models become.
  /// - Throws: ``MigrationSnapshotError`` if the shipped snapshots cannot be read.
  public static var migrator: Migrator {
    get throws {
      var migrator = try Migrator(snapshots: snapshotFolder)
      migrator.registerModels("v1-tables", Grade.self, Person.self, SchoolClass.self)
      migrator.register("v2-trim-names") { db in
        try db.run("UPDATE Person SET name = trim(name) WHERE name <> trim(name)")
      }
      return migrator
    }
  }

  /// The schema snapshots the sample ships.
  private static var snapshotFolder: URL {
    get throws {
      guard let url = Bundle.module.url(forResource: "MigrationSnapshots", withExtension: nil)
      else {
        throw MigrationSnapshotError.unreadable(
          file: "MigrationSnapshots", reason: "the sample's resource folder is missing")
      }
      return url
    }
  }

  /// Runs the demo; the file may hold an earlier run's data, which is replaced.
  /// - Throws: `SQLiteError`, ``ModelError`` or what migration throws.
  public func run() throws {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    let applied = try Self.migrator.migrate(queue)
    output("migrations applied now: \(applied.isEmpty ? "none" : applied.joined(separator: ", "))")

    // Observation: the number of people, now and after each commit that changes Person
    // (SQLite tells which tables the count reads). Values arrive on a worker thread.
    let observed = ObservedCounts()
    let observation = queue.observe(
      { db in try Person.all().fetchCount(db) }, onChange: { observed.record($0) })
    defer { observation.cancel() }

    try queue.write { db in
      try Grade.all().deleteAll(db)  // an earlier run's data: classes and students cascade
      try Person.all().deleteAll(db)
      try seed(db)
    }

    try queue.read { db in
      // Every grade with its classes: two statements, whatever the number of grades.
      for (grade, classes) in try Grade.all().order(Column("name")).fetchAll(
        db, including: Grade.classes.order(Column("name")))
      {
        output("\(grade.name): \(classes.map(\.name).joined(separator: ", "))")
      }
      // Every class with its teacher, then its students in one more statement.
      let classes = try SchoolClass.all().order(Column("name")).fetchAll(
        db, including: SchoolClass.teacher)
      let students = try SchoolClass.all().order(Column("name")).fetchAll(
        db, including: SchoolClass.students.order(Column("name")))
      for ((schoolClass, teacher), (_, pupils)) in zip(classes, students) {
        output(
          "\(schoolClass.name) taught by \(teacher?.name ?? "nobody"): "
            + pupils.map(\.name).joined(separator: ", "))
      }
      // Grades that have a class whose name starts with "2" (a semi-join, each grade once).
      let second = try Grade.all().joining(Grade.classes.filter(Column("name").hasPrefix("2")))
        .fetchAll(db)
      output("grades with a class named 2...: \(second.map(\.name))")
      // A search typed by a user: "%" matches a percent sign, not everything.
      for typed in ["100%", "an"] {
        let found = try Person.filter(Column("name").contains(typed)).order(Column("name"))
          .fetchAll(db)
        output("search \"\(typed)\": \(found.map(\.name))")
      }
      let counts = try Person.filter(Column("classID") != nil)
        .select(Column("classID"), SQLExpression.countAll.aliased("students"))
        .group(Column("classID")).order(Column("classID")).fetchRows(db)
      output("students per class: \(try counts.map { try $0.get(Int.self, "students") })")
    }

    // Deleting a grade deletes its classes and their students: SQLite's ON DELETE CASCADE.
    try queue.write { db in
      let before = try Person.all().fetchCount(db)
      try Grade.filter(Column("name") == "Grade 1").deleteAll(db)
      let after = try Person.all().fetchCount(db)
      output(
        "deleted Grade 1: people \(before) -> \(after), classes left \(try SchoolClass.all().fetchCount(db))"
      )
    }
    let final = try queue.read { db in try Person.all().fetchCount(db) }
    output("observed after the last commit: \(observed.wait(for: final)) people")
  }

  private func seed(_ db: Connection) throws {
    let teachers = ["Ms Alvarez", "Mr Brown", "Dr Chen"].map { name in Person(name: name) }
    var teacherIDs: [Int64] = []
    for teacher in teachers { teacherIDs.append(try db.insert(teacher)) }
    let grade1 = try db.insert(Grade(name: "Grade 1"))
    let grade2 = try db.insert(Grade(name: "Grade 2"))
    let classes = [
      (grade1, teacherIDs[0], "1A", ["Ann", "Ben", "100% Sure Sam"]),
      (grade1, teacherIDs[1], "1B", ["Dana", "1000 Maniacs Fan"]),
      (grade2, teacherIDs[2], "2A", ["Eve", "Frank", "Hannah"]),
    ]
    for (grade, teacher, name, students) in classes {
      let classID = try db.insert(SchoolClass(gradeID: grade, teacherID: teacher, name: name))
      for student in students { try db.insert(Person(name: student, classID: classID)) }
    }
  }
}

/// The counts an observation delivered, for the demo to wait on.
private final class ObservedCounts: @unchecked Sendable {
  private let condition = NSCondition()
  private var last: Int?

  func record(_ count: Int) {
    condition.lock()
    last = count
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (up to 10 s) until the observation delivered `expected`; returns the last value.
  func wait(for expected: Int) -> Int {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(10)
    while last != expected, condition.wait(until: deadline) {}
    return last ?? -1
  }
}
