"""The team's audit trail, which an owner of the database cannot rewrite or shorten unseen.

:mod:`.verify` (checking the trail: the chain, the signed checkpoints of its head, the head
this console verified before, every sent journal row's entry), :mod:`.key` (the Ed25519
audit key), :mod:`.signing` (signing what is new: :func:`~.signing.sign_new_entries`),
:mod:`.state` (the key and head a console pinned) and :mod:`.rows` (sent journal rows
without their entry).
"""
