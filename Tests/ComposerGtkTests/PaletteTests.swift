@testable import ComposerApp
import ComposerCore
import Foundation
import Testing

/// The colours the composer picks itself read on what they are drawn on, in each of the
/// system's styles: at least WCAG's 4.5:1 for text.
@Suite struct PaletteTests {
    /// libadwaita 1.2's window background (`@window_bg_color`), where the inspector's rows
    /// are, and the input's entry-like frame over it (10 % of the text colour,
    /// `.composer-input-frame`), where the tags are: light, then dark.
    static let windowBackground = (light: "#fafafa", dark: "#242424")
    static let inputBackground = (light: "#e1e1e1", dark: "#3a3a3a")

    static let appearances = [false, true].flatMap { dark in
        [false, true].map { SystemStyle.Appearance(dark: dark, highContrast: $0) }
    }

    /// WCAG 2's relative luminance of "#rrggbb".
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16)!
        let channels = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff].map { byte -> Double in
            let c = Double(byte) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    @Test(arguments: appearances)
    func theInspectorsKindsReadOnTheWindow(_ appearance: SystemStyle.Appearance) {
        let background = appearance.dark ? Self.windowBackground.dark : Self.windowBackground.light
        for (kind, color) in Palette(appearance).inspectorKinds {
            #expect(Self.contrast(color, background) >= 4.5, "\(kind) \(color) on \(background), \(appearance)")
        }
    }

    /// Dimmed text keeps what libadwaita's `dim-label` keeps: 0.55 of its colour, 0.9 with
    /// high contrast (its base and base-hc style sheets), by the colour's alpha.
    @Test(arguments: appearances)
    func dimmedTextKeepsWhatLibadwaitasDimLabelKeeps(_ appearance: SystemStyle.Appearance) {
        let palette = Palette(appearance)
        #expect(palette.dimmedAlpha == (appearance.highContrast ? 0.9 : 0.55))
        #expect(palette.css.contains(".ime-dimmed { color: alpha(currentColor, \(palette.dimmedAlpha)); }"))
    }

    @Test(arguments: appearances)
    func theTagsReadInTheInput(_ appearance: SystemStyle.Appearance) {
        let palette = Palette(appearance)
        let background = appearance.dark ? Self.inputBackground.dark : Self.inputBackground.light
        let colors = [palette.overflow.foreground] + HighlightKind.allCases.map { palette.highlight($0) }
        for color in colors {
            #expect(Self.contrast(color, background) >= 4.5, "\(color) on \(background), \(appearance)")
        }
    }
}
