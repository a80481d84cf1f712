"""A screen reader's journey through the running window, read through AT-SPI.

Run by ``test_atspi_journey.py`` with the system's Python (pyatspi is a system package),
inside the D-Bus session and X server that test starts:

    /usr/bin/python3 tests/ui/atspi_journey.py COMMAND...

It starts COMMAND (the console, with Qt's accessibility on), finds its window in the
accessibility tree, then, with the keyboard only
(keys sent through AT-SPI, as a person's would be): Ctrl+E fills the payout form with its
example; Tab until the focus is on "Skip to Send"; Enter; Enter on Send. It prints one JSON
object: what had the focus at each step, the outcome read from the tree, and what was
announced (``object:announcement``) or renamed on the way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]

CONTROL_MASK = 1 << 2
KEYSYMS = {"Tab": 0xFF09, "Return": 0xFF0D, "e": 0x65}
TAB_LIMIT = 80


def answered(line: str) -> bool:
    """The outcome line once the payout is accepted, or already the final status that the
    sandbox's callback brings right after (on a loaded machine, before this looks again)."""
    return "Accepted" in line or line.startswith("Final status approved")


def find_app(pid: int, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.get_process_id() == pid:
                return app
        time.sleep(0.3)
    raise SystemExit(f"no application of process {pid} in the accessibility tree")


def walk(node: Any, depth: int = 0) -> Any:
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.childCount):
        yield from walk(node.getChildAtIndex(i), depth + 1)


def describe(node: Any) -> dict[str, Any]:
    states = node.getState()
    try:
        extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        box = [extents.x, extents.y, extents.width, extents.height]
    except NotImplementedError:
        box = []
    return {
        "role": node.getRoleName(),
        "name": node.name,
        "description": node.description,
        "showing": states.contains(pyatspi.STATE_SHOWING),
        "box": box,
    }


def labels(app: Any, description: str) -> list[dict[str, Any]]:
    return [
        describe(n)
        for n in walk(app)
        if n.getRoleName() == "label"
        and n.description == description
        and n.getState().contains(pyatspi.STATE_SHOWING)
    ]


def key(name: str, *, ctrl: bool = False) -> None:
    generate = pyatspi.Registry.generateKeyboardEvent
    if ctrl:
        generate(CONTROL_MASK, None, pyatspi.KEY_LOCKMODIFIERS)
    generate(KEYSYMS[name], None, pyatspi.KEY_SYM)
    if ctrl:
        generate(CONTROL_MASK, None, pyatspi.KEY_UNLOCKMODIFIERS)


def pump(seconds: float) -> None:
    """Let events arrive (the listeners run) for a while."""
    loop = GLib.MainLoop()
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    loop.run()


def wait_for(test: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        pump(0.2)
    return None


def main() -> None:
    env = dict(os.environ, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_QPA_PLATFORM="xcb")
    console = subprocess.Popen(sys.argv[1:], env=env)
    try:
        journey(console.pid)
    finally:
        console.terminate()
        try:
            console.wait(20)
        except subprocess.TimeoutExpired:
            console.kill()


def journey(pid: int) -> None:
    heard: list[dict[str, str]] = []
    focus: list[dict[str, Any]] = []  # what got the focus, in turn

    def focused(_app: Any) -> dict[str, Any] | None:
        return focus[-1] if focus else None

    def listen(event: Any) -> None:
        source = event.source
        if str(event.type).startswith("object:state-changed:focused"):
            if event.detail1 == 1 and source is not None:
                focus.append(describe(source))
            return
        heard.append(
            {
                "type": str(event.type),
                "text": str(event.any_data) if event.any_data is not None else "",
                "name": source.name if source is not None else "",
            }
        )

    pyatspi.Registry.registerEventListener(
        listen,
        "object:announcement",
        "object:property-change:accessible-name",
        "object:state-changed:focused",
    )
    app = find_app(pid, 60)
    report: dict[str, Any] = {"steps": []}
    ready = wait_for(
        lambda: any("key is loaded" in n.name for n in walk(app) if n.getRoleName() == "label"),
        60,
    )
    report["ready"] = bool(ready)
    frame = next(n for n in walk(app) if n.getRoleName() == "frame")
    report["frame"] = frame.name
    pump(1.0)
    key("e", ctrl=True)  # Fill with example
    summary = wait_for(
        lambda: [s for s in labels(app, "Validation summary") if "Ready to send" in s["name"]],
        15,
    )
    report["summary"] = summary[0]["name"] if summary else labels(app, "Validation summary")

    def press(name: str) -> dict[str, Any] | None:
        """A key, then the focus it moved to (waits for the focus event; a slow machine
        must not read the stop before)."""
        count = len(focus)
        key(name)
        wait_for(lambda: len(focus) > count, 5)
        pump(0.1)
        return focused(app)

    for _ in range(TAB_LIMIT):
        here = press("Tab")
        report["steps"].append(here)
        if here and here["name"] == "Skip to Send":
            break
    report["after_skip"] = press("Return")  # on "Skip to Send": to Send
    report["after_send"] = press("Return")  # on Send: the cursor moves off it, in sight
    outcome = wait_for(  # a loaded machine (a whole test run beside it) may take its time;
        # the sandbox's callback may follow the acceptance before this reads the line again
        lambda: [r for r in labels(app, "Last outcome") if answered(r["name"])],
        90,
    )
    report["outcome"] = outcome[0] if outcome else labels(app, "Last outcome")
    report["focus_at_outcome"] = focused(app)
    pump(1.0)
    report["why_send_is_off"] = labels(app, "Why Send is off")
    report["heard"] = heard
    print(json.dumps(report))


if __name__ == "__main__":
    main()
