import SwiftLite

// The models the migration tests move between. Each group is the versions of one table: V1
// is the table as first written, every later version says what it changes from V1 (or from
// the version it is migrated from, when a test runs them in order).

// MARK: Item

/// The `Item` table as first written: an optional integer key, two required columns and an
/// optional note.
struct ItemV1: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]

  /// The three rows ``TemporaryDirectoryTestCase/seedItems(_:)`` writes by default.
  static let samples = [
    ItemV1(id: 1, name: "apple", price: 1.5, note: nil),
    ItemV1(id: 2, name: "pear", price: 2.25, note: nil),
    ItemV1(id: 3, name: "plum", price: 0.5, note: nil),
  ]
}

/// V1 plus two nullable columns, `color` and `tags` (an array stored as JSON text).
struct ItemV2: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var color: String?
  var tags: [String]?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// V1 plus two NOT NULL columns with defaults: `stock` (5) and `label` ("it's new").
struct ItemV3: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var stock: Int
  var label: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "stock": [.default(5)], "label": [.default("it's new")],
  ]
}

/// V1 plus a NOT NULL column `stock` without a default.
struct ItemV4: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var stock: Int
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// V1 without the `note` column.
struct ItemV5: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// V1 without the `price` column, whose values are not declared droppable.
struct ItemV6: Model, Equatable {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// V1 without the `price` column, declared droppable: its values may be lost.
struct ItemV7: Model, Equatable {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["price"]
}

/// V1 with `name` renamed to `title`.
struct ItemV8: Model, Equatable {
  var id: Int64?
  var title: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
}

/// V1 with `name` renamed to `title` and `price` to `cost`, a NOT NULL `stock` defaulting to
/// 1, a nullable `tags` and an index on `title`.
struct ItemV9: Model, Equatable {
  var id: Int64?
  var title: String
  var cost: Double
  var note: String?
  var stock: Int
  var tags: [String]?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name", "cost": "price"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["stock": [.default(1)]]
  static let indexes = [TableIndex(["title"])]
}

/// V1 with a UNIQUE constraint on `name` (a rebuild).
struct ItemV10: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

/// V1 with a unique index on `name` (made in place by CREATE UNIQUE INDEX).
struct ItemV11: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"], unique: true)]
}

/// V1 with `note` required (NOT NULL, no default).
struct ItemV12: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// V1 with `CHECK (price > 0)`.
struct ItemV13: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["price": [.check("price > 0")]]
}

/// V1 with `name` compared without case (`COLLATE NOCASE`).
struct ItemV14: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.collate("NOCASE")]]
}

/// V1 with an index named `item lookup` on `name`.
struct ItemV15: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"], name: "item lookup")]
}

/// V15 with `item lookup` made unique on (`name`, `price`), and an index on `price` added.
struct ItemV16: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [
    TableIndex(["name", "price"], unique: true, name: "item lookup"), TableIndex(["price"]),
  ]
}

/// V1 keyed by `name` instead of `id`, which becomes a required column.
struct ItemV17: Model, Equatable {
  var id: Int64
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["name"]
}

/// V17 keyed by (`name`, `price`).
struct ItemV18: Model, Equatable {
  var id: Int64
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["name", "price"]
}

extension TemporaryDirectoryTestCase {
  /// Writes the `Item` table (``ItemV1``) with `rows` to `test.sqlite`, through a connection
  /// that is then closed.
  func seedItems(_ rows: [ItemV1] = ItemV1.samples) throws {
    let db = try open()
    try db.save(rows)
    try db.close()
  }
}

// MARK: Code

/// The `Code` table as first written: a TEXT `code`.
struct CodeV1: Model, Equatable {
  var id: Int64?
  var code: String
  static let tableName = "Code"
  static let primaryKey = ["id"]
}

/// V1 with `code` an INTEGER.
struct CodeV2: Model, Equatable {
  var id: Int64?
  var code: Int
  static let tableName = "Code"
  static let primaryKey = ["id"]
}

/// V1 with `code` an optional INTEGER, declared lossy: values that do not convert become NULL.
struct CodeV3: Model, Equatable {
  var id: Int64?
  var code: Int?
  static let tableName = "Code"
  static let primaryKey = ["id"]
  static let lossyConvertibleColumns: Set<String> = ["code"]
}

// MARK: Measure

/// The `Measure` table as first written: an INTEGER `count` and a REAL `ratio`.
struct MeasureV1: Model, Equatable {
  var id: Int64?
  var count: Int
  var ratio: Double
  static let tableName = "Measure"
  static let primaryKey = ["id"]
}

/// V1 with `count` a REAL.
struct MeasureV2: Model, Equatable {
  var id: Int64?
  var count: Double
  var ratio: Double
  static let tableName = "Measure"
  static let primaryKey = ["id"]
}

/// V1 with `ratio` a TEXT.
struct MeasureV3: Model, Equatable {
  var id: Int64?
  var count: Int
  var ratio: String
  static let tableName = "Measure"
  static let primaryKey = ["id"]
}

// MARK: Reading (STRICT)

/// The STRICT `Reading` table as first written: a REAL `value`.
struct ReadingV1: Model, Equatable {
  var id: Int64
  var value: Double
  static let tableName = "Reading"
  static let primaryKey = ["id"]
  static let isStrict = true
}

/// V1 with `value` an optional INTEGER.
struct ReadingV2: Model, Equatable {
  var id: Int64
  var value: Int?
  static let tableName = "Reading"
  static let primaryKey = ["id"]
  static let isStrict = true
}

/// V2 declared lossy: values that do not convert become NULL.
struct ReadingV3: Model, Equatable {
  var id: Int64
  var value: Int?
  static let tableName = "Reading"
  static let primaryKey = ["id"]
  static let isStrict = true
  static let lossyConvertibleColumns: Set<String> = ["value"]
}

// MARK: Author and Book (a parent and its children)

/// The `Author` table as first written, the parent of ``BookV1``.
struct AuthorV1: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "Author"
  static let primaryKey = ["id"]
}

/// V1 with `name` renamed to `fullName` and a nullable `born` added.
struct AuthorV2: Model, Equatable {
  var id: Int64?
  var fullName: String
  var born: Int?
  static let tableName = "Author"
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
}

/// V2 with `fullName` UNIQUE.
struct AuthorV3: Model, Equatable {
  var id: Int64?
  var fullName: String
  var born: Int?
  static let tableName = "Author"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["fullName": [.unique]]
}

/// V1 keyed by `name`: children referencing the old key point at nothing.
struct AuthorV4: Model, Equatable {
  var id: Int64
  var name: String
  static let tableName = "Author"
  static let primaryKey = ["name"]
}

/// The `Book` table as first written: each book references an author, deleted with it.
struct BookV1: Model, Equatable {
  var id: Int64?
  var authorID: Int64
  var title: String
  static let tableName = "Book"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["authorID"], references: "Author", onDelete: .cascade)]
  static let indexes = [TableIndex(["authorID"])]
}

/// V1 with `title` UNIQUE (a rebuild of the child).
struct BookV2: Model, Equatable {
  var id: Int64?
  var authorID: Int64
  var title: String
  static let tableName = "Book"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["authorID"], references: "Author", onDelete: .cascade)]
  static let indexes = [TableIndex(["authorID"])]
  static let columnConstraints: [String: [ColumnConstraint]] = ["title": [.unique]]
}

// MARK: Vendor and Supply (a child referencing a parent's non-key column)

/// The `Vendor` table as first written: a UNIQUE `code` that ``SupplyV1`` references.
struct VendorV1: Model, Equatable {
  var id: Int64
  var code: String
  static let tableName = "Vendor"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["code": [.unique]]
}

/// V1 with `code` renamed to `sku` (still UNIQUE) and a nullable `country` added.
struct VendorV2: Model, Equatable {
  var id: Int64
  var sku: String
  var country: String?
  static let tableName = "Vendor"
  static let primaryKey = ["id"]
  static let renamedProperties = ["sku": "code"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["sku": [.unique]]
}

/// The `Supply` table as first written: `vendorCode` references `Vendor.code`, cascading.
struct SupplyV1: Model, Equatable {
  var id: Int64
  var vendorCode: String
  static let tableName = "Supply"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["vendorCode"], references: "Vendor", ["code"], onDelete: .cascade)
  ]
}

/// V1 referencing `Vendor.sku`, the name ``VendorV2`` gives the column.
struct SupplyV2: Model, Equatable {
  var id: Int64
  var vendorCode: String
  static let tableName = "Supply"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["vendorCode"], references: "Vendor", ["sku"], onDelete: .cascade)
  ]
}

// MARK: Category (a table that references itself)

/// The `Category` table as first written: a tree where each category may have a parent
/// category, deleted with it.
struct CategoryV1: Model, Equatable {
  var id: Int64?
  var parentID: Int64?
  var name: String
  static let tableName = "Category"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["parentID"], references: "Category", onDelete: .cascade)]
}

/// V1 with `name` renamed to `title`.
struct CategoryV2: Model, Equatable {
  var id: Int64?
  var parentID: Int64?
  var title: String
  static let tableName = "Category"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
  static let foreignKeys = [ForeignKey(["parentID"], references: "Category", onDelete: .cascade)]
}

// MARK: Tag (a key that is not an integer: rowids of their own)

/// The `Tag` table as first written: keyed by a TEXT `code`.
struct TagV1: Model, Equatable {
  var code: String
  var label: String
  static let tableName = "Tag"
  static let primaryKey = ["code"]
}

/// V1 with `label` renamed to `title`.
struct TagV2: Model, Equatable {
  var code: String
  var title: String
  static let tableName = "Tag"
  static let primaryKey = ["code"]
  static let renamedProperties = ["title": "label"]
}

/// V2 with `title` renamed to `name` and a column named `rowid` added, hiding that name.
struct TagV3: Model, Equatable {
  var code: String
  var rowid: Int?
  var name: String
  static let tableName = "Tag"
  static let primaryKey = ["code"]
  static let renamedProperties = ["name": "title"]
}

// MARK: Ticket (AUTOINCREMENT)

/// The `Ticket` table as first written, with AUTOINCREMENT keys.
struct TicketV1: Model, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "Ticket"
  static let primaryKey = ["id"]
  static let autoIncrement = true
}

/// V1 with `title` renamed to `subject`.
struct TicketV2: Model, Equatable {
  var id: Int64?
  var subject: String
  static let tableName = "Ticket"
  static let primaryKey = ["id"]
  static let autoIncrement = true
  static let renamedProperties = ["subject": "title"]
}

// MARK: Memo

/// The `Memo` table as first written: an optional `text`.
struct MemoV1: Model, Equatable {
  var id: Int64
  var text: String?
  static let tableName = "Memo"
  static let primaryKey = ["id"]
}

/// V1 with `text` required, defaulting to the empty string.
struct MemoV2: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "Memo"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["text": [.default("")]]
}

/// V1 with `text` required, without a default.
struct MemoV3: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "Memo"
  static let primaryKey = ["id"]
}

// MARK: Gauge

/// The `Gauge` table as first written: a key and nothing else.
struct GaugeV1: Model, Equatable {
  var id: Int64
  static let tableName = "Gauge"
  static let primaryKey = ["id"]
}

/// V1 plus a NOT NULL `level` whose default is NULL.
struct GaugeV2: Model, Equatable {
  var id: Int64
  var level: Int
  static let tableName = "Gauge"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["level": [.default(nil)]]
}

// MARK: Journal

/// The `Journal` table as first written: an optional `note`.
struct JournalV1: Model, Equatable {
  var id: Int64
  var note: String?
  static let tableName = "Journal"
  static let primaryKey = ["id"]
}

/// V1 without `note`.
struct JournalV2: Model, Equatable {
  var id: Int64
  static let tableName = "Journal"
  static let primaryKey = ["id"]
}

// MARK: Entry

/// The `Entry` table as first written.
struct EntryV1: Model, Equatable {
  var id: Int64
  var name: String
  static let tableName = "Entry"
  static let primaryKey = ["id"]
}

/// V1 with `name` renamed to `title`.
struct EntryV2: Model, Equatable {
  var id: Int64
  var title: String
  static let tableName = "Entry"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
}

// MARK: Account

/// The `Account` table as first written.
struct AccountV1: Model, Equatable {
  var id: Int64
  var userID: String
  var nickName: String?
  static let tableName = "Account"
  static let primaryKey = ["id"]
}

/// V1 with two properties renamed only in case: `userID` to `userId`, `nickName` to
/// `nickname`.
struct AccountV2: Model, Equatable {
  var id: Int64
  var userId: String
  var nickname: String?
  static let tableName = "Account"
  static let primaryKey = ["id"]
}

// MARK: Ordered

/// The `Ordered` table as first written: `a` before `b`.
struct OrderedV1: Model, Equatable {
  var id: Int64
  var a: String
  var b: Int
  static let tableName = "Ordered"
  static let primaryKey = ["id"]
}

/// V1 with its properties in another order: `b` before `a`.
struct OrderedV2: Model, Equatable {
  var id: Int64
  var b: Int
  var a: String
  static let tableName = "Ordered"
  static let primaryKey = ["id"]
}

// MARK: User (a table an older app made by SQL)

/// The `User` table: a key and a required `name`.
struct UserV1: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "User"
  static let primaryKey = ["id"]
}

/// V1 with `name` UNIQUE and a nullable `age` added.
struct UserV2: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int?
  static let tableName = "User"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

// MARK: Task (Swift type changes SQLite does not see)

/// The states a task may be in.
enum TaskState: String, Codable, CaseIterable, SQLiteValueConvertible {
  case open, done, archived
}

/// ``TaskState`` without `archived`.
enum TaskStateWithoutArchived: String, Codable, CaseIterable, SQLiteValueConvertible {
  case open, done
}

/// The `Task` table as first written: `tags` a String, `flag` an Int, `state` a
/// ``TaskState``.
struct TaskV1: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Int
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

/// V1 with `tags` a `[String]` (JSON text in the same TEXT column).
struct TaskV2: Model, Equatable {
  var id: Int64
  var tags: [String]
  var flag: Int
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

/// V1 with `flag` a Bool (in the same INTEGER column).
struct TaskV3: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Bool
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

/// V1 with `state` a ``TaskStateWithoutArchived`` (in the same TEXT column).
struct TaskV4: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Int
  var state: TaskStateWithoutArchived
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

// MARK: People (five versions migrated in order)

/// The `People` table as first written.
struct PeopleV1: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int
  var height: Double
  var email: String?
  static let tableName = "People"
  static let primaryKey = ["id"]
}

/// V1 plus a nullable `nickname` and an index on `name`: altered in place.
struct PeopleV2: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int
  var height: Double
  var email: String?
  var nickname: String?
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"])]
}

/// V2 with `name` renamed to `fullName` (its index follows) and a `score` defaulting to 0.
struct PeopleV3: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: Int
  var height: Double
  var email: String?
  var nickname: String?
  var score: Int
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["score": [.default(0)]]
  static let indexes = [TableIndex(["fullName"])]
}

/// V3 with `email` dropped (with its data) and `height` renamed to `heightCM`, an INTEGER.
struct PeopleV4: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: Int
  var heightCM: Int
  var nickname: String?
  var score: Int
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let renamedProperties = ["heightCM": "height"]
  static let droppableColumns: Set<String> = ["email"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["score": [.default(0)]]
  static let indexes = [TableIndex(["fullName"])]
}

/// V4 with `age` a TEXT, `fullName` UNIQUE, `CHECK (score >= 0)`, an `active` Bool defaulting
/// to true and an index on (`score`, `age`) in place of the one on `fullName`.
struct PeopleV5: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: String
  var heightCM: Int
  var nickname: String?
  var score: Int
  var active: Bool
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "score": [.default(0), .check("score >= 0")], "fullName": [.unique],
    "active": [.default(true)],
  ]
  static let indexes = [TableIndex(["score", "age"])]
}

// MARK: Big (the table a killed process migrates)

/// The `Big` table as first written, filled with many rows.
struct BigV1: Model {
  var id: Int64?
  var name: String
  var value: Int
  var note: String?
  static let tableName = "Big"
  static let primaryKey = ["id"]
}

/// V1 with `name` renamed to `title`, `note` removed, a NOT NULL `extra` defaulting to 1 and
/// an index on `value`.
struct BigV2: Model {
  var id: Int64?
  var title: String
  var value: Int
  var extra: Int
  static let tableName = "Big"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["extra": [.default(1)]]
  static let indexes = [TableIndex(["value"])]
}
