/// Runs the settle steps in order once input has settled, in phases.
///
/// The settle mark is recorded first, so every step sees the window of input that
/// this settle closed (`EditLog.insertedInLastQuietWindow()`). A step's text edits
/// (the hard limit's cuts) are applied to the model, through `edit`, before the next
/// step runs: the decorations after it (overflow, completion, highlighting, the
/// trace) are decided on the text as it will be shown.
public final class SettlePipeline {
    public let steps: [SettleStep]

    public init(steps: [SettleStep]) {
        self.steps = steps
    }

    /// Marks the settle, runs each step in order, applies text edits as they come;
    /// returns the trace events and the other effects, in order.
    public func settle(_ model: ComposerModel, edit: (SettleEffect) -> Void) -> SettleOutput {
        model.markSettle()
        var output = SettleOutput()
        for step in steps {
            let firstNew = output.effects.count
            step.settle(model, into: &output)
            // The step's cuts leave the output for the model before the next step looks.
            guard output.effects[firstNew...].contains(where: \.isEdit) else { continue }
            let decided = output.effects[firstNew...]
            output.effects.removeSubrange(firstNew...)
            for effect in decided {
                if effect.isEdit { edit(effect) } else { output.effects.append(effect) }
            }
        }
        return output
    }

    /// `settle(_:edit:)` for steps that only report (tests of reporters and completion):
    /// their trace events.
    public func settle(_ model: ComposerModel) -> [TraceEvent] {
        let output = settle(model) { _ in preconditionFailure("this pipeline's steps do not edit") }
        precondition(output.effects.isEmpty, "this pipeline's steps have effects: use settle(_:edit:)")
        return output.events
    }
}
