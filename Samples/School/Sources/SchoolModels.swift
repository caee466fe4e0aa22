import SwiftLite

/// A grade holds classes; deleting it deletes its classes, and their students with them.
public struct Grade: Model, Sendable {
  public var id: Int64?
  public var name: String
  public static let primaryKey = ["id"]
  public static let classes = hasMany(SchoolClass.self)

  public init(id: Int64? = nil, name: String) {
    self.id = id
    self.name = name
  }
}

/// A class of a grade, with a teacher (a person; `nil` when the teacher leaves).
public struct SchoolClass: Model, Sendable {
  public var id: Int64?
  public var gradeID: Int64
  public var teacherID: Int64?
  public var name: String
  public static let primaryKey = ["id"]
  public static let foreignKeys = [
    ForeignKey(["gradeID"], references: Grade.tableName, onDelete: .cascade),
    ForeignKey(["teacherID"], references: Person.tableName, onDelete: .setNull),
  ]
  public static let grade = belongsTo(Grade.self)
  public static let teacher = belongsTo(Person.self)
  public static let students = hasMany(Person.self)

  public init(id: Int64? = nil, gradeID: Int64, teacherID: Int64?, name: String) {
    self.id = id
    self.gradeID = gradeID
    self.teacherID = teacherID
    self.name = name
  }
}

/// A teacher (no class of their own) or a student (in one class, deleted with it).
public struct Person: Model, Sendable {
  public var id: Int64?
  public var name: String
  public var classID: Int64?
  public static let primaryKey = ["id"]
  public static let foreignKeys = [
    ForeignKey(["classID"], references: SchoolClass.tableName, onDelete: .cascade)
  ]
  public static let indexes = [TableIndex(["name"], name: "person_on_name")]
  public static let schoolClass = belongsTo(SchoolClass.self)

  public init(id: Int64? = nil, name: String, classID: Int64? = nil) {
    self.id = id
    self.name = name
    self.classID = classID
  }
}

/// A topic of the curriculum: subjects hold units, units hold lessons (a tree by
/// `parentID`; deleting a topic deletes what it holds), searchable by title and notes.
public struct Topic: Model, Sendable {
  public var id: Int64?
  public var parentID: Int64?
  public var title: String
  public var notes: String
  public static let primaryKey = ["id"]
  public static let foreignKeys = [
    ForeignKey(["parentID"], references: "Topic", onDelete: .cascade)
  ]
  public static let fullTextIndexes = [FullTextIndex(Topic.self, columns: ["title", "notes"])]

  public init(id: Int64? = nil, parentID: Int64? = nil, title: String, notes: String = "") {
    self.id = id
    self.parentID = parentID
    self.title = title
    self.notes = notes
  }
}
