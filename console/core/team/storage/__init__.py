"""The team database: what everything else in team mode stands on.

:mod:`.dsn` (the DSN; the password from PGPASSWORD, ~/.pgpass or the keyring),
:mod:`.schema_sql` and :mod:`.schema` (roles, row-level security, the append-only audit,
versioned migrations; one module per later version, :mod:`.schema_v4` on), :mod:`.journal`
(:class:`~.journal.TeamJournal`, the journal the pipeline and the history pane use),
:mod:`.gateways` (the team's registered gateways and their policies: a console of the team
sends only to them, or to this computer), :mod:`.live` (LISTEN/NOTIFY) and :mod:`.sealing`
(card data sealed to the team sender's key). Nothing here imports the pipeline, approvals,
the audit checks or the sender (an import-linter contract).
"""
