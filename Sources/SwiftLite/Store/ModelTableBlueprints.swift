/// The blueprints of the model tables a connection checked (``ModelTable/Blueprint``: the
/// mapping, positions and SQL texts, no prepared statement), kept for more tables than the
/// connection keeps prepared, each with the description of the table it was made from.
///
/// A first use of a table past the connection's cache of model tables still describes the
/// table (one statement, see ``SchemaCatalogue``: nothing kept is taken on trust); when that
/// description is the very reading the blueprint was made from (same
/// ``TableDescription/reading``, so the table's row and the schema are as they were) and
/// SwiftLite's record, read afresh by the same statement, is byte for byte the one then,
/// the table is made from the blueprint instead of being planned and worked out again.
/// Any change to the schema, by any connection, a rollback or a VACUUM, gives the next
/// description a new number; a record written by anyone shows in the record.
///
/// A table whose blueprint was found to hold under the catalogue's checkpoint is not even
/// described: one statement that reads no table confirms that nothing a description
/// depends on can have changed since (see `SchemaCatalogue+Checkpoint.swift`), and the
/// table is made from the blueprint.
///
/// Kept only for tables whose first use changed nothing and decided from the description
/// alone: a managed table that needed no migration and has no full-text index (whose
/// tables the plan reads too), or another program's table.
final class ModelTableBlueprints {
  /// The most blueprints kept: past that, they are all forgotten and worked out again.
  static let capacity = 16_384

  /// The catalogue whose readings the blueprints' descriptions are numbered by; held so
  /// that another catalogue of the connection (made after this one was let go) is seen.
  private var catalogue: SchemaCatalogue?
  private var blueprints:
    [AttachmentKey: (
      reading: UInt64, record: AutoMigration.RecordRow?, generation: UInt64,
      blueprint: ModelTable.Blueprint
    )] = [:]

  private init() {}

  /// The blueprints of `db`, made on first use.
  static func of(_ db: Connection) -> ModelTableBlueprints {
    let slot = db.attachments(of: ModelTableBlueprints.self)
    if let blueprints = slot.value(for: slotKey) { return blueprints }
    let blueprints = ModelTableBlueprints()
    slot.set(blueprints, for: slotKey)
    return blueprints
  }

  private static let slotKey = AttachmentKey(
    type: ObjectIdentifier(ModelTableBlueprints.self), name: "")

  /// The blueprint kept under `key`, without describing the table, when it was last found
  /// to hold under the catalogue's checkpoint and the catalogue's check (one statement
  /// that reads no table) finds that nothing it depends on can have changed since (see
  /// ``SchemaCatalogue/confirms(_:in:)``); `nil` otherwise, and the table is described.
  func confirmedBlueprint(for key: AttachmentKey, in db: Connection) -> ModelTable.Blueprint? {
    guard let kept = blueprints[key], kept.generation != 0, let catalogue,
      catalogue === SchemaCatalogue.of(db), catalogue.confirms(kept.generation, in: db)
    else { return nil }
    return kept.blueprint
  }

  /// The blueprint kept under `key`, when `stored` (the table's description, just read on
  /// `db`) is the reading it was made from, with the same record. It then holds under the
  /// checkpoint `stored` was read under, if any.
  func blueprint(for key: AttachmentKey, describedBy stored: TableDescription, in db: Connection)
    -> ModelTable.Blueprint?
  {
    guard stored.reading != 0, let kept = blueprints[key] else { return nil }
    guard catalogue === SchemaCatalogue.of(db) else {
      blueprints = [:]
      catalogue = nil
      return nil
    }
    guard kept.reading == stored.reading, Self.sameRecord(kept.record, stored.recordRow) else {
      blueprints[key] = nil
      return nil
    }
    blueprints[key]?.generation = stored.checkpointGeneration
    return kept.blueprint
  }

  /// Keeps `blueprint` under `key`, made from `stored`.
  func keep(
    _ blueprint: ModelTable.Blueprint, for key: AttachmentKey, describedBy stored: TableDescription,
    in db: Connection
  ) {
    guard stored.reading != 0 else { return }
    let current = SchemaCatalogue.of(db)
    if catalogue !== current || blueprints.count >= Self.capacity {
      blueprints = [:]
      catalogue = current
    }
    blueprints[key] = (stored.reading, stored.recordRow, stored.checkpointGeneration, blueprint)
  }

  /// Forgets the blueprint under `key`.
  func forget(_ key: AttachmentKey) { blueprints[key] = nil }

  /// Whether two records are the same, their texts byte for byte.
  private static func sameRecord(_ a: AutoMigration.RecordRow?, _ b: AutoMigration.RecordRow?)
    -> Bool
  {
    func same(_ x: String?, _ y: String?) -> Bool {
      switch (x, y) {
      case (nil, nil): return true
      case (let x?, let y?): return x.hasSameBytes(as: y)
      default: return false
      }
    }
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?):
      return same(a.tableName, b.tableName) && same(a.definition, b.definition)
        && same(a.swiftTypes, b.swiftTypes) && same(a.origin, b.origin)
        && same(a.tableSQL, b.tableSQL)
    default: return false
    }
  }
}
