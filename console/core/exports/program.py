"""What a generated program needs: one request's address, login and body, nothing secret.

A generated program signs at run time with a fresh nonce and timestamp, so it carries no
signature, and it reads the private key from the environment or a file, so it carries no key.
Card data (the fields the masking policy calls sensitive) is read from environment variables
too: a program is source text that gets pasted, mailed and committed.

A program made from a request the console did not send (cancelled at a confirmation, held,
refused, or stopped before it left) says so on its first line, and a command that makes a
new order gets a fresh placeholder order id instead of that request's: run with the
merchant's key, it would otherwise send that very order outside the journal and the
double-payout guard, which still take it for one never sent.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from console.core.errors import InputError
from console.core.masking import is_sensitive
from console.core.order_facts import NEW_ORDER_COMMANDS, ORDER_ID_FIELDS
from console.core.request_inputs import request_url
from console.core.signing import base_string_uri
from console.core.signing.encoding import encode_pairs
from console.core.spec import get_command, request_fields, validate
from console.core.spec.model import Problem, Severity

# Where every generated program looks for the private key: the PEM text in the first
# variable, else the file the second names, else the program's default file.
KEY_VARIABLE = "GATEWAY_PRIVATE_KEY"
KEY_FILE_VARIABLE = "GATEWAY_PRIVATE_KEY_FILE"
DEFAULT_KEY_FILE = "merchant-key.pem"
_PLACEHOLDER = re.compile(r"@([A-Z_]+)@")
# The first line of a program made from a request that was not sent (after a comment mark).
NOT_SENT_LINE = "NOT SENT: this program was made from a request the console did not send."
NEW_ID_WORDS = "{name} is a fresh placeholder: put in an order id of your own before running it."
PLACEHOLDER_ORDER_ID_PREFIX = "new-order-id-"


def secret_variable(field: str) -> str:
    """The environment variable a program reads a card field from (``CREDIT_CARD_NUMBER``)."""
    return field.upper().replace("-", "_")


@dataclass(frozen=True, slots=True)
class Program:
    """One request as a generated program sends it.

    Attributes:
        command: the command's wire name.
        url: the request URL in its signed form (RFC 5849 base string URI).
        login: the OAuth consumer key.
        fields: the body parameters in send order; the value of a name in ``from_env`` is
            empty (it is read at run time from :func:`secret_variable` of the name).
        from_env: names of card fields the program reads from the environment.
        key_file: the key file the program reads when neither key variable is set.
        success_type: the ``type`` of a success answer.
        note: the first line's words (after a comment mark), or nothing: for a program made
            from a request the console did not send.
    """

    command: str
    url: str
    login: str
    fields: tuple[tuple[str, str], ...]
    from_env: frozenset[str]
    key_file: str
    success_type: str
    note: str = ""

    @property
    def variables(self) -> tuple[str, ...]:
        """The environment variables the program needs besides the key, in body order."""
        return tuple(secret_variable(n) for n, _ in self.fields if n in self.from_env)


def program_for(
    command: str,
    values: Mapping[str, str],
    *,
    base_url: str,
    login: str,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    path_templates: Mapping[str, str] | None = None,
    key_file: str | None = None,
    skip_validation: bool = False,
) -> tuple[Program | None, tuple[Problem, ...]]:
    """Validate the fields like a send would and describe the program that sends them.

    Returns:
        The program (None when errors block it and ``skip_validation`` is False) and the
        validation problems.

    Raises:
        InputError: unknown command, an address that cannot be made, an empty login, a
            ``login`` field, or text with no UTF-8 form.
    """
    address = request_url(
        command,
        values,
        login,
        base_url=base_url,
        endpoint_id=endpoint_id,
        endpoint_group_id=endpoint_group_id,
        path_templates=path_templates,
    )
    try:
        url = base_string_uri(address)
    except ValueError as exc:  # an address the signer cannot use: the person's to fix
        raise InputError(str(exc)) from None
    problems = tuple(validate(command, values))
    if any(p.severity is Severity.ERROR for p in problems) and not skip_validation:
        return None, problems
    return _program(command, url, login, request_fields(command, values), key_file), problems


def program_for_request(
    command: str,
    url: str,
    login: str,
    params: Sequence[tuple[str, str]],
    *,
    key_file: str | None = None,
    sent: bool = True,
) -> Program:
    """The program that sends a request made before (the window's inspector, a pasted one)
    to its URL, with its login and body parameters as they are.

    Args:
        sent: False for a request the console did not send (cancelled, held, refused,
            never arrived): the program says so on its first line, and a command that
            makes a new order gets a fresh placeholder order id instead of the request's.

    Raises:
        InputError: unknown command, an empty login, or text with no UTF-8 form.
    """
    try:
        get_command(command)
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
    if not login.strip():
        raise InputError(
            "The request names no login (oauth_consumer_key in its Authorization header): "
            "the program signs with it."
        )
    if sent:
        return _program(command, base_string_uri(url), login, params, key_file)
    # A new order's id becomes a fresh placeholder (one for all its copies); the ids other
    # commands name (a first payment, an order to look up) stay as they are.
    words = [NOT_SENT_LINE]
    if command in NEW_ORDER_COMMANDS:
        placeholder = PLACEHOLDER_ORDER_ID_PREFIX + secrets.token_hex(6)
        named = [n for n, _ in params if n in ORDER_ID_FIELDS]
        params = [(n, placeholder if n in ORDER_ID_FIELDS else v) for n, v in params]
        words += [NEW_ID_WORDS.format(name=name) for name in dict.fromkeys(named)]
    program = _program(command, base_string_uri(url), login, params, key_file)
    return replace(program, note=" ".join(words))


def _program(
    command: str,
    url: str,
    login: str,
    params: Sequence[tuple[str, str]],
    key_file: str | None,
) -> Program:
    """The one place a program's contents are decided: card fields come from the environment."""
    encode_pairs([*params, ("login", login)])  # refuses text with no UTF-8 form, by name
    from_env = frozenset(n for n, _ in params if is_sensitive(n))
    return Program(
        command=command,
        url=url,
        login=login,
        # Card data is not even kept here: the program reads it when it runs.
        fields=tuple((n, "" if n in from_env else v) for n, v in params),
        from_env=from_env,
        key_file=key_file or DEFAULT_KEY_FILE,
        success_type=get_command(command).success_type,
    )


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``@NAME@`` replaced by ``values["NAME"]``.

    Generated programs are full of braces and dollar signs, which str.format and
    string.Template would read as their own.
    """
    # One pass: a value that happens to hold "@URL@" is left as it is.
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def needs_line(program: Program, comment: str) -> str:
    """A comment line naming the card variables the program reads, or nothing."""
    if not program.variables:
        return ""
    names = ", ".join(program.variables)
    return f"{comment} Card data is never in this file: set {names} in the environment.\n"


def render_program(
    program: Program,
    template: str,
    *,
    lit: Callable[[str], str],
    row: Callable[[str, str], str],
    from_env: str,
    comment: str,
    extra: Mapping[str, str] | None = None,
) -> str:
    """``template`` filled for ``program`` in one language: ``lit`` writes a string literal,
    ``row`` one field line from a literal name and value, ``from_env`` names the function that
    reads a card value from the environment, ``comment`` starts a comment line."""
    rows = []
    for name, value in program.fields:
        shown = (
            f"{from_env}({lit(secret_variable(name))})" if name in program.from_env else lit(value)
        )
        rows.append(row(lit(name), shown))
    values = {
        "NOT_SENT": f"{comment} {program.note}\n" if program.note else "",
        "COMMAND": program.command,
        "NEEDS": needs_line(program, comment),
        "KEY_VARIABLE": KEY_VARIABLE,
        "KEY_FILE_VARIABLE": KEY_FILE_VARIABLE,
        "KEY_VARIABLE_LITERAL": lit(KEY_VARIABLE),
        "KEY_FILE_VARIABLE_LITERAL": lit(KEY_FILE_VARIABLE),
        "KEY_FILE": lit(program.key_file),
        "URL": lit(program.url),
        "LOGIN": lit(program.login),
        "FIELDS": "".join(rows),
        **(extra or {}),
    }
    return fill(template, values)
