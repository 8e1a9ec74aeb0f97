/// Where an observed buffer change came from.
///
/// The composer accepts every edit (accept all input: refusing edits breaks input methods)
/// and decides afterwards; knowing the origin lets later settle steps treat, say, an
/// input-method commit differently from a paste without intercepting either.
public enum EditOrigin: String, Sendable, CaseIterable {
    case imCommit = "im-commit"
    case key
    case paste
    case drop
    case undo
    case redo
    case deleteSurrounding = "delete-surrounding"
    /// A change the composer made itself (e.g. a limit trimming text).
    case program
}
