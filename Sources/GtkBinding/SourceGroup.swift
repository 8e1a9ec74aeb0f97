import CGtk

/// Main-loop sources (idles, timeouts) that belong to one owner — a window and the objects
/// that draw into it — and end with it.
///
/// Why: a source is the one kind of callback GTK does not tie to a widget. An idle queued
/// by a "map" handler, or a timeout that re-checks the window's height, runs after the
/// window is destroyed unless someone removes it, and then measures freed widgets
/// (`GTK_IS_WIDGET` criticals, a use-after-free once a window can close while the app
/// lives on). The owner calls `cancelAll()` from its window's "destroy" and no source of
/// the group runs after that; sources created after it are refused.
@MainActor
public final class SourceGroup {
    private var live: Set<UInt32> = []
    public private(set) var isCancelled = false

    public init() {}

    /// Sources of this group that have not run to completion yet.
    public var pendingCount: Int { live.count }

    /// `MainLoop.idle` owned by this group; nil once the group is cancelled.
    @discardableResult
    public func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ body: @escaping () -> Bool) -> UInt32? {
        guard !isCancelled else { return nil }
        var id: UInt32 = 0
        id = MainLoop.idle(priority: priority) { [weak self] in self?.run(id, body) ?? false }
        live.insert(id)
        return id
    }

    /// `MainLoop.timeout` owned by this group; nil once the group is cancelled.
    @discardableResult
    public func timeout(milliseconds: UInt32, _ body: @escaping () -> Bool) -> UInt32? {
        guard !isCancelled else { return nil }
        var id: UInt32 = 0
        id = MainLoop.timeout(milliseconds: milliseconds) { [weak self] in self?.run(id, body) ?? false }
        live.insert(id)
        return id
    }

    /// Removes one source of this group (no-op when it already ran or was removed).
    public func remove(_ id: UInt32?) {
        guard let id, live.remove(id) != nil else { return }
        MainLoop.removeSource(id)
    }

    /// Removes every pending source and refuses new ones.
    public func cancelAll() {
        isCancelled = true
        for id in live { MainLoop.removeSource(id) }
        live.removeAll()
    }

    isolated deinit { for id in live { MainLoop.removeSource(id) } }

    private func run(_ id: UInt32, _ body: () -> Bool) -> Bool {
        let again = body()
        if !again { live.remove(id) }
        return again
    }
}
