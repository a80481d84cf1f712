"""The main window's parts, each owning its widgets and state behind public methods and
signals: the forms (``forms_part``), the send panel under them (``send_panel``, with the
double-payout row ``guard_row``), the journal (``journal_part``), the active environment
(``environment_part``) and the window's size and docks (``layout``). ``console.ui.main_window``
assembles them; no part imports it. What other panes and dialogs may ask of the window is the
:class:`~console.ui.window.host.ConsoleWindow` protocol."""
