/// A column's type affinity: how SQLite converts the values stored into it, decided from
/// the declared type's text by SQLite's rules
/// (<https://sqlite.org/datatype3.html#determination_of_column_affinity>):
///
/// 1. a declared type containing `INT` has INTEGER affinity;
/// 2. else one containing `CHAR`, `CLOB` or `TEXT` has TEXT affinity;
/// 3. else one containing `BLOB`, or no declared type, has BLOB affinity (no conversion);
/// 4. else one containing `REAL`, `FLOA` or `DOUB` has REAL affinity;
/// 5. anything else has NUMERIC affinity.
///
/// So `NVARCHAR(120)` is TEXT, `NUMERIC(10,2)`, `DECIMAL`, `DATETIME` and `BOOLEAN` are
/// NUMERIC, and `FLOATING POINT` is INTEGER (it contains `INT`). In a `STRICT` table the
/// type must be `INT`, `INTEGER`, `REAL`, `TEXT`, `BLOB` or `ANY`, and `ANY` converts nothing.
public enum ColumnAffinity: String, Sendable, Hashable, CaseIterable {
  /// Text that looks like a number is stored as INTEGER (or REAL when it has a fraction).
  case integer = "INTEGER"
  /// Numbers are stored as text.
  case text = "TEXT"
  /// Values are stored as given (SQLite's "BLOB" or "none" affinity).
  case blob = "BLOB"
  /// Integers and numeric text are stored as REAL.
  case real = "REAL"
  /// Numeric text is stored as INTEGER or REAL, whichever keeps it exactly.
  case numeric = "NUMERIC"

  /// The affinity SQLite gives a column declared with this type.
  /// - Parameters:
  ///   - declaredType: the type as written in `CREATE TABLE` (any case), possibly empty.
  ///   - strict: whether the table is `STRICT`, where `ANY` stores values as given.
  public init(declaredType: String, strict: Bool = false) {
    let type = declaredType.uppercased()
    if strict && type == "ANY" {
      self = .blob
    } else if type.contains("INT") {
      self = .integer
    } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
      self = .text
    } else if type.contains("BLOB") || type.allSatisfy({ $0 == " " }) {
      self = .blob
    } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
      self = .real
    } else {
      self = .numeric
    }
  }
}
