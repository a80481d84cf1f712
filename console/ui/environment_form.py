"""The settings of one environment, as a form with the core's rules checked while typing."""

from __future__ import annotations

import html
from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from console.core.environments import (
    CallbackListenerSettings,
    Environment,
    EnvKind,
    FieldProblem,
    problems,
)
from console.core.spec import COMMANDS
from console.ui.theme import state_colour

KINDS = ((EnvKind.SANDBOX, "Sandbox (integration)"), (EnvKind.PRODUCTION, "Production"))
URL_RULE = "https is required; plain http only for this computer (localhost, 127.0.0.1, ::1)."
URL_HINT = "https://HOST/paynet"


def _seconds(maximum: float, value: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0.0, maximum)
    box.setDecimals(1)
    box.setSuffix(" s")
    box.setValue(value)
    return box


class EnvironmentForm(QWidget):
    """Every setting of an :class:`Environment`; ``changed`` on each edit.

    Path templates start as the contract's paths (contract section 4: paths may change);
    only the ones edited are stored. The merchant control secret is not part of the
    environment: it goes to the OS keyring when saved.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = QLineEdit()
        self.kind = QComboBox()
        for kind, text in KINDS:
            self.kind.addItem(text, kind)
        self.base_url = QLineEdit()
        self.base_url.setPlaceholderText(URL_HINT)
        self.url_rule = QLabel(URL_RULE)
        self.url_rule.setWordWrap(True)
        self.url_rule.setAccessibleDescription("Base URL rule")
        self.login = QLineEdit()
        self.endpoint_id = QLineEdit()
        self.endpoint_group_id = QLineEdit()
        self.templates = QTableWidget(0, 3)
        self.templates.setHorizontalHeaderLabels(["Command", "Form", "Path after the base URL"])
        self.templates.verticalHeader().setVisible(False)
        header = self.templates.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.templates.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        self.templates.setAccessibleName("Path templates")
        self.templates.setMinimumHeight(150)
        self.connect_timeout = _seconds(300, 10)
        self.read_timeout = _seconds(600, 60)
        self.ca_bundle = QLineEdit()
        self.ca_bundle.setPlaceholderText("empty: the system's certificate authorities")
        self.browse = QPushButton("Browse…")
        self.browse.clicked.connect(self._browse)
        self.redirect_placeholder = QLineEdit()
        self.redirect_placeholder.setPlaceholderText("empty: {base URL}/redirect-placeholder")
        self.listen = QCheckBox("Listen for callbacks while this environment is in use")
        self.listen_host = QLineEdit("127.0.0.1")
        self.listen_port = QSpinBox()
        self.listen_port.setRange(0, 65535)
        self.listen_port.setValue(8080)
        self.listen_port.setToolTip(
            "Deployed gateways call back only on ports 80, 8080, 443 and 8443 (field notes)."
        )
        self.control_secret = QLineEdit()
        self.control_secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.control_secret.setPlaceholderText("unchanged (kept in the OS keyring)")
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setAccessibleDescription("Problems with these settings")

        ca = QHBoxLayout()
        ca.addWidget(self.ca_bundle, 1)
        ca.addWidget(self.browse)
        listen = QHBoxLayout()
        listen.addWidget(self.listen_host, 1)
        port = QLabel("port")
        port.setBuddy(self.listen_port)
        listen.addWidget(port)
        listen.addWidget(self.listen_port)
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Kind", self.kind)
        form.addRow("Base URL", self.base_url)
        form.addRow("", self.url_rule)
        form.addRow("Login", self.login)
        form.addRow("Endpoint id", self.endpoint_id)
        form.addRow("Endpoint group id", self.endpoint_group_id)
        form.addRow("Paths", self.templates)
        form.addRow("Connect timeout", self.connect_timeout)
        form.addRow("Read timeout", self.read_timeout)
        form.addRow("CA bundle", ca)
        form.addRow("Redirect placeholder", self.redirect_placeholder)
        form.addRow("Callbacks", self.listen)
        form.addRow("Listen on", listen)
        form.addRow("Merchant control", self.control_secret)
        # a row whose field is a layout gets a label that labels nothing: name its editor
        for row_layout, editor in ((ca, self.ca_bundle), (listen, self.listen_host)):
            label = form.labelForField(row_layout)
            if isinstance(label, QLabel):
                label.setBuddy(editor)
        form.addRow(self.problems)
        for edit in (
            self.name,
            self.base_url,
            self.login,
            self.endpoint_id,
            self.endpoint_group_id,
            self.ca_bundle,
            self.redirect_placeholder,
            self.listen_host,
        ):
            edit.textChanged.connect(self._edited)
        for edit, field in (
            (self.name, "name"),
            (self.base_url, "base_url"),
            (self.login, "login"),
            (self.endpoint_id, "endpoint_id"),
            (self.endpoint_group_id, "endpoint_group_id"),
            (self.ca_bundle, "ca_bundle"),
            (self.redirect_placeholder, "redirect_placeholder"),
        ):
            edit.editingFinished.connect(lambda f=field: self._touch(f))
        self.kind.currentIndexChanged.connect(self._edited)
        self.templates.itemChanged.connect(self._edited)
        for box in (self.connect_timeout, self.read_timeout, self.listen_port):
            box.valueChanged.connect(self._edited)
        self.listen.toggled.connect(self._edited)
        self._loading = False
        # a new environment asks calmly; a field turns red once the person has left it, or
        # tried to save (a stored environment shows its problems at once: they are real)
        self._touched: set[str] = set()
        self._all_touched = False
        self._builtin = False
        self.load(Environment(name="", kind=EnvKind.SANDBOX))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "CA bundle", "", "PEM (*.pem *.crt);;All (*)")
        if path:
            self.ca_bundle.setText(path)

    def set_read_only(self, read_only: bool) -> None:
        """Settings to read, not to change (the built-in sandbox's): the fields keep the
        full text colour (a disabled field's grey is about 2.5:1); what has no read-only
        state (the choices, Browse…) is off."""
        for edit in (
            self.name, self.base_url, self.login, self.endpoint_id, self.endpoint_group_id,
            self.ca_bundle, self.redirect_placeholder, self.listen_host, self.control_secret,
        ):  # fmt: skip
            edit.setReadOnly(read_only)
        for box in (self.connect_timeout, self.read_timeout, self.listen_port):
            box.setReadOnly(read_only)
        triggers = QAbstractItemView.EditTrigger
        self.templates.setEditTriggers(
            triggers.NoEditTriggers if read_only else triggers.AllEditTriggers
        )
        for control in (self.kind, self.browse, self.listen):
            control.setEnabled(not read_only)

    def load(self, env: Environment) -> None:
        """Show ``env`` (path templates filled with the contract's where it has none)."""
        self._loading = True
        try:
            self.name.setText(env.name)
            self.kind.setCurrentIndex(max(self.kind.findData(env.kind), 0))
            self.base_url.setText(env.base_url)
            # the built-in sandbox's address is known once it runs: no address to write
            self.base_url.setPlaceholderText("set when it starts" if env.builtin else URL_HINT)
            self.login.setText(env.login)
            self.endpoint_id.setText(env.endpoint_id)
            self.endpoint_group_id.setText(env.endpoint_group_id)
            self._load_templates(env)
            self.connect_timeout.setValue(env.connect_timeout)
            self.read_timeout.setValue(env.read_timeout)
            self.ca_bundle.setText(env.ca_bundle)
            self.redirect_placeholder.setText(env.redirect_placeholder)
            self.listen.setChecked(env.callback.enabled)
            self.listen_host.setText(env.callback.host)
            self.listen_port.setValue(env.callback.port)
            self.control_secret.clear()
        finally:
            self._loading = False
        self._touched.clear()
        self._all_touched = bool(env.name)
        self._builtin = env.builtin
        self._edited()

    def _touch(self, field: str) -> None:
        if field not in self._touched:
            self._touched.add(field)
            self._edited()

    def mark_attempted(self) -> None:
        """A save was tried: every problem is a mistake now, not something still to fill in."""
        self._all_touched = True
        self._edited()

    def _shown_as_mistake(self, problem: FieldProblem) -> bool:
        return self._all_touched or problem.field in self._touched

    def _load_templates(self, env: Environment) -> None:
        rows = [
            (command, form, template)
            for command in COMMANDS
            for form, template in env.templates_for(command).items()
        ]
        self.templates.setRowCount(len(rows))
        for r, (command, form, template) in enumerate(rows):
            for c, text in enumerate((command, form, template)):
                item = QTableWidgetItem(text)
                if c < 2:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                else:
                    item.setToolTip(f"Contract path: {COMMANDS[command].path_templates[form]}")
                self.templates.setItem(r, c, item)

    def _templates(self) -> Mapping[str, Mapping[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for r in range(self.templates.rowCount()):
            cells = [self.templates.item(r, c) for c in range(3)]
            texts = [c.text().strip() for c in cells if c is not None]
            if len(texts) == 3:
                command, form, template = texts
                out.setdefault(command, {})[form] = template
        return out

    def environment(self) -> Environment:
        """The environment the form describes (not yet checked)."""
        return Environment(
            name=self.name.text().strip(),
            kind=EnvKind(self.kind.currentData()),
            base_url=self.base_url.text().strip(),
            login=self.login.text().strip(),
            endpoint_id=self.endpoint_id.text().strip(),
            endpoint_group_id=self.endpoint_group_id.text().strip(),
            path_templates=self._templates(),
            connect_timeout=self.connect_timeout.value(),
            read_timeout=self.read_timeout.value(),
            ca_bundle=self.ca_bundle.text().strip(),
            redirect_placeholder=self.redirect_placeholder.text().strip(),
            callback=CallbackListenerSettings(
                self.listen.isChecked(), self.listen_host.text().strip(), self.listen_port.value()
            ),
        )

    def current_problems(self) -> list[FieldProblem]:
        return problems(self.environment())

    def _edited(self) -> None:
        if self._loading:
            return
        if self._builtin:  # nothing to fill in: the console sets it up when it starts
            colour = state_colour("required", self.palette()).name()
            self.url_rule.setText(
                f"<span style='color:{colour}'>The built-in sandbox: its address is set when "
                "it starts, on this computer.</span>"
            )
            self.problems.setText("")
            self.changed.emit()
            return
        found = self.current_problems()
        url = [p for p in found if p.field == "base_url"]
        if url and self._shown_as_mistake(url[0]):
            state, text = "error", url[0].message
        else:
            state, text = ("required" if url else "fine"), URL_RULE
        colour = state_colour(state, self.palette()).name()
        self.url_rule.setText(f"<span style='color:{colour}'>{html.escape(text)}</span>")
        lines = []
        for p in found:
            if p.field == "base_url":
                continue
            state = "error" if self._shown_as_mistake(p) else "required"
            colour = state_colour(state, self.palette()).name()
            lines.append(
                f"<span style='color:{colour}'>{html.escape(p.field)}: "
                f"{html.escape(p.message)}</span>"
            )
        self.problems.setText("<br>".join(lines))
        self.changed.emit()
