// The per-connection state the layers above Core keep on a connection: one typed cache per
// value type, and one quick entry beside them for the loop over one model.
extension Connection {
  /// The cache where a layer above Core keeps its per-connection values of one type, made
  /// on first use. The values read back are of the type stored: the one cast is here.
  func attachments<Value: AnyObject>(of type: Value.Type) -> AttachmentCache<Value> {
    let id = ObjectIdentifier(type)
    for entry in attachmentStores where entry.type == id {
      return unsafeDowncast(entry.store, to: AttachmentCache<Value>.self)
    }
    let cache = AttachmentCache<Value>(capacity: Self.attachmentCapacity)
    attachmentStores.append((id, cache))
    return cache
  }

  /// The value kept by ``setQuickAttachment(_:for:)`` for `owner`, if it is of `type`.
  func quickAttachment<Value: AnyObject>(of type: Value.Type, for owner: ObjectIdentifier)
    -> Value?
  {
    guard let quick = quickAttachment, quick.owner == owner,
      quick.valueType == ObjectIdentifier(type)
    else { return nil }
    return unsafeDowncast(quick.value, to: Value.self)
  }

  /// Keeps `value` as the quick attachment of `owner` (replacing any other), or forgets
  /// the quick attachment when `value` is `nil`.
  func setQuickAttachment<Value: AnyObject>(_ value: Value?, for owner: ObjectIdentifier) {
    quickAttachment = value.map { (ObjectIdentifier(Value.self), owner, $0) }
  }

  /// Forgets what every layer above Core kept on this connection (the schema changed, or
  /// the connection closes).
  func removeAllAttachments() {
    quickAttachment = nil
    for entry in attachmentStores { entry.store.removeAll() }
  }
}
