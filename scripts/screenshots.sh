#!/usr/bin/env bash
# Regenerates docs/screenshots/forms/: every form filled with its example, in the light and
# dark themes, at 1024x700 and 1600x1000, rendered in a real X server (Xvfb) on a fresh
# profile with the built-in local sandbox; then docs/screenshots/*-{light,dark}.png, the
# documentation's scenes and dialogs at 1024x700 (scripts/screenshot_scenes.py). Uses $DISPLAY when set, else starts its own Xvfb.
#   scripts/screenshots.sh            (needs Xvfb, or a running X server)
#   CONSOLE=gateway-console scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."

console=${CONSOLE:-.venv/bin/gateway-console}
python=${PYTHON:-.venv/bin/python}
out=docs/screenshots/forms
forms="payout-check create-card-ref create-recurring-payment status"
themes="light dark"
sizes="1024x700 1600x1000"

home=$(mktemp -d)
xvfb=""
cleanup() {
    if [ -n "$xvfb" ]; then kill "$xvfb" 2>/dev/null || true; fi
    rm -rf "$home"
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
    # -displayfd: Xvfb picks a free display number and writes it once it accepts clients
    Xvfb -displayfd 1 -screen 0 1920x1200x24 -nolisten tcp >"$home/display" 2>"$home/xvfb.log" &
    xvfb=$!
    for _ in $(seq 100); do
        [ -s "$home/display" ] && break
        sleep 0.1
    done
    [ -s "$home/display" ] || { cat "$home/xvfb.log" >&2; echo "Xvfb did not start" >&2; exit 1; }
    export DISPLAY=":$(head -n1 "$home/display")"
fi

export GATEWAY_CONSOLE_HOME="$home/profile" QT_QPA_PLATFORM=xcb
unset GATEWAY_CONSOLE_THEME
mkdir -p "$out"
for form in $forms; do
    for theme in $themes; do
        for size in $sizes; do
            "$console" --screenshot "$out/$form-$theme-$size.png" --command "$form" \
                --fill-example --theme "$theme" --size "$size"
        done
    done
done

for theme in $themes; do
    GATEWAY_CONSOLE_HOME="$home/scenes-$theme" "$python" scripts/screenshot_scenes.py "$theme" \
        docs/screenshots
done

# Every dialog at 1024x700 (tests/ui/test_dialogs_fit.py opens the same ones): on an
# offscreen screen of that size, as a dialog's own picture.
mkdir -p docs/screenshots/dialogs
printf '%s' '{"windowFrameMargins": true, "screens": [{"name": "small", "x": 0, "y": 0, "width": 1024, "height": 700}]}' >"$home/small-screen.json"
for theme in $themes; do
    QT_QPA_PLATFORM="offscreen:configfile=$home/small-screen.json" \
        GATEWAY_CONSOLE_HOME="$home/dialogs-$theme" \
        "$python" -m tests.helpers.every_dialog "$theme" docs/screenshots/dialogs
done
