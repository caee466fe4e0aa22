import CSQLite
import Foundation
import SwiftLite

// A realistic table: 14 columns of INTEGER, TEXT and REAL, several nullable, dates kept as
// text, 15,889 rows (the size of a real orders table this was measured on), made by "another
// program" (the raw C API) and read into structs: by hand with `Row`, through a RowMapped
// model, and through a Codable model, against a careful C loop.

/// One order as a C programmer would hold it.
struct Order: Equatable {
  var id: Int64
  var customerID: Int64
  var status: String
  var total: Double
  var discount: Double?
  var createdAt: String
  var shippedAt: String?
  var note: String?
  var quantity: Int64
  var weight: Double?
  var sku: String
  var priority: Int64
  var email: String?
  var region: String

  /// A sum over every field, so that two sides agree only when they read the same values.
  var checksum: Int64 {
    func count(_ text: String?, _ none: Int64) -> Int64 {
      text.map { Int64($0.utf8.count) } ?? none
    }
    func cents(_ number: Double?, _ none: Int64) -> Int64 { number.map { Int64($0 * 100) } ?? none }
    return id &+ customerID &* 3 &+ count(status, 0) &+ cents(total, 0) &+ cents(discount, 7)
      &+ count(createdAt, 0) &+ count(shippedAt, 3) &+ count(note, 5) &+ quantity
      &+ cents(weight, 13) &+ count(sku, 0) &+ priority &+ count(email, 11) &+ count(region, 0)
  }
}

/// The orders through `Codable`.
struct CodableOrder: Model {
  var id: Int64
  var customerID: Int64
  var status: String
  var total: Double
  var discount: Double?
  var createdAt: String
  var shippedAt: String?
  var note: String?
  var quantity: Int64
  var weight: Double?
  var sku: String
  var priority: Int64
  var email: String?
  var region: String

  enum CodingKeys: String, CodingKey {
    case id
    case customerID = "customer_id"
    case status, total, discount
    case createdAt = "created_at"
    case shippedAt = "shipped_at"
    case note, quantity, weight, sku, priority, email, region
  }
  static let tableName = "orders"
  static let primaryKey = ["id"]
  static let schemaPolicy = SchemaPolicy.mapped

  var order: Order {
    Order(
      id: id, customerID: customerID, status: status, total: total, discount: discount,
      createdAt: createdAt, shippedAt: shippedAt, note: note, quantity: quantity, weight: weight,
      sku: sku, priority: priority, email: email, region: region)
  }
}

/// The orders through a mapping of their own.
struct MappedOrder: Model, RowMapped {
  var id: Int64
  var customerID: Int64
  var status: String
  var total: Double
  var discount: Double?
  var createdAt: String
  var shippedAt: String?
  var note: String?
  var quantity: Int64
  var weight: Double?
  var sku: String
  var priority: Int64
  var email: String?
  var region: String

  enum CodingKeys: String, CodingKey {
    case id
    case customerID = "customer_id"
    case status, total, discount
    case createdAt = "created_at"
    case shippedAt = "shipped_at"
    case note, quantity, weight, sku, priority, email, region
  }
  static let tableName = "orders"
  static let primaryKey = ["id"]
  static let schemaPolicy = SchemaPolicy.mapped
  static let mappedColumns = [
    "id", "customer_id", "status", "total", "discount", "created_at", "shipped_at", "note",
    "quantity", "weight", "sku", "priority", "email", "region",
  ]

  init(row: MappedRow) throws {
    id = try row.get(0)
    customerID = try row.get(1)
    status = try row.get(2)
    total = try row.get(3)
    discount = try row.get(4)
    createdAt = try row.get(5)
    shippedAt = try row.get(6)
    note = try row.get(7)
    quantity = try row.get(8)
    weight = try row.get(9)
    sku = try row.get(10)
    priority = try row.get(11)
    email = try row.get(12)
    region = try row.get(13)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(customerID, at: 1)
    try row.set(status, at: 2)
    try row.set(total, at: 3)
    try row.set(discount, at: 4)
    try row.set(createdAt, at: 5)
    try row.set(shippedAt, at: 6)
    try row.set(note, at: 7)
    try row.set(quantity, at: 8)
    try row.set(weight, at: 9)
    try row.set(sku, at: 10)
    try row.set(priority, at: 11)
    try row.set(email, at: 12)
    try row.set(region, at: 13)
  }

  var order: Order {
    Order(
      id: id, customerID: customerID, status: status, total: total, discount: discount,
      createdAt: createdAt, shippedAt: shippedAt, note: note, quantity: quantity, weight: weight,
      sku: sku, priority: priority, email: email, region: region)
  }
}

extension Workloads {
  static let mixed: [Workload] = [mixedManual, mixedMapped, mixedCodable]

  static let mixedRows = 15_889
  static let mixedSelectSQL =
    "SELECT id, customer_id, status, total, discount, created_at, shipped_at, note, quantity, "
    + "weight, sku, priority, email, region FROM orders"

  /// `forEachRow` + `row.get` per column into `[Order]`, written as a user would by hand.
  static let mixedManual = Workload(
    name: "mixed_manual",
    summary: "14 mixed columns (nullable TEXT, REAL), 15,889 rows, into structs by hand",
    target: 1.05,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.mixedDatabase(rows: mixedRows))
      let orders = try trial.time {
        var orders: [Order] = []
        try db.forEachRow(mixedSelectSQL) { row in
          orders.append(
            Order(
              id: try row.get(Int64.self, at: 0), customerID: try row.get(Int64.self, at: 1),
              status: try row.get(String.self, at: 2), total: try row.get(Double.self, at: 3),
              discount: try row.get(Double?.self, at: 4),
              createdAt: try row.get(String.self, at: 5),
              shippedAt: try row.get(String?.self, at: 6), note: try row.get(String?.self, at: 7),
              quantity: try row.get(Int64.self, at: 8), weight: try row.get(Double?.self, at: 9),
              sku: try row.get(String.self, at: 10), priority: try row.get(Int64.self, at: 11),
              email: try row.get(String?.self, at: 12), region: try row.get(String.self, at: 13)))
        }
        return orders
      }
      return orders.reduce(0) { $0 &+ $1.checksum }
    },
    raw: rawMixed)

  /// `db.findAll(MappedOrder.self)`.
  static let mixedMapped = Workload(
    name: "mixed_mapped",
    summary: "the same 14 mixed columns through a RowMapped model: db.findAll",
    target: 1.10,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.mixedDatabase(rows: mixedRows))
      _ = try db.count(MappedOrder.self)  // checks the mapping once, untimed
      let orders = try trial.time { try db.findAll(MappedOrder.self) }
      return orders.reduce(0) { $0 &+ $1.order.checksum }
    },
    raw: rawMixed)

  /// `db.findAll(CodableOrder.self)`.
  static let mixedCodable = Workload(
    name: "mixed_codable",
    summary: "the same 14 mixed columns through a Codable model: db.findAll",
    target: 2.0,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.mixedDatabase(rows: mixedRows))
      _ = try db.count(CodableOrder.self)
      let orders = try trial.time { try db.findAll(CodableOrder.self) }
      return orders.reduce(0) { $0 &+ $1.order.checksum }
    },
    raw: rawMixed)

  static func rawMixed(_ trial: Trial) -> Int64 {
    let db = RawDatabase(path: trial.fixtures.mixedDatabase(rows: mixedRows))
    let orders = trial.time {
      var orders: [Order] = []
      let select = db.prepare(mixedSelectSQL)
      var code = sqlite3_step(select)
      while code == SQLITE_ROW {
        orders.append(rawOrder(select))
        code = sqlite3_step(select)
      }
      db.expect(code, SQLITE_DONE)
      sqlite3_finalize(select)
      return orders
    }
    return orders.reduce(0) { $0 &+ $1.checksum }
  }

  /// One order read with the C API: text by length, NULL checked where the column allows it.
  static func rawOrder(_ s: OpaquePointer) -> Order {
    func text(_ column: Int32) -> String {
      let bytes = sqlite3_column_text(s, column)
      let count = Int(sqlite3_column_bytes(s, column))
      return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    func optionalText(_ column: Int32) -> String? {
      sqlite3_column_type(s, column) == SQLITE_NULL ? nil : text(column)
    }
    func optionalDouble(_ column: Int32) -> Double? {
      sqlite3_column_type(s, column) == SQLITE_NULL ? nil : sqlite3_column_double(s, column)
    }
    return Order(
      id: sqlite3_column_int64(s, 0), customerID: sqlite3_column_int64(s, 1), status: text(2),
      total: sqlite3_column_double(s, 3), discount: optionalDouble(4), createdAt: text(5),
      shippedAt: optionalText(6), note: optionalText(7), quantity: sqlite3_column_int64(s, 8),
      weight: optionalDouble(9), sku: text(10), priority: sqlite3_column_int64(s, 11),
      email: optionalText(12), region: text(13))
  }
}

extension Fixtures {
  static let createOrders = """
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, \
    status TEXT NOT NULL, total REAL NOT NULL, discount REAL, created_at TEXT NOT NULL, \
    shipped_at TEXT, note TEXT, quantity INTEGER NOT NULL, weight REAL, sku TEXT NOT NULL, \
    priority INTEGER NOT NULL, email TEXT, region TEXT NOT NULL)
    """

  /// Fills `orders` with `rows` deterministic rows through the C API.
  static func fillOrders(_ db: RawDatabase, rows: Int) {
    db.execute(createOrders)
    db.execute("BEGIN")
    let insert = db.prepare("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
    let statuses = ["pending", "shipped", "delivered", "cancelled", "returned"]
    let regions = ["north", "south", "east", "west", "central", "overseas"]
    func bind(_ column: Int32, _ text: String?) {
      guard let text else { return db.check(sqlite3_bind_null(insert, column)) }
      db.check(sqlite3_bind_text(insert, column, text, -1, sqliteTransientForBenchmarks))
    }
    func bind(_ column: Int32, _ number: Double?) {
      guard let number else { return db.check(sqlite3_bind_null(insert, column)) }
      db.check(sqlite3_bind_double(insert, column, number))
    }
    for row in 0..<rows {
      let n = Int64(row + 1)
      let day = String(
        format: "2023-%02d-%02d %02d:%02d:%02d", row % 12 + 1, row % 28 + 1,
        row % 24, row % 60, (row * 7) % 60)
      db.check(sqlite3_bind_int64(insert, 1, n))
      db.check(sqlite3_bind_int64(insert, 2, n % 997 + 1))
      bind(3, statuses[row % statuses.count])
      bind(4, Double(row % 10_000) / 4 + 0.25)
      bind(5, row % 3 == 0 ? nil : Double(row % 50) / 2)
      bind(6, day)
      bind(7, row % 4 == 0 ? nil : day)
      bind(8, row % 3 == 1 ? "leave at the door, ring twice (order \(row))" : nil)
      db.check(sqlite3_bind_int64(insert, 9, n % 17 + 1))
      bind(10, row % 5 == 0 ? nil : Double(row % 300) / 8)
      bind(11, String(format: "SKU-%06d", row % 100_000))
      db.check(sqlite3_bind_int64(insert, 12, n % 5))
      bind(13, row % 4 == 2 ? nil : "customer\(row % 997)@example.com")
      bind(14, regions[row % regions.count])
      db.expect(sqlite3_step(insert), SQLITE_DONE)
      sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    db.execute("COMMIT")
  }
}

/// `SQLITE_TRANSIENT` for the raw side: SQLite copies the bytes before the bind returns.
let sqliteTransientForBenchmarks = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
