/// What SwiftLite may do to a model's table, declared by ``Model/schemaPolicy``.
///
/// Whatever the policy, SwiftLite never changes a table it did not create (a *mapped*
/// table, made by another program or by hand): the model reads and writes it as it is,
/// after checking that its columns fit. Only a table SwiftLite created, or one adopted with
/// `adopt(_:)`, is *managed* and may be migrated. And a read never changes the schema.
public enum SchemaPolicy: Sendable, Hashable {
  /// Create the table on the model's first write when it is missing, and migrate it when
  /// the model changes (only if SwiftLite manages it). The default.
  case automatic
  /// Create the table on the first write when it is missing; when a managed table differs
  /// from the model, throw ``MigrationError/needsMigration(table:changes:reason:)``
  /// instead of migrating it. For apps that migrate explicitly.
  case createOnly
  /// Never create or change the table: it must exist, and the model is mapped onto it as
  /// it is. A missing table throws ``ModelError/tableNotFound(table:)``.
  case mapped
}
