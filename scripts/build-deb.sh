#!/usr/bin/env bash
# Builds the Debian package of ime-composer from a built binary:
#   scripts/build-deb.sh BINARY OUTDIR
# `make deb` passes the release build (Swift runtime linked statically). The version is the
# binary's own (`ime-composer --version`, ComposerCore's AppVersion); Depends is computed by
# dpkg-shlibdeps from the libraries the binary links; the files are those `make install`
# installs (make install-files), plus the Debian copyright and changelog. The package is
# checked with lintian: an error fails the build; the warnings that remain are explained in
# meson-notes.md ("Debian package"). Prints the package's path last.
set -euo pipefail

die() { echo "build-deb: error: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: scripts/build-deb.sh BINARY OUTDIR"
bin=$1 out=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -x "$bin" ] || die "$bin is not an executable (build it first: make deb builds the release binary)"
for tool in dpkg-deb dpkg-shlibdeps lintian strip python3; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run make deps"
done

version=$("$bin" --version) || die "$bin --version failed"
[[ $version =~ ^[0-9]+(\.[0-9]+)*$ ]] || die "$bin --version printed '$version', not a version"
# The metainfo's newest release must be this version (software centres show it).
release=$(sed -n 's/.*<release version="\([^"]*\)" date="\([^"]*\)".*/\1 \2/p' \
    "$root/data/io.github.imecomposer.ImeComposer.metainfo.xml" | head -n 1)
[ "${release%% *}" = "$version" ] || die "the metainfo's newest release is '${release%% *}', the binary is $version"
release_date=${release#* }
arch=$(dpkg --print-architecture)
maintainer="The IME Composer developers <maintainers@users.noreply.github.com>"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/ime-composer

make -C "$root" --no-print-directory install-files BIN="$(realpath "$bin")" \
    DESTDIR="$pkg" PREFIX=/usr >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/ime-composer"

# Debian compresses manual pages.
gzip -9n "$pkg/usr/share/man/man1/ime-composer.1"

doc=$pkg/usr/share/doc/ime-composer
install -Dm644 "$root/data/debian/copyright" "$doc/copyright"
{
    echo "ime-composer ($version) unstable; urgency=medium"
    echo
    echo "  * Release $version (release notes: the AppStream metainfo)."
    echo
    echo " -- $maintainer  $(date -u -R -d "$release_date")"
} | gzip -9n > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control of the directory it runs in.
mkdir -p "$stage/debian"
printf 'Source: ime-composer\n\nPackage: ime-composer\nArchitecture: any\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O "ime-composer/usr/bin/ime-composer" 2>"$stage/shlibdeps.err") ||
    { cat "$stage/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
depends=${depends#shlibs:Depends=}
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"

mkdir -p "$pkg/DEBIAN"
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
installed_size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
cat > "$pkg/DEBIAN/control" <<EOF
Package: ime-composer
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: ibus-gtk4 | fcitx5-frontend-gtk4
Suggests: ibus-anthy, ibus-hangul, fcitx5-anthy, fcitx5-hangul
Section: net
Priority: optional
Homepage: https://github.com/imecomposer/ImeComposer
Description: chat message composer that is correct with input methods
 The input bar of a chat app, correct with real input methods: Japanese
 conversion, Korean syllable composition, Chinese, Vietnamese and Hindi
 engines, dead keys and compose sequences, through IBus and Fcitx5, on X11
 and Wayland. Enter while composing confirms the composition and never sends
 half a message; the length limit never cuts a word still being composed;
 nothing typed is lost when the input method stops or the app is closed.
 .
 It is also a lab for people who test input methods: an inspector of what the
 input method sends while you type, a matrix of real engines in private
 sessions (ime-composer matrix) and transcripts that replay a session.
EOF
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
find "$pkg" -type d -exec chmod 755 {} +

mkdir -p "$out"
deb="$out/ime-composer_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null

# lintian: errors fail the build; the remaining warnings are listed (and explained in meson-notes.md).
lintian_status=0
lintian_out=$(lintian --tag-display-limit 0 --fail-on error "$deb" 2>"$stage/lintian.err") || lintian_status=$?
if [ $lintian_status -ne 0 ]; then
    echo "$lintian_out" >&2; cat "$stage/lintian.err" >&2
    die "lintian reported errors for $deb (status $lintian_status)"
fi
[ -z "$lintian_out" ] || echo "$lintian_out"
echo "$deb"
