/// How far an online backup has got, reported after each step.
public struct BackupProgress: Sendable, Hashable {
  /// Pages copied so far.
  public let completedPages: Int
  /// Pages in the source database (it may change while others write).
  public let totalPages: Int

  /// Creates a progress report.
  public init(completedPages: Int, totalPages: Int) {
    self.completedPages = completedPages
    self.totalPages = totalPages
  }

  /// The share done, from 0 to 1 (1 for an empty database).
  public var fraction: Double {
    totalPages == 0 ? 1 : Double(completedPages) / Double(totalPages)
  }
}
