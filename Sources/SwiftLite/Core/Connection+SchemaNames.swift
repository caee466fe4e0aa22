internal import CSQLite

// The names of the databases a connection has open: main, temp and each attached one.
extension Connection {
  /// The schema names of the databases open on this connection, in SQLite's order: `main`,
  /// `temp`, then each attached database by the name it was attached as. Reads SQLite's
  /// connection state, without a statement (nothing shows in the trace). Empty once closed.
  var schemaNames: [String] {
    guard isOpen else { return [] }
    var names: [String] = []
    var index: Int32 = 0
    while let name = sqlite3_db_name(handle, index) {
      names.append(String(cString: name))
      index += 1
    }
    return names
  }
}
