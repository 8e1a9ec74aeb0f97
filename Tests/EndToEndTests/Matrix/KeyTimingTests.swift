import Foundation
import ComposerCore
import TestHarness
import Testing

/// Per-key timing read from a trace: key → first preedit change and key → first commit,
/// each before the next key, from the scenario's first line on.
struct KeyTimingTests {
    static let trace = """
        {"ev":"start","t":90,"v":1}
        {"ev":"key","t":100,"keyval":"r"}
        {"ev":"preedit-start","t":103}
        {"ev":"preedit","t":104,"text":"ㄱ"}
        {"ev":"key","t":200,"keyval":"g"}
        {"ev":"preedit","t":207,"text":"ㅎ"}
        {"ev":"key","t":300,"keyval":"k"}
        {"ev":"preedit","t":302,"text":"하"}

        {"ev":"key","t":400,"keyval":"space"}
        {"ev":"commit","t":411,"text":"하"}
        {"ev":"preedit","t":412,"text":""}
        {"ev":"commit","t":413,"text":" "}
        {"ev":"key","t":500,"keyval":"Return"}
        {"ev":"send","t":501,"text":"하 "}
        not json
        """

    @Test func eachKeyCountsItsFirstPreeditAndItsFirstCommitOnly() {
        let timing = KeyTiming(trace: Self.trace)
        #expect(timing.toPreedit == [3, 7, 2, 12])
        #expect(timing.toCommit == [11])
    }

    @Test func keysBeforeTheScenarioAreLeftOut() {
        // From the fourth non-blank line (the "g" key): the "r" key and its answer are the
        // session's probe, not the scenario's.
        let timing = KeyTiming(trace: Self.trace, fromLine: 4)
        #expect(timing.toPreedit == [7, 2, 12])
    }

    /// Key → the first frame painted after the key's answer, even when the frame comes after
    /// the next key (it shows this key's answer first); a key answered with nothing has no
    /// frame to count.
    @Test func eachAnsweredKeyCountsTheFirstFramePaintedAfterItsAnswer() {
        let timing = KeyTiming(trace: """
            {"ev":"key","t":100,"keyval":"i"}
            {"ev":"paint","t":101}
            {"ev":"preedit-start","t":104}
            {"ev":"preedit","t":104,"text":"い"}
            {"ev":"key","t":110,"keyval":"n"}
            {"ev":"preedit","t":112,"text":"いn"}
            {"ev":"paint","t":120}
            {"ev":"key","t":200,"keyval":"Shift_L"}
            {"ev":"paint","t":210}
            {"ev":"key","t":300,"keyval":"Return"}
            {"ev":"commit","t":303,"text":"いn"}
            {"ev":"paint","t":316}
            """)
        // i: answered at 104, first frame after that at 120 (the one before was before its
        // answer); n: 120; Shift_L: no answer; Return: 316.
        #expect(timing.toPaint == [20, 10, 16])
    }

    @Test func summaryIsTheMedianAndTheNinetiethPercentileByNearestRank() throws {
        #expect(KeyTiming.summary([]) == nil)
        let one = try #require(KeyTiming.summary([5]))
        #expect(one.median == 5 && one.p90 == 5)
        let ten = try #require(KeyTiming.summary([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]))
        #expect(ten.median == 5 && ten.p90 == 9)
    }
}

/// The answers a baseline compares: keys (with whether the input method consumed them) and
/// the input method's answers, in order, from the scenario's first line; nothing of timing.
struct InputMethodAnswersTests {
    @Test func answersAreComparedInOrderWithoutTiming() throws {
        let before = InputMethodAnswers(trace: KeyTimingTests.trace)
        #expect(before.keys.map(\.text) == ["r", "g", "k", "space", "Return"])
        #expect(before.answers.map(\.text) == [
            "preedit-start", "preedit “ㄱ” cursor ? segments []", "preedit “ㅎ” cursor ? segments []",
            "preedit “하” cursor ? segments []", "commit “하”", "preedit “” cursor ? segments []", "commit “ ”",
        ])
        // The same answers later and slower: no difference.
        let slower = KeyTimingTests.trace.replacingOccurrences(of: #""t":4"#, with: #""t":9"#)
        #expect(InputMethodAnswers(trace: slower).firstDifference(from: before, beforeFile: "a", nowFile: "b") == nil)
        // Another commit: the first difference, with both lines.
        let other = KeyTimingTests.trace.replacingOccurrences(of: #"{"ev":"commit","t":411,"text":"하"}"#,
                                                             with: #"{"ev":"commit","t":411,"text":"하ㄴ"}"#)
        #expect(InputMethodAnswers(trace: other).firstDifference(from: before, beforeFile: "a", nowFile: "b")
            == "input-method answer 5: was commit “하” (a:11), now commit “하ㄴ” (b:11)")
        // From the scenario's line on: the probe's key and answers are left out.
        #expect(InputMethodAnswers(trace: KeyTimingTests.trace, fromLine: 4).keys.map(\.text) == ["g", "k", "space", "Return"])
    }
}

/// A rerun's comparison: each key the app saw taken the same way, and the states the
/// recording's engine was seen in coming, in order, among the rerun's — so a recording typed
/// fast (answers batched, or late) and a rerun typed key by key compare equal when the
/// engine does the same.
struct InputMethodStatesTests {
    static let batched = """
        {"ev":"key","t":1,"keyval":"i"}
        {"ev":"key","t":2,"keyval":"n"}
        {"ev":"key","t":3,"keyval":"u"}
        {"ev":"preedit-start","t":9}
        {"ev":"preedit","t":9,"text":"いぬ","cursor":2,"segments":[[0,2,["underline"]]]}
        {"ev":"key","t":20,"keyval":"Return","consumed":true}
        {"ev":"commit","t":20,"text":"いぬ"}
        {"ev":"preedit","t":20,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":20}
        """
    /// i's answer after n was typed: い shown before u, though n was in.
    static let late = """
        {"ev":"key","t":1,"keyval":"i"}
        {"ev":"key","t":2,"keyval":"n"}
        {"ev":"preedit-start","t":5}
        {"ev":"preedit","t":5,"text":"い","cursor":1,"segments":[[0,1,["underline"]]]}
        {"ev":"key","t":6,"keyval":"u"}
        {"ev":"preedit","t":9,"text":"いぬ","cursor":2,"segments":[[0,2,["underline"]]]}
        {"ev":"key","t":20,"keyval":"Return","consumed":true}
        {"ev":"commit","t":20,"text":"いぬ"}
        {"ev":"preedit","t":20,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":20}
        """
    static let paced = """
        {"ev":"key","t":1,"keyval":"i"}
        {"ev":"preedit-start","t":2}
        {"ev":"preedit","t":2,"text":"い","cursor":1,"segments":[[0,1,["underline"]]]}
        {"ev":"key","t":10,"keyval":"n"}
        {"ev":"preedit","t":11,"text":"いn","cursor":2,"segments":[[0,2,["underline"]]]}
        {"ev":"key","t":20,"keyval":"u"}
        {"ev":"preedit","t":21,"text":"いぬ","cursor":2,"segments":[[0,2,["underline"]]]}
        {"ev":"key","t":30,"keyval":"Return","consumed":true}
        {"ev":"commit","t":30,"text":"いぬ"}
        {"ev":"preedit","t":30,"text":"","cursor":0,"segments":[]}
        {"ev":"preedit-end","t":30}
        """

    @Test(arguments: [batched, late])
    func aRecordingTypedFastMatchesAPacedRerun(_ recording: String) {
        let rerun = InputMethodStates(trace: Self.paced)
        #expect(rerun.firstDifference(from: InputMethodStates(trace: recording), recordedFile: "r", nowFile: "n") == nil)
    }

    @Test func aStateTheRerunNeverReachesIsADifference() {
        let recorded = InputMethodStates(trace: Self.batched)
        let other = InputMethodStates(trace: Self.paced.replacingOccurrences(of: #""text":"いぬ","cursor":2"#,
                                                                             with: #""text":"いぬ","cursor":0"#))
        let difference = other.firstDifference(from: recorded, recordedFile: "r.jsonl", nowFile: "n.jsonl")
        #expect(difference == "was composing “いぬ” cursor 2 segments [[0,2,[\"underline\"]]], committed “” (r.jsonl:5), "
            + "now never: it was composing “い” cursor 1 segments [[0,1,[\"underline\"]]], committed “” instead (n.jsonl:3)")
    }

    @Test func aKeyTheEngineTookOtherwiseIsADifference() {
        let recorded = InputMethodStates(trace: Self.batched)
        let other = InputMethodStates(trace: Self.paced.replacingOccurrences(of: #""consumed":true"#, with: #""consumed":false"#))
        #expect(other.firstDifference(from: recorded, recordedFile: "r", nowFile: "n")
            == "key 4: was Return consumed by the input method (r:6), now Return not consumed (n:8)")
    }
}

/// A rerun starts the app as the recording's start line says: its limit and text, and what
/// the input method was told about the field.
struct TranscriptRerunArgumentsTests {
    @Test func theRecordedSurroundingPurposeAndHintsArePassedOn() throws {
        let recording = """
            {"ev":"start","t":0,"v":1,"backend":"x11","im_module":"ibus","limit":5,"limit_mode":"hard","unit":"graphemes","data":"","surrounding":"off","input_purpose":"terminal","input_hints":["no-emoji"]}
            {"ev":"text","t":1,"text":"ab","caret":2,"sel":[2,2]}
            {"ev":"key","t":2,"keyval":"a"}
            """
        let rerun = TranscriptRerun(transcript: try Transcript(text: recording, name: "facing"), firstLine: 2)
        #expect(rerun.arguments == ["--text", "ab", "--limit", "5", "--limit-mode", "hard", "--count", "graphemes",
                                    "--surrounding", "off", "--input-purpose", "terminal", "--input-hints", "no-emoji"])
    }
}
