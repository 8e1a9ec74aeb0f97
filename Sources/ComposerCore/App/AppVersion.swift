/// The one version of ime-composer.
///
/// `ime-composer --version` prints it; meson reads it from this file (`meson.build`'s
/// `project(version:)`), `make deb` from the binary, and the newest `<release>` of
/// `data/io.github.imecomposer.ImeComposer.metainfo.xml` must name it (a test checks).
/// Raise it here, then add the release to the metainfo.
public enum AppVersion {
    public static let current = "0.1.0"
}
