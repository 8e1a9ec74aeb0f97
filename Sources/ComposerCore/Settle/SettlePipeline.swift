/// Runs the settle controllers in order once input has settled.
///
/// The settle mark is recorded first, so every controller sees the window of
/// input that this settle closed (`EditLog.insertedInLastQuietWindow()`).
public final class SettlePipeline {
    public let controllers: [SettleController]

    public init(controllers: [SettleController]) {
        self.controllers = controllers
    }

    /// Marks the settle, runs each controller in order, returns their events in order.
    public func settle(_ model: ComposerModel) -> [TraceEvent] {
        model.markSettle()
        var events: [TraceEvent] = []
        for controller in controllers {
            controller.settle(model, events: &events)
        }
        return events
    }
}
