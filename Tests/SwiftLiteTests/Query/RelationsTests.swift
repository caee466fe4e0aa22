import XCTest

@testable import SwiftLite

struct RGrade: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "rgrade"
  static let primaryKey = ["id"]
  static let classes = hasMany(RClass.self)
}

struct RClass: Model, Equatable {
  var id: Int64?
  var gradeID: Int64
  var teacherID: Int64?
  var name: String
  static let tableName = "rclass"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["gradeID"], references: RGrade.tableName, onDelete: .cascade),
    ForeignKey(["teacherID"], references: RTeacher.tableName, onDelete: .setNull),
  ]
  static let grade = belongsTo(RGrade.self)
  static let teacher = belongsTo(RTeacher.self)
}

struct RTeacher: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "rteacher"
  static let primaryKey = ["id"]
  static let homeroom = hasOne(RClass.self)
}

struct RBadge: Model {
  var id: Int64?
  var teacherID: Int64
  static let tableName = "rbadge"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["teacherID"], references: RTeacher.tableName, onDelete: .restrict)
  ]
}

final class RelationsTests: SQLiteTestCase {
  private func seed() throws {
    try db.save([
      RGrade(id: 1, name: "First"), RGrade(id: 2, name: "Second"), RGrade(id: 3, name: "Empty"),
    ])
    try db.save([RTeacher(id: 1, name: "Tess"), RTeacher(id: 2, name: "Tom")])
    try db.save([
      RClass(id: 1, gradeID: 1, teacherID: 1, name: "1A"),
      RClass(id: 2, gradeID: 1, teacherID: nil, name: "1B"),
      RClass(id: 3, gradeID: 2, teacherID: 2, name: "2A"),
    ])
  }

  func testForeignKeyColumnsGetIndexes() throws {
    let schema = try TableSchema(RClass.self)
    XCTAssertEqual(schema.indexes.map(\.columns), [["gradeID"], ["teacherID"]])
    try db.createTable(for: RGrade.self)
    try db.createTable(for: RTeacher.self)
    try db.createTable(for: RClass.self)
    let names = try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rclass'"
    )
    .map { try $0.get(String.self, "name") }
    XCTAssertEqual(Set(names), ["rclass_on_gradeID", "rclass_on_teacherID"])
    XCTAssertFalse(try db.needsMigration(RClass.self))
  }

  func testChildrenAndParent() throws {
    try seed()
    let first = try XCTUnwrap(db.find(RGrade.self, id: 1))
    XCTAssertEqual(try db.fetchAll(RGrade.classes, of: first).map(\.name).sorted(), ["1A", "1B"])
    XCTAssertEqual(
      try RGrade.classes.order(Column("name").desc).query(of: first).fetchAll(db).map(\.name),
      ["1B", "1A"])
    let twoA = try XCTUnwrap(db.find(RClass.self, id: 3))
    XCTAssertEqual(try db.fetchOne(RClass.grade, of: twoA)?.name, "Second")
    XCTAssertEqual(try db.fetchOne(RClass.teacher, of: twoA)?.name, "Tom")
    let oneB = try XCTUnwrap(db.find(RClass.self, id: 2))
    XCTAssertNil(try db.fetchOne(RClass.teacher, of: oneB))  // a NULL foreign key
    let tess = try XCTUnwrap(db.find(RTeacher.self, id: 1))
    XCTAssertEqual(try db.fetchOne(RTeacher.homeroom, of: tess)?.name, "1A")
  }

  func testEagerLoadingAndJoining() throws {
    try seed()
    let grades = try RGrade.all().order(Column("id")).fetchAll(
      db, including: RGrade.classes.order(Column("name")))
    XCTAssertEqual(grades.map(\.parent.name), ["First", "Second", "Empty"])
    XCTAssertEqual(grades.map { $0.children.map(\.name) }, [["1A", "1B"], ["2A"], []])
    let classes = try RClass.all().order(Column("id")).fetchAll(db, including: RClass.teacher)
    XCTAssertEqual(classes.map { $0.parent?.name }, ["Tess", nil, "Tom"])
    let teachers = try RTeacher.all().order(Column("id")).fetchAll(db, including: RTeacher.homeroom)
    XCTAssertEqual(teachers.map { $0.child?.name }, ["1A", "2A"])

    let withClasses = RGrade.all().joining(RGrade.classes).order(Column("id"))
    XCTAssertEqual(try withClasses.fetchAll(db).map(\.name), ["First", "Second"])
    XCTAssertEqual(
      withClasses.sql.text,
      #"SELECT * FROM "rgrade" WHERE EXISTS (SELECT 1 FROM "rclass" AS "swiftlite_child1" WHERE "swiftlite_child1"."gradeID" = "rgrade"."id") ORDER BY "id""#
    )
    let with2 = RGrade.all().joining(RGrade.classes.filter(Column("name").hasPrefix("2")))
    XCTAssertEqual(try with2.fetchAll(db).map(\.name), ["Second"])
    XCTAssertEqual(try with2.fetchCount(db), 1)
  }

  func testEagerLoadingRunsTwoStatementsForAThousandParents() throws {
    try db.createTable(for: RTeacher.self)
    try db.savepoint { db in
      for grade in 1...1_000 {
        try db.save(RGrade(id: Int64(grade), name: "g\(grade)"))
        for index in 0..<3 {
          try db.save(RClass(id: nil, gradeID: Int64(grade), teacherID: nil, name: "c\(index)"))
        }
      }
    }
    _ = try RGrade.all().fetchAll(db, including: RGrade.classes)  // the tables are checked once
    let before = executedSQL.count
    let loaded = try RGrade.all().fetchAll(db, including: RGrade.classes)
    XCTAssertEqual(executedSQL.count - before, 2, executedSQL.suffix(3).joined(separator: "\n"))
    XCTAssertEqual(loaded.count, 1_000)
    XCTAssertTrue(
      loaded.allSatisfy { entry in
        entry.children.count == 3 && entry.children.allSatisfy { $0.gradeID == entry.parent.id }
      })
  }

  func testDeleteActionsAreEnforcedBySQLite() throws {
    try seed()
    try db.save(RBadge(id: 1, teacherID: 2))
    // CASCADE: deleting a grade deletes its classes.
    XCTAssertEqual(try RGrade.filter(Column("id") == 1).deleteAll(db), 1)
    XCTAssertEqual(try RClass.all().fetchAll(db).map(\.name), ["2A"])
    // SET NULL: deleting a teacher leaves the class without one.
    try db.delete(RTeacher.self, id: 1)
    // RESTRICT: a teacher with a badge cannot go.
    XCTAssertThrowsError(try db.delete(RTeacher.self, id: 2)) { error in
      XCTAssertTrue((error as? SQLiteError)?.message.contains("FOREIGN KEY") == true, "\(error)")
    }
    XCTAssertEqual(try RTeacher.all().fetchCount(db), 1)
    try db.delete(RBadge.self, id: 1)
    try db.delete(RTeacher.self, id: 2)
    XCTAssertEqual(try db.find(RClass.self, id: 3)?.teacherID, nil)
  }

  func testAnUndeclaredForeignKeyIsATypedError() throws {
    try seed()
    let wrong = RTeacher.hasMany(RGrade.self)
    XCTAssertThrowsError(try RTeacher.all().fetchAll(db, including: wrong)) { error in
      guard case RelationError.noForeignKey(let child, let parent, nil) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(child, "rgrade")
      XCTAssertEqual(parent, "rteacher")
    }
  }

  /// More parents than one statement takes keys for (10,000): every parent gets its own
  /// children, in the association's order, across the chunks.
  func testEagerLoadingAcrossChunksKeepsEachParentsChildrenInOrder() throws {
    let parents = 10_050
    try db.createTable(for: RTeacher.self)  // the classes' foreign key names it
    try db.transaction { db in
      for grade in 1...parents {
        try db.insert(RGrade(id: Int64(grade), name: "g\(grade)"))
        // Inserted in the reverse of the order asked for; every third grade has none.
        if grade % 3 != 0 {
          for suffix in ["b", "a"] {
            try db.insert(
              RClass(id: nil, gradeID: Int64(grade), teacherID: nil, name: "\(grade)\(suffix)"))
          }
        }
      }
    }
    let grades = try RGrade.all().order(Column("id").desc).fetchAll(
      db, including: RGrade.classes.order(Column("name")))
    XCTAssertEqual(grades.count, parents)
    for (offset, entry) in grades.enumerated() {
      let grade = parents - offset
      XCTAssertEqual(entry.parent.id, Int64(grade))
      XCTAssertEqual(
        entry.children.map(\.name), grade % 3 == 0 ? [] : ["\(grade)a", "\(grade)b"])
    }
  }
}
