// The repository's writes that return the row as stored (`RETURNING`): one statement each,
// in one write of the queue or pool.
extension Repository {
  /// Inserts a new row and returns it as stored (the assigned key, the DEFAULTs).
  /// - Throws: as ``Connection/insertAndFetch(_:target:)``.
  public func createAndFetch(_ model: M) throws -> M {
    try database.write { db in try db.insertAndFetch(model, target: target) }
  }

  /// Inserts or updates the row (an UPSERT) and returns it as stored.
  /// - Throws: as ``Connection/saveAndFetch(_:target:)``.
  public func saveAndFetch(_ model: M) throws -> M {
    try database.write { db in try db.saveAndFetch(model, target: target) }
  }

  /// Updates the row with the model's key and returns it as stored.
  /// - Throws: as ``Connection/updateAndFetch(_:target:)``.
  public func modifyAndFetch(_ model: M) throws -> M {
    try database.write { db in try db.updateAndFetch(model, target: target) }
  }

  /// Deletes the row with the model's key and returns it as it was.
  /// - Throws: as ``Connection/deleteAndFetch(_:target:)``.
  public func removeAndFetch(_ model: M) throws -> M {
    try database.write { db in try db.deleteAndFetch(model, target: target) }
  }
}

extension Repository where M: Sendable {
  /// Like ``createAndFetch(_:)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func createAndFetch(_ model: M) async throws -> M {
    let target = self.target
    return try await database.write { db in try db.insertAndFetch(model, target: target) }
  }

  /// Like ``saveAndFetch(_:)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func saveAndFetch(_ model: M) async throws -> M {
    let target = self.target
    return try await database.write { db in try db.saveAndFetch(model, target: target) }
  }

  /// Like ``modifyAndFetch(_:)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func modifyAndFetch(_ model: M) async throws -> M {
    let target = self.target
    return try await database.write { db in try db.updateAndFetch(model, target: target) }
  }

  /// Like ``removeAndFetch(_:)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func removeAndFetch(_ model: M) async throws -> M {
    let target = self.target
    return try await database.write { db in try db.deleteAndFetch(model, target: target) }
  }
}
