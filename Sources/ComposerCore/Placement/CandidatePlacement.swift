/// A rectangle in whole pixels: `x`, `y` its top-left corner.
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// "120,48 0×17": where, then how big.
    public var description: String { "\(x),\(y) \(width)×\(height)" }

    /// `[x, y, width, height]`, as the trace writes it.
    public var components: [Int] { [x, y, width, height] }

    public init?(components: [Int]) {
        guard components.count == 4, components[2] >= 0, components[3] >= 0 else { return nil }
        self.init(x: components[0], y: components[1], width: components[2], height: components[3])
    }
}

/// Where the app told the input method the caret is, and where the candidate window went.
///
/// Three readings of one caret, each in the units of where it was read:
/// - `given`: what the text view passed to GTK's IM context
///   (`gtk_im_context_set_cursor_location`), in the text view's own coordinates, logical
///   pixels. Every IM module receives this.
/// - `sent`: what the IM module then sent to the input method, in that protocol's units
///   (IBus's `SetCursorLocation`, Fcitx5's `SetCursorRect`: screen coordinates in device
///   pixels on X11). This is where upstream bugs show: the module's own arithmetic.
/// - `caret`: where `given` is on the screen, as the composer computes it
///   (X11: the root window, device pixels): the rectangle `sent` should equal on X11.
/// And `popup`, the candidate window the input method's panel showed (X11: its
/// override-redirect window's geometry), when one is shown and can be read.
public struct CandidatePlacement: Equatable, Sendable {
    public var given: PixelRect
    public var caret: PixelRect?
    public var sent: PixelRect?
    /// The call that carried `sent` ("ibus SetCursorLocation", "fcitx5 SetCursorRect", …).
    public var via: String?
    public var popup: PixelRect?
    /// The window's scale factor (GDK_SCALE): device pixels per logical pixel.
    public var scale: Int
    /// The toplevel window's height in device pixels (IBus 1.5.27 sends it as the caret's).
    public var windowHeight: Int?

    public init(given: PixelRect, caret: PixelRect? = nil, sent: PixelRect? = nil, via: String? = nil,
                popup: PixelRect? = nil, scale: Int = 1, windowHeight: Int? = nil) {
        self.given = given
        self.caret = caret
        self.sent = sent
        self.via = via
        self.popup = popup
        self.scale = scale
        self.windowHeight = windowHeight
    }
}

/// What is wrong with a placement, judged from its readings alone.
public enum PlacementFinding: Equatable, Sendable {
    /// The module sent (0,0,0,0): the input method cannot place anything.
    case zeroRectangle
    /// IBus 1.5.27's GTK 4 module: a 50 px wide rectangle as tall as the window, 32 px
    /// below the text view's caret taken as a screen position — the candidate window goes
    /// below the whole window.
    case ibusWindowHeightRectangle
    /// The rectangle sent is not the caret on the screen (`dx`, `dy`: sent − caret, device px).
    case sentAwayFromCaret(dx: Int, dy: Int)
    /// The candidate window is `distance` device pixels away from the caret.
    case popupAwayFromCaret(distance: Int)

    /// Stable id, for the inspector's flags and tests.
    public var id: String {
        switch self {
        case .zeroRectangle: "zero-cursor-rectangle"
        case .ibusWindowHeightRectangle: "ibus-window-height-rectangle"
        case .sentAwayFromCaret: "cursor-rectangle-away-from-caret"
        case .popupAwayFromCaret: "candidate-window-away-from-caret"
        }
    }
}

extension CandidatePlacement {
    /// How far (device pixels, per logical pixel of scale) a reading may be from the caret
    /// and still be "at the caret": the module rounds, the panel draws a shadow or a margin.
    public static let tolerance = 8
    /// How far the candidate window may sit from the caret: right below it, or right above
    /// it (a panel flips above near the screen's bottom), with a panel's own margin. IBus's
    /// and Fcitx5's panels put it flush against the caret rectangle they were sent.
    public static let popupTolerance = 16

    /// Everything wrong with this placement, most specific first.
    public var findings: [PlacementFinding] {
        var findings: [PlacementFinding] = []
        if let sent {
            if sent == .zero {
                findings.append(.zeroRectangle)
            } else if sent.width == 50 * scale, let windowHeight, sent.height >= windowHeight {
                findings.append(.ibusWindowHeightRectangle)
            } else if let caret {
                let dx = sent.x - caret.x, dy = sent.y - caret.y
                let slack = Self.tolerance * scale
                if abs(dx) > slack || abs(dy) > slack || abs(sent.height - caret.height) > slack {
                    findings.append(.sentAwayFromCaret(dx: dx, dy: dy))
                }
            }
        }
        if let popup, let caret, let distance = Self.popupDistance(popup, from: caret),
           distance > Self.popupTolerance * scale {
            findings.append(.popupAwayFromCaret(distance: distance))
        }
        return findings
    }

    /// The candidate window's distance from where it belongs: its top edge below the caret's
    /// bottom, or its bottom edge above the caret's top, whichever is nearer; and its left
    /// edge from the caret (a panel near the screen's right edge moves left: any overlap of
    /// the caret's column counts as beside it). nil for an empty window.
    static func popupDistance(_ popup: PixelRect, from caret: PixelRect) -> Int? {
        guard popup.width > 0, popup.height > 0 else { return nil }
        let below = abs(popup.y - caret.maxY)
        let above = abs(caret.y - popup.maxY)
        let vertical = min(below, above)
        let horizontal = caret.x >= popup.x && caret.x <= popup.maxX ? 0 : min(abs(popup.x - caret.x), abs(popup.maxX - caret.x))
        return max(vertical, horizontal)
    }
}

extension PlacementFinding {
    /// One line for the inspector's flag: what happened, in the tester's words.
    public func explanation(_ placement: CandidatePlacement) -> (String, reference: String?) {
        switch self {
        case .zeroRectangle:
            ("the cursor rectangle sent to the input method is (0,0,0,0): it cannot place its candidate window",
             "fcitx/fcitx5#1606")
        case .ibusWindowHeightRectangle:
            ("IBus's GTK 4 module sent a 50 px wide rectangle as tall as the window (\(placement.sent?.description ?? "")) instead of the caret (\(placement.caret?.description ?? placement.given.description)): the candidate window goes below the window",
             "ibus/ibus#2522")
        case let .sentAwayFromCaret(dx, dy):
            ("the cursor rectangle sent (\(placement.sent?.description ?? "")) is \(dx),\(dy) px away from the caret on screen (\(placement.caret?.description ?? ""))",
             nil)
        case let .popupAwayFromCaret(distance):
            ("the candidate window (\(placement.popup?.description ?? "")) is \(distance) px away from the caret (\(placement.caret?.description ?? ""))",
             placement.findings.contains(.ibusWindowHeightRectangle) ? "ibus/ibus#2522" : nil)
        }
    }
}
