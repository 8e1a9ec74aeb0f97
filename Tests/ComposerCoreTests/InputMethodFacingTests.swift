import ComposerCore
import Testing

/// `--surrounding`, `--input-purpose`, `--input-hints` as the command line, the trace's
/// start line and a rerun read them.
@Suite("InputMethodFacing: the switches for engine developers")
struct InputMethodFacingTests {
    @Test func hintsAreReadInGTKsOrderEachOnce() throws {
        #expect(try InputMethodFacing.hints(parsing: "private, no-emoji,private") == [.noEmoji, .private])
        #expect(try InputMethodFacing.hints(parsing: "") == [])
        #expect(try InputMethodFacing.hints(parsing: "none") == [])
    }

    @Test func anUnknownHintIsNamedWithTheKnownOnes() {
        #expect {
            try InputMethodFacing.hints(parsing: "no-emoji,secret")
        } throws: { error in
            let text = "\(error)"
            return text.contains("\"secret\"") && text.contains("no-emoji") && text.contains("private")
        }
    }

    /// What a rerun passes the app: only what differs from a text view's own.
    @Test func argumentsRestartTheAppTheSameWay() {
        #expect(InputMethodFacing.standard.arguments == [])
        #expect(InputMethodFacing(surrounding: .off, purpose: .terminal, hints: [.noSpellcheck, .inhibitOSK]).arguments
                == ["--surrounding", "off", "--input-purpose", "terminal", "--input-hints", "no-spellcheck,inhibit-osk"])
        #expect(InputMethodFacing.standard.summary == nil)
        #expect(InputMethodFacing(surrounding: .off, hints: [.emoji]).summary == "surrounding text off; hints emoji")
    }

    /// A start line without the fields is a text view's own; a wrong value is named.
    @Test func theStartLineReadsBack() throws {
        let plain = try TraceEvent.decode(JSONValue.parse(#"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":5,"limit_mode":"soft","unit":"graphemes","data":""}"#)).event
        guard case .start(_, _, let settings) = plain else { Issue.record("\(plain)"); return }
        #expect(settings.inputMethodFacing == .standard)
        #expect {
            try TraceEvent.decode(JSONValue.parse(#"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","input_hints":["shouting"]}"#))
        } throws: { "\($0)".contains("\"shouting\"") }
        #expect {
            try TraceEvent.decode(JSONValue.parse(#"{"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","surrounding":"maybe"}"#))
        } throws: { "\($0)".contains("surrounding") }
    }
}
