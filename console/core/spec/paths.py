"""Request addresses: ``{base_url}`` joined with a command's path template.

The contract (section 4) forbids hard-coding the path after ``{base_url}``, so each command
carries its paths as templates (``/api/v4/payout-check/{endpoint_id}``) and an environment may
override them. Templates may write the ids as ``{endpoint_id}`` or in the contract's own
``<endpoint_id>`` spelling.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote, urlsplit

from .commands import get_command

_PLACEHOLDERS = {
    "endpoint": ("{endpoint_id}", "<endpoint_id>"),
    "group": ("{endpoint_group_id}", "<endpoint_group_id>"),
}


def command_url(
    base_url: str,
    command_name: str,
    *,
    endpoint_id: str | int | None = None,
    endpoint_group_id: str | int | None = None,
    templates: Mapping[str, str] | None = None,
) -> str:
    """The full request URL of one command.

    Args:
        base_url: scheme, host and service prefix, e.g. ``https://gateway.example/paynet``.
        command_name: the command's wire name.
        endpoint_id: use the endpoint form (``.../<endpoint_id>``) when given.
        endpoint_group_id: else use the group form (``.../group/<endpoint_group_id>``).
        templates: an environment's overrides, ``{"endpoint": ..., "group": ...}``; keys it
            lacks fall back to the contract's paths.

    Raises:
        ValueError: the base URL is not an http(s) address, neither id is given, or the
            command has no group form (create-recurring-payment).
        KeyError: unknown command.
    """
    command = get_command(command_name)
    parts = urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(
            f"The base URL {base_url!r} must start with https:// (or http:// for a local "
            "sandbox), for example https://gateway.example/paynet."
        )
    merged = {**command.path_templates, **(templates or {})}
    endpoint = str(endpoint_id).strip() if endpoint_id is not None else ""
    group = str(endpoint_group_id).strip() if endpoint_group_id is not None else ""
    if endpoint:
        form, ident = "endpoint", endpoint
    elif group:
        form, ident = "group", group
    else:
        raise ValueError(
            f"{command_name} needs an endpoint id (or an endpoint group id): set one in the "
            "environment."
        )
    template = merged.get(form)
    if template is None:
        raise ValueError(
            f"{command_name} has no endpoint group form in the contract: set an endpoint id "
            "instead of the group id."
        )
    path = template
    for placeholder in _PLACEHOLDERS[form]:
        path = path.replace(placeholder, quote(ident, safe=""))
    if not path.startswith("/"):
        path = "/" + path
    return base_url.strip().rstrip("/") + path
