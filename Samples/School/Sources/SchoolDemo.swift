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
      migrator.registerModels("v3-topics", Topic.self)
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
      try Topic.all().deleteAll(db)
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
      try readCountsTreeAndSearch(db)
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

  /// What an app reaches for beyond the query interface's basics: counts of a relation as
  /// annotations, a tree by a recursive common table, and ranked search with snippets,
  /// once from SQL of your own and once through the query interface.
  private func readCountsTreeAndSearch(_ db: Connection) throws {
    // Counts by annotation: one statement, the students are counted, never loaded.
    let sizes = try SchoolClass.all()
      .annotated(with: SchoolClass.students.count.aliased("studentCount"))
      .order(Column("name")).fetchAll(db, as: ClassSize.self)
    output("class sizes: " + sizes.map { "\($0.name) \($0.studentCount)" }.joined(separator: ", "))
    let grades = try Grade.all()
      .annotated(with: Grade.classes.count.aliased("classCount"))
      .having(Grade.classes.count >= 2).fetchAll(db, as: GradeSize.self)
    output(
      "grades with 2 classes or more: "
        + grades.map { "\($0.name) \($0.classCount)" }
        .joined(separator: ", "))

    // The curriculum as a tree, by a recursive common table: one statement at any depth.
    let tree = CommonTable(
      recursive: "tree",
      """
      SELECT Topic.*, 0 AS depth, Topic.title AS path FROM Topic WHERE parentID IS NULL
      UNION ALL
      SELECT Topic.*, tree.depth + 1, tree.path || \(" / ") || Topic.title
      FROM Topic JOIN tree ON Topic.parentID = tree.id
      """)
    let topics = try Topic.all(from: tree)
      .annotated(with: Column("depth").aliased("depth"))
      .order(Column("path")).fetchAll(db, as: TopicInTree.self)
    output("topic tree:")
    for topic in topics {
      output(String(repeating: "  ", count: topic.depth + 1) + topic.title)
    }

    // Ranked search from your own SQL: each row a Topic, with its score and a snippet
    // read from the same row. The typed words are one bound phrase, the markers bound.
    let typed = "equations"
    let phrase = "\"" + typed.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    var fromSQL: [String] = []
    try db.forEachRow(
      """
      SELECT Topic.*, bm25(Topic_fts, 10.0, 1.0) AS score,
        snippet(Topic_fts, 1, \("["), \("]"), \("..."), 6) AS snippet
      FROM Topic_fts JOIN Topic ON Topic.id = Topic_fts.rowid
      WHERE Topic_fts MATCH \(phrase)
      ORDER BY score, Topic.title
      """, as: Topic.self
    ) { topic, row in
      let score = try row.get(Double.self, "score")
      fromSQL.append(topic.title)
      output("hit \(topic.title) (score < 0: \(score < 0)): \(try row.get(String.self, "snippet"))")
    }
    // The same search through the query interface: the same hits in the same order.
    let hits = try Topic.all().matching(.phrase(typed), weights: ["title": 10])
      .fetchHits(db, [.snippet(of: "notes", before: "[", after: "]", tokens: 6)])
    output("search \"\(typed)\" from SQL: \(fromSQL)")
    output("search \"\(typed)\" by fetchHits: \(hits.map(\.model.title))")
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
    let maths = try db.insert(Topic(title: "Mathematics", notes: "Numbers, shapes, patterns."))
    let algebra = try db.insert(
      Topic(parentID: maths, title: "Algebra", notes: "Letters stand for numbers in equations."))
    try db.insert(
      Topic(
        parentID: algebra, title: "Linear equations",
        notes: "Solve equations with one unknown, then check by substitution."))
    try db.insert(
      Topic(
        parentID: algebra, title: "Quadratic equations",
        notes: "Factor, complete the square or use the formula."))
    let geometry = try db.insert(
      Topic(parentID: maths, title: "Geometry", notes: "Points, lines and angles."))
    try db.insert(
      Topic(parentID: geometry, title: "Triangles", notes: "The angles add up to 180 degrees."))
    let reading = try db.insert(Topic(title: "Reading", notes: "Stories and poems."))
    try db.insert(Topic(parentID: reading, title: "Poetry", notes: "Rhythm and rhyme, read aloud."))
  }
}

/// A class and how many students it has, read with the class's columns.
private struct ClassSize: Decodable {
  var name: String
  var studentCount: Int
}

/// A grade and how many classes it has.
private struct GradeSize: Decodable {
  var name: String
  var classCount: Int
}

/// A topic and its depth in the curriculum tree.
private struct TopicInTree: Decodable {
  var title: String
  var depth: Int
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
