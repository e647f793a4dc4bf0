extension OnDelete {
    /// The action as SQL writes it after `ON DELETE`: `CASCADE`, `SET NULL`, `RESTRICT`, `NO ACTION`.
    public var sqlAction: String {
        switch self {
        case .cascade: return "CASCADE"
        case .setNull: return "SET NULL"
        case .restrict: return "RESTRICT"
        case .noAction: return "NO ACTION"
        }
    }
}
