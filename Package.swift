// swift-tools-version: 6.2
// The composer: a GTK4 message input bar that is correct with real input methods.
// Layers (see ARCHITECTURE.md): CGtk (C interop) → GtkBinding (Swift wrappers) → ComposerApp
// (widgets and wiring) over ComposerCore (pure decisions, no GTK).
import PackageDescription

let package = Package(
    name: "ime-composer",
    products: [
        .executable(name: "ime-composer", targets: ["ime-composer"]),
        .executable(name: "completion-benchmark", targets: ["completion-benchmark"]),
        .executable(name: "app-benchmark", targets: ["app-benchmark"]),
        .executable(name: "keystroke-cpu", targets: ["keystroke-cpu"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // GTK 4 and libadwaita 1.2 (its pkg-config requires gtk4): one module, so that GTK's
        // declarations come from one place.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]
        ),
        // GtkSourceView 5: only the completion benchmark links it (its fuzzy matcher is the yardstick).
        .systemLibrary(
            name: "CGtkSourceView",
            pkgConfig: "gtksourceview-5",
            providers: [.apt(["libgtksourceview-5-dev"])]
        ),
        // GTK is single-threaded: everything here runs on the main actor unless marked
        // otherwise, and the C trampolines assert it (MainActor.assumeIsolated).
        .target(
            name: "GtkBinding",
            dependencies: ["CGtk"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .target(
            name: "ComposerCore",
            dependencies: [.product(name: "_RopeModule", package: "swift-collections")]
        ),
        // The profile's durable state (the draft, the sent messages) in SQLite through GRDB:
        // no GTK, testable without a display.
        .target(
            name: "ComposerStore",
            dependencies: ["ComposerCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // What the doctor and the IME inspector ask the running session (commands with a
        // time limit, the session bus), one way, one parser per answer.
        .target(name: "EnvironmentProbe"),
        .target(
            name: "ComposerApp",
            dependencies: ["GtkBinding", "ComposerCore", "ComposerStore", "EnvironmentProbe"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .executableTarget(
            name: "ime-composer",
            dependencies: [
                "ComposerApp", "ComposerCore", "EnvironmentProbe", "IMELab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The release binary's own memory (issue #35; docs/benchmarks.md's findings): linked
            // by the toolchain's lld with packed relative relocations (DT_RELR: glibc 2.36, Debian
            // 12), 17 KB where gold wrote 2 MB of them that the loader read at every start and
            // kept resident; and no dynamic symbol table of its ~14,000 Swift symbols (SwiftPM
            // exports them; only tests of executables need that, and those are debug builds),
            // which the loader searched on every symbol lookup. Together 3 MB less RSS. And the
            // functions that run at start-up and per key placed together, first
            // (scripts/ime-composer.order, `make symbol-order`): 3 MB less of the binary resident.
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "--no-export-dynamic",
                              "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/ime-composer.order",
                              "-Xlinker", "--no-warn-symbol-ordering"],
                             .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        // The headless demo `make run` runs without a display: a real private session
        // (Xvfb, D-Bus, IBus) driven through the same harness as the end-to-end tests.
        .executableTarget(
            name: "composer-demo",
            dependencies: [
                "ComposerCore", "IMELab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make bench`: completion over 100,000 people, ours vs gtk_source_completion_fuzzy_match.
        .executableTarget(
            name: "completion-benchmark",
            dependencies: [
                "ComposerCore", "CGtkSourceView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Callgrind client requests (valgrind's headers) for keystroke-cpu; no-ops without them.
        .systemLibrary(
            name: "CCallgrind",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["valgrind", "libglib2.0-dev"])]
        ),
        // `make bench`: instructions per committed keystroke in a real composer window, 1 KB
        // vs 1 MB draft, under callgrind in a private Xvfb (the controllers vs GTK's insert).
        .executableTarget(
            name: "keystroke-cpu",
            dependencies: [
                "ComposerApp", "ComposerCore", "GtkBinding", "CCallgrind", "IMELab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make bench`: keystroke to first paint, idle CPU and wake-ups, start to first frame
        // and memory of the release composer against plain C GTK4 references
        // (Benchmarks/reference), measured from outside by Benchmarks/meter/paint-meter.c
        // (X Damage + XTest) in private Xvfb sessions, GTK's simple IM and ibus-anthy.
        .executableTarget(
            name: "app-benchmark",
            dependencies: [
                "ComposerCore", "ComposerStore", "IMELab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The input-method lab: private sessions (Xvfb, headless sway, D-Bus, IBus, Fcitx5,
        // unprivileged users), the app driven in them, its trace read back. Product code:
        // the tests, the demo, the benchmarks and `ime-composer matrix` use it.
        .target(
            name: "IMELab",
            dependencies: ["ComposerCore", "EnvironmentProbe"]
        ),
        // What only the suites need on top of the lab: the scripted engine from the source
        // tree, the transcripts kept under Tests/Transcripts.
        .target(
            name: "TestHarness",
            dependencies: ["IMELab", "ComposerCore"],
            path: "Tests/TestHarness"
        ),
        .testTarget(
            name: "ComposerCoreTests",
            dependencies: [
                "ComposerCore", "EnvironmentProbe",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ComposerStoreTests",
            dependencies: ["ComposerStore", "ComposerCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ComposerGtkTests",
            dependencies: ["ComposerApp", "GtkBinding", "ComposerCore", "ComposerStore", "TestHarness"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ComposerCore", "ComposerStore", "TestHarness"],
            // The scripted IBus engine is a Python program the tests start from the source tree.
            exclude: ["Engines"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
