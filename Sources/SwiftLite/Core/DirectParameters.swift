/// The parameters of a statement that a model's writer binds straight through the
/// statement's handle, with the marks of the positions it wrote (see ``ParameterMarks``).
///
/// It lives only inside one write, while the statement and the marks are kept alive by the
/// model table that makes it: it holds them without retaining them, so that making it,
/// passing it and dropping it costs no reference counting. Not `Sendable`.
@usableFromInline struct DirectParameters {
  @usableFromInline unowned(unsafe) let statement: Statement
  /// The statement's handle: integers, doubles and strings are bound through it without
  /// building an ``SQLiteValue`` or touching the statement.
  @usableFromInline let handle: OpaquePointer
  @usableFromInline let marks: UnsafeMutablePointer<UInt32>
  @usableFromInline let generation: UInt32

  /// The parameters of `statement`, for the write `marks` has just started
  /// (``ParameterMarks/next()``).
  init(_ statement: Statement, marks: ParameterMarks) {
    self.statement = statement
    self.handle = statement.handle
    self.marks = marks.marks
    self.generation = marks.generation
  }

  /// Marks `position` as written by this write, counting it the first time (the count
  /// sits after the `positions` marks).
  @inlinable @inline(__always) func mark(_ position: Int, positions: Int) {
    if marks[position] != generation {
      marks[position] = generation
      marks[positions] &+= 1
    }
  }

  /// Binds an integer to parameter `index`.
  /// - Throws: `SQLiteError` when SQLite refuses the bind.
  @inlinable @inline(__always) func bind(_ number: Int64, at index: Int32) throws(SQLiteError) {
    try mappedBind(number, to: handle, at: index)
  }

  /// Binds a double that is not NaN to parameter `index`.
  /// - Throws: `SQLiteError` when SQLite refuses the bind.
  @inlinable @inline(__always) func bind(_ number: Double, at index: Int32) throws(SQLiteError) {
    try mappedBind(number, to: handle, at: index)
  }

  /// Binds text, byte for byte, to parameter `index`.
  /// - Throws: `SQLiteError` when SQLite refuses the bind.
  @inlinable @inline(__always) func bind(_ text: String, at index: Int32) throws(SQLiteError) {
    try mappedBind(text, to: handle, at: index)
  }
}
