import ComposerCore
import Foundation
import GRDB

/// The profile's durable state: the draft and the sent messages, in one SQLite database
/// (`composer.sqlite`, WAL) in the profile directory.
///
/// Every call is one transaction, safe from any thread and from several processes (two
/// windows on one profile: the last save wins, nothing is torn). Writes are for a
/// background queue (`DraftSaver`); only the start-up read runs on the main thread.
public final class ProfileStore: Sendable {
    public static let fileName = "composer.sqlite"
    /// The sent messages kept: older ones are deleted as new ones are sent.
    public static let keptMessages = 1_000
    /// The sent messages a start shows.
    public static let restoredMessages = 100

    public let url: URL
    private let pool: DatabasePool

    /// Opens (creating, private to its owner) and migrates the database at `url`.
    /// Throws `DatabaseError` as SQLite reported it, or `StoreOpenError`.
    init(url: URL) throws {
        self.url = url
        try PrivateFiles.prepareDatabaseFile(url)
        var configuration = Configuration()
        // Another window on the same profile may be writing: wait for it, never fail at once.
        configuration.busyMode = .timeout(5)
        configuration.label = "ime-composer profile"
        let pool = try Self.openPool(url.path, configuration)
        let migrator = StoreSchema.migrator
        if try pool.read(migrator.hasBeenSuperseded) { throw StoreOpenError.newerVersion }
        try Self.migrate(pool, with: migrator)
        let check = try pool.read { try String.fetchOne($0, sql: "PRAGMA quick_check") }
        guard check == "ok" else { throw StoreOpenError.failedCheck(check ?? "no answer") }
        self.pool = pool
    }

    /// Closes the database's connections now (its files are no longer open when this
    /// returns) rather than when the last reference goes, on whatever thread drops it.
    /// Everything is checkpointed into the database file first: a reader that cannot use
    /// the WAL (`StoreOpener.readOnlyState`, for a profile turned read-only) sees it all.
    /// The store must not be used afterwards.
    public func close() throws {
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try pool.close()
    }

    /// Opens the pool, waiting like the busy timeout while another connection holds the
    /// database: switching a new database to WAL answers SQLITE_BUSY at once, without the
    /// busy handler, while another connection is opening it too.
    private static func openPool(_ path: String, _ configuration: Configuration) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(5)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(10_000)
            }
        }
    }

    /// Brings the database up to date, also while another connection does the same (a
    /// second window, a reader of the profile opening a new database at the same moment).
    /// GRDB's migrator reads which migrations are applied before the write transaction that
    /// applies the next one, so two connections can both try one ("table draft already
    /// exists", "duplicate column name"); the loser reads again and applies what is left.
    private static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        var attempt = 0
        while true {
            do {
                try migrator.migrate(pool)
                return
            } catch {
                attempt += 1
                if try pool.read(migrator.hasCompletedMigrations) { return }
                guard attempt < 5, let error = error as? DatabaseError, error.resultCode.primaryResultCode == .SQLITE_ERROR
                else { throw error }
            }
        }
    }

    /// The draft (empty if none was saved) and the last `restoredMessages` sent messages.
    public func load() throws -> SavedState {
        try Self.load(from: pool)
    }

    static func load(from reader: some DatabaseReader) throws -> SavedState {
        try reader.read { db in
            var state = SavedState()
            if let row = try Row.fetchOne(db, sql: "SELECT text, caret, composingStart, composingEnd FROM draft WHERE id = 1") {
                // A database not migrated yet (read-only, by an older version) has no pieces.
                let pieces = try db.tableExists("draftPiece")
                    ? try String.fetchAll(db, sql: "SELECT text FROM draftPiece ORDER BY position") : []
                state.draft = Self.draft(from: row, pieces: pieces)
            }
            state.messages = try Row.fetchAll(db, sql: """
                SELECT id, text, sentAt, editedAt FROM sentMessage ORDER BY id DESC LIMIT ?
                """, arguments: [Self.restoredMessages]).reversed().map(Self.message(from:))
            return state
        }
    }

    /// Replaces the saved draft.
    public func saveDraft(_ draft: Draft, at date: Date = Date()) throws {
        try pool.write { db in try Self.upsert(draft, at: date, in: db) }
    }

    /// Saves `update` as `writer`'s pieces, keeping the saved pieces before `update.first`
    /// when they are `writer`'s and `keepsPieces` says they are the ones it last wrote;
    /// otherwise every piece is written (`update.allPieces`), in the same transaction.
    /// - Returns: the first piece written (0 when every piece was) and the pieces from it.
    @discardableResult
    public func saveDraft(_ update: DraftUpdate, writer: String, keepsPieces: Bool,
                          at date: Date = Date()) throws -> (first: Int, pieces: [String]) {
        try pool.write { db in
            // Cached statements: preparing them again cost more than the piece's write.
            var first = update.first, pieces = update.pieces
            if first > 0 {
                let kept = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT writer, (SELECT count(*) FROM draftPiece WHERE position < ?) AS kept FROM draft WHERE id = 1
                    """), arguments: [first])
                if !keepsPieces || kept?["writer"] != writer || kept?["kept"] != first {
                    first = 0
                    pieces = update.allPieces()
                }
            }
            try db.cachedStatement(sql: "DELETE FROM draftPiece WHERE position >= ?").execute(arguments: [first])
            let insert = try db.cachedStatement(sql: "INSERT INTO draftPiece (position, text) VALUES (?, ?)")
            for (offset, piece) in pieces.enumerated() {
                try insert.execute(arguments: [first + offset, piece])
            }
            try Self.upsertRow(text: "", caret: update.caret, composing: update.composing, writer: writer, at: date, in: db)
            return (first, pieces)
        }
    }

    /// Keeps a sent message and the draft after it (empty, usually) in one transaction: a
    /// kill between the two never shows the message both sent and still in the draft.
    @discardableResult
    public func recordSent(_ text: String, draftAfter draft: Draft, at date: Date = Date()) throws -> Int64 {
        try pool.write { db in
            try db.execute(sql: "INSERT INTO sentMessage (text, sentAt) VALUES (?, ?)",
                           arguments: [text, date.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            try db.execute(sql: "DELETE FROM sentMessage WHERE id <= ?", arguments: [id - Int64(Self.keptMessages)])
            try Self.upsert(draft, at: date, in: db)
            return id
        }
    }

    /// The last sent message, edited (Up in an empty input, then Send): its text replaced,
    /// with the draft after it, in one transaction. Nothing to edit: nothing happens.
    public func replaceLastSent(with text: String, draftAfter draft: Draft, at date: Date = Date()) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE sentMessage SET text = ?, editedAt = ? WHERE id = (SELECT max(id) FROM sentMessage)
                """, arguments: [text, date.timeIntervalSince1970])
            try Self.upsert(draft, at: date, in: db)
        }
    }

    /// The migrations applied, oldest first (tests).
    public func appliedMigrations() throws -> [String] {
        try pool.read { try StoreSchema.migrator.appliedMigrations($0) }
    }

    /// The whole draft in its row, no pieces (a message's transaction, `saveDraft(Draft)`).
    private static func upsert(_ draft: Draft, at date: Date, in db: Database) throws {
        try db.execute(sql: "DELETE FROM draftPiece")
        try upsertRow(text: draft.text, caret: draft.caret, composing: draft.composing, writer: nil, at: date, in: db)
    }

    private static func upsertRow(text: String, caret: Int, composing: Range<Int>?, writer: String?, at date: Date,
                                  in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO draft (id, text, caret, composingStart, composingEnd, savedAt, writer) VALUES (1, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET text = excluded.text, caret = excluded.caret,
                composingStart = excluded.composingStart, composingEnd = excluded.composingEnd,
                savedAt = excluded.savedAt, writer = excluded.writer
            """).execute(arguments: [text, caret, composing?.lowerBound, composing?.upperBound, date.timeIntervalSince1970, writer])
    }

    /// A saved draft (its row's text, then its pieces), its offsets clamped into its text
    /// (a row edited by hand, or by a future version, must not put the caret outside it).
    private static func draft(from row: Row, pieces: [String]) -> Draft {
        let text: String = (row["text"] ?? "") + pieces.joined()
        let count = text.unicodeScalars.count
        let caret = min(max(row["caret"] ?? count, 0), count)
        var composing: Range<Int>?
        if let start: Int = row["composingStart"], let end: Int = row["composingEnd"], 0 <= start, start <= end, end <= count {
            composing = start..<end
        }
        return Draft(text: text, caret: caret, composing: composing)
    }

    private static func message(from row: Row) -> SentMessage {
        SentMessage(id: row["id"], text: row["text"] ?? "",
                    sentAt: Date(timeIntervalSince1970: row["sentAt"] ?? 0),
                    editedAt: (row["editedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

/// Why a database that SQLite could open is not used.
enum StoreOpenError: Error, CustomStringConvertible {
    /// Made by a newer version of the app (a migration this one does not know).
    case newerVersion
    /// `PRAGMA quick_check` found damage.
    case failedCheck(String)

    var description: String {
        switch self {
        case .newerVersion: "it was written by a newer version of ime-composer"
        case .failedCheck(let answer): "its integrity check failed (\(answer))"
        }
    }
}
