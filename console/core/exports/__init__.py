"""Requests taken into the tools integrators already use: programs, Postman, OpenAPI.

Qt-free, one module per target. Every export is built from the contract tables
(``console.core.spec``) and follows the signing rules of ``console.core.signing``; none of
them carries a private key, a signature or card data.

Public API:
    program_for, Program: one request, validated, as a generated program sends it.
    program_for_request: a request made before (URL, login, body), as a program sends it.
    LANGUAGES, render_code, file_name: the program's source in Python, Node, PHP, Java or Go.
    postman_collection, postman_environment: a Postman collection v2.1 and its environment.
    bruno (module): a Bruno collection folder and its environment.
    openapi_document: an OpenAPI 3.1 description of the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from console.core.exports import go_code, java_code, node_code, php_code, python_code
from console.core.exports.openapi import openapi_document
from console.core.exports.postman import postman_collection, postman_environment
from console.core.exports.program import Program, program_for, program_for_request

_TARGETS = (python_code, node_code, php_code, java_code, go_code)
LANGUAGES: MappingProxyType[str, Callable[[Program], str]] = MappingProxyType(
    {
        python_code.NAME: python_code.render,
        node_code.NAME: node_code.render,
        php_code.NAME: php_code.render,
        java_code.NAME: java_code.render,
        go_code.NAME: go_code.render,
    }
)
_SUFFIXES: dict[str, str] = {t.NAME: t.SUFFIX for t in _TARGETS}


def render_code(language: str, program: Program) -> str:
    """The program's source text in ``language`` (a key of :data:`LANGUAGES`).

    Raises:
        KeyError: unknown language; the message lists the known ones.
    """
    try:
        render = LANGUAGES[language]
    except KeyError:
        raise KeyError(
            f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}"
        ) from None
    return render(program)


def file_name(language: str) -> str:
    """The file name the program runs under (Java wants its class name)."""
    if language == java_code.NAME:
        return java_code.CLASS_NAME + java_code.SUFFIX
    return "gateway_request" + _SUFFIXES[language]


__all__ = [
    "LANGUAGES",
    "Program",
    "file_name",
    "openapi_document",
    "postman_collection",
    "postman_environment",
    "program_for",
    "program_for_request",
    "render_code",
]
