"""The placeholder that stands where a withheld signature goes.

A copy of a request that was not sent (or is shown before the gateway answered) carries it
instead of ``oauth_signature``; the signature lab names it when such a copy is checked.
"""

UNSIGNED = "SIGN-ME"
