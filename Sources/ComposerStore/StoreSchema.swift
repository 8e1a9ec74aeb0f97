import GRDB

/// The database's schema, as migrations: each one runs once, in order, in a transaction;
/// a database made by an older version is brought up to date when it is opened.
///
/// Never edit a registered migration: add a new one.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // The draft is one row (id 1); the sent messages are a log, oldest first.
        migrator.registerMigration("v1: draft and sent messages") { db in
            try db.create(table: "draft") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("text", .text).notNull()
                table.column("caret", .integer).notNull()
                table.column("composingStart", .integer)
                table.column("composingEnd", .integer)
                table.column("savedAt", .double).notNull()
            }
            try db.create(table: "sentMessage") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("text", .text).notNull()
                table.column("sentAt", .double).notNull()
            }
        }
        // Up in an empty input edits the last sent message: when it was edited.
        migrator.registerMigration("v2: edited messages") { db in
            try db.alter(table: "sentMessage") { table in
                table.add(column: "editedAt", .double)
            }
        }
        // The draft's text in pieces (`DraftPieces`): typing into a long draft rewrites the
        // last piece, not the whole text, at each save (issue #35: a 1 MB draft rewritten
        // every 300 ms of typing cost a fifth of each key's CPU). The text is `draft.text`
        // followed by the pieces in `position` order; `writer` names the saver whose pieces
        // they are (only it may rewrite some and keep the others).
        migrator.registerMigration("v3: draft pieces") { db in
            try db.create(table: "draftPiece") { table in
                table.primaryKey("position", .integer)
                table.column("text", .text).notNull()
            }
            try db.alter(table: "draft") { table in
                table.add(column: "writer", .text)
            }
        }
        return migrator
    }
}
