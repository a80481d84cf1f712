#!/usr/bin/env sh
# Builds the one-folder application into dist/gateway-console/ on Linux or macOS, in a
# virtual environment of its own (build/package-venv, or $VENV). On Windows run the same
# steps by hand (see docs/packaging.md).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${VENV:-$root/build/package-venv}
python=${PYTHON:-python3}
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$root[gui,package]"
cd "$root"
"$venv/bin/pyinstaller" --noconfirm --clean \
    --distpath "$root/dist" --workpath "$root/build/pyinstaller" packaging/gateway-console.spec
echo "Built $root/dist/gateway-console/ ($(du -sh "$root/dist/gateway-console" | cut -f1))"
