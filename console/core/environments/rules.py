"""Rules for environment settings: each problem names the field and says how to fix it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from console.core.addresses import base_url_problem, is_loopback_host
from console.core.environments.model import LOCAL_SANDBOX_NAME, Environment
from console.core.spec import COMMANDS
from console.core.timeouts import CONNECT_TIMEOUT_MAX, READ_TIMEOUT_MAX

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_PLACEHOLDER = {"endpoint": "{endpoint_id}", "group": "{endpoint_group_id}"}


@dataclass(frozen=True, slots=True)
class FieldProblem:
    """One thing wrong with an environment: which field, and what to do."""

    field: str
    message: str


def _url_problems(name: str, url: str, *, require_https: bool) -> list[FieldProblem]:
    """Shape of an address (:func:`~console.core.addresses.base_url_problem`), and https
    unless it is loopback."""
    shape = base_url_problem(url)
    if shape:
        return [FieldProblem(name, shape)]
    parts = urlsplit(url)
    if require_https and parts.scheme != "https" and not is_loopback_host(parts.hostname):
        return [
            FieldProblem(
                name,
                f"{url!r} must use https: plain http is allowed only for "
                "this computer (localhost, 127.0.0.1, ::1).",
            )
        ]
    return []


def problems(env: Environment) -> list[FieldProblem]:
    """Everything wrong with ``env``, each naming the field and the fix; empty when valid."""
    found: list[FieldProblem] = []
    if not _NAME.match(env.name):
        found.append(
            FieldProblem(
                "name",
                "Use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
            )
        )
    if env.builtin:
        return found
    if env.name == LOCAL_SANDBOX_NAME:
        found.append(
            FieldProblem(
                "name", f"{LOCAL_SANDBOX_NAME!r} is the built-in sandbox's name; choose another."
            )
        )
    if not env.base_url.strip():
        found.append(FieldProblem("base_url", "Give the base URL, e.g. https://HOST/paynet."))
    else:
        found += _url_problems("base_url", env.base_url, require_https=True)
    if not env.login.strip():
        found.append(FieldProblem("login", "Give the login the gateway issued to you."))
    if not (env.endpoint_id or env.endpoint_group_id):
        found.append(FieldProblem("endpoint_id", "Give an endpoint id or an endpoint group id."))
    for fname in ("endpoint_id", "endpoint_group_id"):
        value = getattr(env, fname)
        if value and not _ID.match(value):
            found.append(
                FieldProblem(
                    fname,
                    f"{value!r}: use letters, digits, '.', '_' or '-' "
                    "only (it becomes part of the path).",
                )
            )
    found += _template_problems(env.path_templates)
    for fname, limit in (
        ("connect_timeout", CONNECT_TIMEOUT_MAX),
        ("read_timeout", READ_TIMEOUT_MAX),
    ):
        value = getattr(env, fname)
        if not 0 < value <= limit:
            found.append(
                FieldProblem(fname, f"Give a number of seconds above 0 and at most {limit:g}.")
            )
    if env.ca_bundle and not Path(env.ca_bundle).is_file():
        found.append(
            FieldProblem(
                "ca_bundle",
                f"No file at {env.ca_bundle!r}: give the path "
                "of a PEM CA bundle, or leave it empty.",
            )
        )
    if env.redirect_placeholder:
        found += _url_problems(
            "redirect_placeholder", env.redirect_placeholder, require_https=False
        )
    if not 0 <= env.callback.port <= 65535:
        found.append(FieldProblem("callback.port", "Give a port from 0 to 65535 (0: any free)."))
    if not env.callback.host.strip():
        found.append(
            FieldProblem(
                "callback.host", "Give the address to listen on, e.g. 127.0.0.1 or 0.0.0.0."
            )
        )
    return found


def _template_problems(templates: Mapping[str, Mapping[str, str]]) -> list[FieldProblem]:
    found: list[FieldProblem] = []
    for command, forms in templates.items():
        where = f"path_templates.{command}"
        if command not in COMMANDS:
            found.append(
                FieldProblem(
                    where, f"Unknown command {command!r}; known: {', '.join(sorted(COMMANDS))}."
                )
            )
            continue
        for form, template in forms.items():
            if form not in COMMANDS[command].path_templates:
                known = " or ".join(sorted(COMMANDS[command].path_templates))
                found.append(
                    FieldProblem(f"{where}.{form}", f"{command} has no {form!r} path; use {known}.")
                )
                continue
            placeholder = _PLACEHOLDER[form]
            rest = template.replace(placeholder, "")
            if (
                not template.startswith("/")
                or template.count(placeholder) != 1
                or re.search(r"[{}?#\s]", rest)
            ):
                found.append(
                    FieldProblem(
                        f"{where}.{form}",
                        f"{template!r}: write a path "
                        f"starting with / that contains {placeholder} once, "
                        "e.g. " + COMMANDS[command].path_templates[form],
                    )
                )
    return found
