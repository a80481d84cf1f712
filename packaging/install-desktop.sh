#!/usr/bin/env sh
# Puts Gateway Console into the Linux application menu: the desktop entry, the icon in every
# size (hicolor theme, named by the application id) and the AppStream metainfo.
#
#   packaging/install-desktop.sh [COMMAND]
#
# COMMAND is what the menu runs: by default `gateway-console` from PATH (pip install), or e.g.
# the one-folder build's dist/gateway-console/gateway-console. Installs for the current user
# under ~/.local/share, or under $PREFIX/share when PREFIX is set (PREFIX=/usr/local as root).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
app_id=$(sed -n 's/^APP_ID = "\(.*\)"$/\1/p' "$here/../console/__init__.py")
command=${1:-gateway-console}
case "$command" in */*) command=$(cd "$(dirname "$command")" && pwd)/$(basename "$command") ;; esac
share=${PREFIX:+$PREFIX/share}
share=${share:-${XDG_DATA_HOME:-$HOME/.local/share}}
resources="$here/../resources"

for size in 16 24 32 48 64 128 256 512; do
    install -D -m 644 "$resources/app-icon-$size.png" \
        "$share/icons/hicolor/${size}x${size}/apps/$app_id.png"
done
install -D -m 644 "$resources/app-icon.svg" "$share/icons/hicolor/scalable/apps/$app_id.svg"
install -D -m 644 "$here/$app_id.metainfo.xml" "$share/metainfo/$app_id.metainfo.xml"
mkdir -p "$share/applications"
# Exec takes the command quoted, as the desktop entry specification asks for paths
sed "s|^Exec=.*|Exec=\"$command\"|" "$here/$app_id.desktop" > "$share/applications/$app_id.desktop"
chmod 644 "$share/applications/$app_id.desktop"
command -v update-desktop-database >/dev/null 2>&1 \
    && update-desktop-database -q "$share/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 \
    && gtk-update-icon-cache -q -t "$share/icons/hicolor" || true
echo "Installed $app_id under $share (menu entry runs: $command)"
