"""The history pane: the journal as a lazily paged table, with details and actions.

:func:`console.ui.history.wiring.attach_journal` connects it all to the main window.
"""
