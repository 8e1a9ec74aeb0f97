import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestHarness

/// The files a desktop needs to show the app: the desktop entry validates cleanly, and its
/// name, its Icon= and the icon's file name are all the GApplication id used in the code.
@Suite struct DesktopIntegrationTests {
    static let root = ComposerBinary.packageRoot

    /// The id from `public static let applicationID = "…"` in ComposerApplication.swift
    /// (read from the source: this suite runs the app out of process and does not link it).
    static func applicationID() throws -> String {
        let source = try String(contentsOf: root.appendingPathComponent(
            "Sources/ComposerApp/ComposerApplication.swift"), encoding: .utf8)
        let pattern = #/static\s+let\s+applicationID\s*=\s*"([^"]+)"/#
        guard let match = source.firstMatch(of: pattern) else {
            throw HarnessError("applicationID not found in Sources/ComposerApp/ComposerApplication.swift")
        }
        return String(match.1)
    }

    static func desktopFile() throws -> URL {
        root.appendingPathComponent("data/\(try applicationID()).desktop")
    }

    static func iconFile() throws -> URL {
        root.appendingPathComponent("data/icons/hicolor/scalable/apps/\(try applicationID()).svg")
    }

    /// `[Desktop Entry]` keys (the main group only).
    static func desktopEntry() throws -> [String: String] {
        let text = try String(contentsOf: try desktopFile(), encoding: .utf8)
        var entry: [String: String] = [:]
        var group = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") { group = String(line); continue }
            guard group == "[Desktop Entry]", !line.hasPrefix("#"),
                  let equals = line.firstIndex(of: "=") else { continue }
            entry[line[..<equals].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return entry
    }

    @Test func theDesktopEntryValidatesWithoutErrorsOrWarnings() throws {
        try Prerequisites.require(["desktop-file-validate"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["desktop-file-validate", try Self.desktopFile().path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "desktop-file-validate exited \(process.terminationStatus): \(text)")
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "desktop-file-validate reported:\n\(text)")
    }

    @Test func theDesktopEntryNamesTheAppItsCommandAndItsIcon() throws {
        let id = try Self.applicationID()
        let entry = try Self.desktopEntry()
        #expect(entry["Type"] == "Application")
        #expect(entry["Name"] == "IME Composer")
        #expect(entry["Exec"]?.split(separator: " ").first == "ime-composer")
        #expect(entry["Icon"] == id)
        #expect(entry["Terminal"] == "false")
        let keywords = (entry["Keywords"] ?? "").lowercased()
        for word in ["input method", "ime", "japanese", "korean"] {
            #expect(keywords.split(separator: ";").contains { $0 == word }, "Keywords lacks \(word): \(keywords)")
        }
        #expect(FileManager.default.fileExists(atPath: try Self.iconFile().path),
                "no icon named after the application id \(id)")
    }

    @Test func theIconIsAnSVGDocumentWithAViewBox() throws {
        let data = try Data(contentsOf: try Self.iconFile())
        let parser = XMLParser(data: data)
        let delegate = RootElement()
        parser.delegate = delegate
        let parsed = parser.parse()
        #expect(parsed, "the icon is not well-formed XML: \(String(describing: parser.parserError))")
        #expect(delegate.name == "svg", "root element is \(delegate.name ?? "missing")")
        let viewBox = delegate.attributes["viewBox"]?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(viewBox.count == 4 && viewBox[2] > 0 && viewBox[2] == viewBox[3],
                "the icon needs a square viewBox, has \(delegate.attributes["viewBox"] ?? "none")")
    }
}

/// Remembers the document's root element.
private final class RootElement: NSObject, XMLParserDelegate {
    var name: String?
    var attributes: [String: String] = [:]

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard name == nil else { return }
        name = elementName
        self.attributes = attributes
    }
}
