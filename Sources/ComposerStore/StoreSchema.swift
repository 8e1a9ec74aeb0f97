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
        return migrator
    }
}
