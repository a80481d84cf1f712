"""What ``SignedRequest.to_json()`` (and so ``gateway-console sign --json``) must carry."""

from __future__ import annotations

SIGNED_JSON_KEYS = frozenset(
    {
        "method",
        "url",
        "body",
        "params",
        "oauth",
        "normalized_parameters",
        "base_string",
        "signature_hex",
        "signature_base64",
        "authorization",
    }
)
