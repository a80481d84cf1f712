"""Four-eyes, above the pipeline: nothing held back leaves without a checker's approval.

:mod:`.approval` (:class:`~.approval.Approvals`: submit, approve or reject, the one send of
an approved request), :mod:`.submissions` (what the database keeps of them: policies,
submissions, decisions in words, audit entries), :mod:`.held` (the rule every front follows:
:func:`~.held.hold` a request for approval, submit it, wait, send it once approved),
:mod:`.held_batch` (the same for a whole batch file), :mod:`.registry` (registering the
team's gateways and setting their policies) and :mod:`.via_sender` (a maker's sends
through the team sender, card data sealed to its key).
"""
