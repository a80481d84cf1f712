"""Start the window: QApplication, paths, theme, first-run sandbox, and ``--screenshot``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit

from console import APP_ID, APP_NAME
from console.core import logs
from console.core.environments import EnvironmentStore, EnvironmentStoreError, connect
from console.core.masking import mask_pan, pan_fields
from console.core.paths import AppPaths, resolve
from console.core.spec import COMMANDS
from console.ui.drafts import DraftStore
from console.ui.main_window import MainWindow
from console.ui.qt_messages import install as install_message_filter
from console.ui.session import Session
from console.ui.startup import AfterFirstPaint
from console.ui.theme import apply_theme

if TYPE_CHECKING:
    from console.core.environments import Connection, Environment


@dataclass
class Start:
    """How the window starts: the session, whether the local sandbox must be started (first
    run, or it is the active environment), a plain-words note when something went wrong,
    and the configured environment whose key is still to be read from the keyring."""

    session: Session
    needs_sandbox: bool = False
    note: str = ""
    key_of: Environment | None = None
    connect: Callable[[], Connection] | None = None


def start_session(paths: AppPaths) -> Start:
    """Choose the environment: the active configured one, else the local sandbox. Its key
    is read from the keyring later, on a worker: the window shows first, Send waits."""
    if not paths.environments_file.exists():
        return Start(Session(), True)  # first run: nothing to read, no keyring needed
    store = EnvironmentStore(paths)
    session = Session(store)
    try:
        env = store.active()
    except EnvironmentStoreError as exc:  # a damaged file must not keep the window closed
        return Start(session, True, f"The environments file could not be read: {exc}")
    if env.builtin:
        return Start(session, True)
    return Start(session, key_of=env, connect=lambda: connect(env.name, store=store))


def make_app(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once), with names, icon and the saved theme."""
    install_message_filter()
    app = QApplication.instance()
    created = not isinstance(app, QApplication)
    if not isinstance(app, QApplication):
        # The style named on the command line is made by Qt when first needed; setStyle()
        # would hand a QStyle back to Python, and wrapping it builds the QStyle type with
        # its dozen large enums (about 7 ms of every start).
        args = argv if argv is not None else sys.argv[:1]
        app = QApplication([*args, "-style", "Fusion"])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("gateway-console")
    app.setDesktopFileName(APP_ID)
    # an application made earlier (a second window in one process) keeps its Fusion: setting
    # a style again re-polishes every widget, about 50 ms with a window open
    fusion = created or app.style().name().lower() == "fusion"
    apply_theme(app, os.environ.get("GATEWAY_CONSOLE_THEME", "system"), set_style=not fusion)
    return app


def build_window(
    paths: AppPaths,
    *,
    command: str | None = None,
    fill_example: bool = False,
    sandbox_options: dict[str, Any] | None = None,
) -> MainWindow:
    """The main window on a fresh session (used by run_app, tests and benchmarks)."""
    paths.ensure()
    start = start_session(paths)
    session, needs_sandbox, note = start.session, start.needs_sandbox, start.note
    drafts = DraftStore(paths.config_dir)
    app = QApplication.instance()
    if (
        drafts.theme
        and not os.environ.get("GATEWAY_CONSOLE_THEME")
        and isinstance(app, QApplication)
    ):
        apply_theme(app, drafts.theme, set_style=False)  # the theme chosen last time
    session.sandbox_coming = needs_sandbox and session.environment is None
    window = MainWindow(session, drafts)
    if start.key_of is not None and start.connect is not None:
        # a configured environment: shown at once, its key read from the keyring on a worker
        # (a locked keyring must not keep the window from appearing); Send waits for it
        window.environment.switch_to(start.key_of, start.connect)
    if needs_sandbox:
        # after the first paint: the window appears at once, the sandbox follows
        window.banner.show_starting()
        options = sandbox_options or {}
        AfterFirstPaint(window, lambda: window.start_local_sandbox(**options))
    if command:
        window.show_command(command)
    if fill_example:
        window.fill_example()
    if note and note not in session.problem:  # the banner says it already, once
        window.show_result("warning", note)
    return window


def screenshot(window: MainWindow, target: Path) -> bool:
    """Render the window (already shown) to a PNG; card numbers show six and four digits."""
    for name in pan_fields():
        for edit in window.findChildren(QLineEdit, f"field:{name}"):
            edit.blockSignals(True)  # the picture only: nothing is validated or kept
            edit.setText(mask_pan(edit.text()))
            edit.blockSignals(False)
    app = QApplication.instance()
    for _ in range(5):
        if app is not None:
            app.processEvents()
    return bool(window.grab().save(str(target), "PNG"))


def run_app(args: argparse.Namespace) -> int:
    """Entry point of ``gateway-console gui``; returns the exit status."""
    # The rotating, redacted log file opens after the first paint (see open_log); what is
    # logged before is kept and written then.
    logs.hold()
    shot = getattr(args, "screenshot", None)
    if shot and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # render without a display
    theme = getattr(args, "theme", None)
    if theme:  # for this start only, as GATEWAY_CONSOLE_THEME: the saved choice is kept
        os.environ["GATEWAY_CONSOLE_THEME"] = theme
    app = make_app()
    command = getattr(args, "form_command", None)
    if command and command not in COMMANDS:
        print(f"Unknown command {command!r}: use one of {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    window = build_window(
        resolve(), command=command, fill_example=getattr(args, "fill_example", False)
    )
    if not shot:
        AfterFirstPaint(window, open_log)
    window.show()
    # the keyboard (and a screen reader) starts in the console, also without a window
    # manager that would hand a new window the focus
    window.activateWindow()
    size = getattr(args, "size", None)
    if size:
        window.resize(*size)
    if shot:
        open_log()
        window.persist_drafts = False
        window.wait_ready(15_000)  # the banner should show the running sandbox
        ok = screenshot(window, Path(shot))
        window.close()
        window.session.stop_sandbox()
        if not ok:
            print(f"Could not write {shot}", file=sys.stderr)
            return 1
        print(shot)
        return 0
    app.aboutToQuit.connect(window.session.stop_sandbox)
    QTimer.singleShot(0, window.form.focus_first)
    return int(app.exec())


def open_log() -> None:
    """Open the log file and write the start-up line (version, resources found): once the
    window is up, as neither is needed for its first picture."""
    logs.configure(startup_line=True)
