// A table's full-text indexes as a snapshot file holds them (format 2 and later).
extension SchemaSnapshot {
  /// One full-text index of a recorded table: an FTS5 table over some of its columns.
  ///
  /// `Sendable`, `Hashable` and `Codable`: a value.
  public struct TextIndex: Sendable, Hashable, Codable {
    /// The FTS5 table's name.
    public internal(set) var name: String
    /// The indexed columns, in the index's order.
    public internal(set) var columns: [String]
    /// The column that identifies a row for the index: `rowid` or the INTEGER PRIMARY KEY.
    public internal(set) var contentRowID: String
    /// The FTS5 `tokenize` option's text.
    public internal(set) var tokenizer: String
    /// The prefix lengths indexed (the FTS5 `prefix` option); empty for none.
    public internal(set) var prefixes: [Int]

    init(_ index: FullTextIndex) {
      name = index.name
      columns = index.columns
      contentRowID = index.contentRowID
      tokenizer = index.tokenizer.text
      prefixes = index.prefixes
    }

    /// The index over `table`.
    func index(of table: String) -> FullTextIndex {
      FullTextIndex(
        table: table, columns: columns, name: name, contentRowID: contentRowID,
        tokenizer: FullTextTokenizer(tokenizer), prefixes: prefixes)
    }

    private enum CodingKeys: String, CodingKey {
      case name, columns, contentRowID, tokenizer, prefixes
    }

    /// Reads an index; prefixes left out are none.
    /// - Throws: `DecodingError` when a required field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      columns = try container.decode([String].self, forKey: .columns)
      contentRowID = try container.decode(String.self, forKey: .contentRowID)
      tokenizer = try container.decode(String.self, forKey: .tokenizer)
      prefixes = try container.decodeIfPresent([Int].self, forKey: .prefixes) ?? []
    }

    /// Writes an index, leaving out empty prefixes.
    /// - Throws: `EncodingError` (not expected).
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(columns, forKey: .columns)
      try container.encode(contentRowID, forKey: .contentRowID)
      try container.encode(tokenizer, forKey: .tokenizer)
      if !prefixes.isEmpty { try container.encode(prefixes, forKey: .prefixes) }
    }
  }
}
