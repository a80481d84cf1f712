"""The team's keyed hash of a request's exact content: what an approval is bound to.

A submission, and the journal row that sends it, carry the hash of the environment, command,
URL and every field (:func:`content_hash`; a batch: :func:`batch_hash` over every row's
request, in order), so the database can refuse a send that is not the approved one. The hash
is keyed with the team's key (``gateway.team_key``, which every maker and checker can read),
so anyone of the team holding the request can check it. For card data it is scrypt, slow on
purpose, so that trying the 10^5 x 10^3 card numbers and CVV2s a masked number leaves open
takes days, not seconds.

Storage-level: the shared journal computes it for each send it writes, so this module, like
the journal, imports nothing of the pipeline or of approvals.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from console.core.masking import is_sensitive

if TYPE_CHECKING:
    from console.core.prepared import PreparedRequest


def carries_card_data(prepared: PreparedRequest) -> bool:
    """True when the request holds a card number or CVV2 (it stays on the maker's console)."""
    return any(is_sensitive(n) and v for n, v in prepared.params)


def _keyed(key: str, content: object, card: bool) -> str:
    """The team's keyed hash of ``content`` (see the module's card data rule)."""
    canonical = json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()
    if card:
        return hashlib.scrypt(canonical, salt=key.encode(), n=2**14, r=8, p=1).hex()
    return hmac.new(key.encode(), canonical, hashlib.sha256).hexdigest()


def content_hash(environment: str, prepared: PreparedRequest, key: str) -> str:
    """The keyed hash of the exact request content: environment, command, URL, every field."""
    content = [environment, prepared.command, prepared.url, sorted(prepared.params)]
    return _keyed(key, content, carries_card_data(prepared))


def batch_hash(environment: str, requests: Sequence[PreparedRequest], key: str) -> str:
    """The keyed hash over every row's request of a batch, in order."""
    content = [environment, "batch", [[p.command, p.url, sorted(p.params)] for p in requests]]
    return _keyed(key, content, any(carries_card_data(p) for p in requests))
