"""What every request needs before it can be built: a known command, a login, no ``login``
among its body fields (the contract carries it as the OAuth consumer key), and an address the
contract's path rules can make. Checked the same way by the client that signs and sends and
by the code generators."""

from __future__ import annotations

from collections.abc import Mapping

from console.core.addresses import base_url_problem
from console.core.errors import InputError
from console.core.spec import command_url, get_command


class LoginInBodyError(InputError):
    """``login`` was given as a body field; the contract carries it as the consumer key."""


def check_request_inputs(command: str, values: Mapping[str, str], login: str) -> None:
    """Raise :class:`InputError` for an unknown command or an empty login, and
    :class:`LoginInBodyError` for ``login`` given as a body field."""
    try:
        get_command(command)
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    if "login" in values:
        raise LoginInBodyError(
            "login is never sent as a body field: it is the OAuth consumer key. "
            "Remove the login field and give the login as the connection's login."
        )
    if not login.strip():
        raise InputError("The login is empty: give the login the gateway issued to you.")


def request_url(
    command: str,
    values: Mapping[str, str],
    login: str,
    *,
    base_url: str,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    path_templates: Mapping[str, str] | None = None,
) -> str:
    """The request's URL, once :func:`check_request_inputs` passes.

    Raises:
        InputError: what :func:`check_request_inputs` raises, or an address the contract's
            path rules cannot make (no endpoint id or group id, an unusable base URL or path
            template: the message names what is missing).
    """
    check_request_inputs(command, values, login)
    shape = base_url_problem(base_url)
    if shape:
        raise InputError(f"The base URL: {shape}")
    try:
        return command_url(
            base_url,
            command,
            endpoint_id=endpoint_id,
            endpoint_group_id=endpoint_group_id,
            templates=path_templates,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
