"""The history pane: the journal as a lazily paged table, with details and actions.

:class:`console.ui.window.journal_panes.JournalPanes` docks it in the main window.
"""
