#!/usr/bin/env sh
# Installs the shared libraries Qt needs on Debian/Ubuntu when they are missing.
# Does nothing on other systems or when everything is present.
set -eu
[ "$(uname -s)" = "Linux" ] || exit 0
command -v ldconfig >/dev/null 2>&1 || exit 0
missing=""
for pair in libEGL.so.1:libegl1 libGL.so.1:libgl1 libxkbcommon.so.0:libxkbcommon0 \
            libfontconfig.so.1:libfontconfig1 libdbus-1.so.3:libdbus-1-3 \
            libxkbcommon-x11.so.0:libxkbcommon-x11-0 libxcb-cursor.so.0:libxcb-cursor0; do
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
