import ComposerCore
import Foundation

/// A message the user sent, as kept in the profile.
public struct SentMessage: Equatable, Sendable {
    public var id: Int64
    public var text: String
    public var sentAt: Date
    /// When it was last edited (Up in an empty input), if it was.
    public var editedAt: Date?

    public init(id: Int64, text: String, sentAt: Date, editedAt: Date? = nil) {
        self.id = id
        self.text = text
        self.sentAt = sentAt
        self.editedAt = editedAt
    }
}

/// What a start restores: the draft and the most recent sent messages, oldest first.
public struct SavedState: Equatable, Sendable {
    public var draft: Draft
    public var messages: [SentMessage]

    public init(draft: Draft = .empty, messages: [SentMessage] = []) {
        self.draft = draft
        self.messages = messages
    }

    public static let empty = SavedState()
}
