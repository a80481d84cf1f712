"""The main window's parts, each owning its widgets and state behind public methods and
signals: the forms (``forms_part``), the send panel under them (``send_panel``, with the
double-payout row ``guard_row``), the journal (``journal_part``) and its panes
(``journal_panes``), status checks (``status_part``), the active environment
(``environment_part``), what the menus open (``dialogs``) and the window's size, docks and
Tab order (``layout``). ``console.ui.main_window`` assembles them and connects their
signals; no part imports it, and each gets only the parts or functions it uses."""
