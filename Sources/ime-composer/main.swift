import ArgumentParser
import Foundation

// Any command-line error exits 2 with a clear message (the parser's default is 64);
// --help and --version still exit 0.
do {
    var command = try ImeComposer.parseAsRoot()
    try command.run()
} catch let failure as TranscriptFailure {
    FileHandle.standardError.write(Data("ime-composer: \(failure)\n".utf8))
    exit(2)
} catch let failure as RerunFailure {
    FileHandle.standardError.write(Data("ime-composer: \(failure)\n".utf8))
    exit(1)
} catch let unavailable as Unavailable {
    FileHandle.standardError.write(Data("ime-composer: \(unavailable)\n".utf8))
    exit(3)
} catch {
    let code = ImeComposer.exitCode(for: error)
    if code == .success {
        ImeComposer.exit(withError: error)
    }
    if error is ExitCode {
        exit((error as! ExitCode).rawValue)
    }
    FileHandle.standardError.write(Data((ImeComposer.fullMessage(for: error) + "\n").utf8))
    exit(2)
}
