"""The team sender, a front of its own: the one process of a team that holds the key that
moves money (``gateway-console team sender``).

:mod:`.service` takes what the team's policy lets go, signs it and sends it through the
same pipeline as every other front, asks the status of unknown outcomes, and signs what is
new in the audit trail. It uses the core (``console.core``) and nothing of the window or
the command line; nothing in the core imports it.
"""
