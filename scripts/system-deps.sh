#!/usr/bin/env sh
# Installs the shared libraries Qt needs on Debian/Ubuntu when they are missing.
# Does nothing on other systems or when everything is present.
set -eu
[ "$(uname -s)" = "Linux" ] || exit 0
command -v ldconfig >/dev/null 2>&1 || exit 0
missing=""
# offscreen needs the first line; a real X11 window (Qt's xcb plugin) needs the rest.
for pair in libEGL.so.1:libegl1 libGL.so.1:libgl1 libxkbcommon.so.0:libxkbcommon0 \
            libfontconfig.so.1:libfontconfig1 libdbus-1.so.3:libdbus-1-3 \
            libxkbcommon-x11.so.0:libxkbcommon-x11-0 libxcb-cursor.so.0:libxcb-cursor0 \
            libxcb-icccm.so.4:libxcb-icccm4 libxcb-image.so.0:libxcb-image0 \
            libxcb-keysyms.so.1:libxcb-keysyms1 libxcb-randr.so.0:libxcb-randr0 \
            libxcb-render-util.so.0:libxcb-render-util0 libxcb-shape.so.0:libxcb-shape0 \
            libxcb-xinerama.so.0:libxcb-xinerama0 libxcb-xkb.so.1:libxcb-xkb1 \
            libxcb-xfixes.so.0:libxcb-xfixes0 libxcb-sync.so.1:libxcb-sync1 \
            libxcb-shm.so.0:libxcb-shm0 libxcb-util.so.1:libxcb-util1 \
            libX11-xcb.so.1:libx11-xcb1; do
    lib=${pair%%:*}; pkg=${pair##*:}
    ldconfig -p | grep -q "$lib" || missing="$missing $pkg"
done
[ -n "$missing" ] || exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    echo "Installing libraries Qt needs:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
else
    echo "Qt may not start: missing$missing (install them with your package manager)" >&2
fi
