import CGtk
import GtkBinding

/// Gives the memory the process has freed back to the system (glibc's `malloc_trim`),
/// after work that allocates much and frees it: reading the people, channels and emoji,
/// and saving a draft that grew or shrank by a megabyte or more (a long paste, a long
/// draft sent). glibc returns an arena's free memory only from its top, so what such work
/// freed in any order stayed resident: 7 MB after the data was read, 53 MB after a 10 MB
/// paste (issue #35's memory goals).
///
/// Call it off the main thread: it walks every arena, holding each one's lock meanwhile.
@_spi(Testing) public nonisolated enum FreedMemory {
    public static func giveBack() {
        malloc_trim(0)
    }

    /// Gives memory back once the main loop has nothing more urgent to run (an idle at
    /// `G_PRIORITY_LOW`), then off the main thread. After a long paste the draft is saved
    /// within a second, while GTK goes on laying the text out for seconds in idles of a
    /// higher priority, freeing as it goes: given back at the save, 8 MB of a 10 MB paste's
    /// freed memory stayed resident (299 MB against 291 MB once the app was quiet).
    /// Callable from any thread.
    public static func giveBackOnceIdle(_ trim: @escaping @Sendable () -> Void = giveBack) {
        MainLoop.post(priority: G_PRIORITY_LOW) { giveBackOffMainThread(trim) }
    }

    /// Gives memory back on a thread of its own, now.
    @MainActor
    static func giveBackOffMainThread(_ trim: @escaping @Sendable () -> Void = giveBack) {
        MainLoop.offMainThread(trim, then: { _ in })
    }
}
