/// The format of each position's `Date` for a ``RowMapped`` model whose table stores some
/// dates in a format of their own (by position of its ``RowMapped/mappedColumns``; `nil`
/// where the position is no date column).
///
/// A class, kept by the model table, so that a ``MappedRowWriter`` holds it as plain bits:
/// making and dropping a writer then retains nothing. Not `Sendable`.
@usableFromInline final class PositionDateForms {
  @usableFromInline let forms: ContiguousArray<ColumnDateForm?>

  init(_ forms: ContiguousArray<ColumnDateForm?>) {
    self.forms = forms
  }
}
