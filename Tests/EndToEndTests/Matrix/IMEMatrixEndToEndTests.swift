import Foundation
import TestHarness
import Testing

/// The real-input-method matrix on X11: every engine of `MatrixEngine.x11` through every
/// `MatrixScenario` (`MatrixRunner`, the lab's, as `ime-composer matrix` runs it), each
/// engine in its own private session. Each row is recorded for docs/ime-matrix.md
/// (`MatrixRow`); a failed cell fails the test.
@Suite(.serialized)
struct IMEMatrixEndToEndTests {
    @Test(.timeLimit(.minutes(6)), arguments: MatrixEngine.selected)
    func engineThroughEveryScenario(_ engine: MatrixEngine) throws {
        let result = MatrixRunner().run(engine)
        try MatrixRow(result).write()
        for failure in result.failures { Issue.record(Comment(rawValue: failure)) }
    }
}
