#!/usr/bin/env sh
# Validates the desktop entry and the AppStream metainfo, and checks that both use the
# application id from console/__init__.py (APP_ID) as file name, id and icon name.
# Installs the validators (Debian packages desktop-file-utils and appstream) when they are
# missing and this runs as root with apt-get; otherwise says what to install and fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
app_id=$(sed -n 's/^APP_ID = "\(.*\)"$/\1/p' "$here/../console/__init__.py")
[ -n "$app_id" ] || { echo "APP_ID not found in console/__init__.py" >&2; exit 1; }

need=""
command -v desktop-file-validate >/dev/null 2>&1 || need="$need desktop-file-utils"
command -v appstreamcli >/dev/null 2>&1 || need="$need appstream"
if [ -n "$need" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
        echo "Installing validators:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need \
            >/dev/null
    else
        echo "Missing validators:$need (install them with your package manager)" >&2
        exit 1
    fi
fi

desktop="$here/$app_id.desktop"
metainfo="$here/$app_id.metainfo.xml"
fail=0
grep -qx "Icon=$app_id" "$desktop" || { echo "$desktop: Icon= is not $app_id" >&2; fail=1; }
grep -q "<id>$app_id</id>" "$metainfo" || { echo "$metainfo: <id> is not $app_id" >&2; fail=1; }
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" \
    || { echo "$metainfo: launchable is not $app_id.desktop" >&2; fail=1; }

echo "desktop-file-validate $app_id.desktop"
desktop-file-validate "$desktop" || fail=1
echo "appstreamcli validate --no-net $app_id.metainfo.xml"
appstreamcli validate --no-net "$metainfo" || fail=1
[ "$fail" -eq 0 ] && echo "desktop entry and metainfo are valid"
exit "$fail"
