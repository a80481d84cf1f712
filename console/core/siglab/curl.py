"""Read a curl command line as the documentation and other tools print it.

Understood: ``-X/--request``, ``-H/--header``, ``-d/--data``, ``--data-ascii``,
``--data-raw``, ``--data-binary``, ``--data-urlencode`` (``content``, ``=content``,
``name=content``), ``--url`` or the URL as an argument, ``-G/--get``, combined short flags
(``-sS``, ``-XPOST``). The line is split into words as bash splits it
(:mod:`console.core.siglab.bash_words`: quotes, ``$'..'`` with its escapes, line
continuations), which is what a browser's "Copy as cURL" for bash writes. Options that only
change how curl talks (``-s``, ``-k``, ``-v``, ``--compressed``, timeouts, proxies...) are
skipped; what the request carried that is not taken over (``-u`` credentials, ``-b``
cookies, headers other than Authorization and Content-Type, a user agent or referer) is
named in :attr:`Capture.left_out` (names only: their values may be secrets). Anything that
would change the request and cannot be read here (``@file`` data, ``-F`` multipart forms, an
unknown option) is refused with a message, never guessed.

:func:`parse_request_text` takes either a curl line or raw HTTP text
(:func:`~console.core.siglab.capture.parse_http`), as pasted into the signature lab.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from console.core.siglab.bash_words import BashWordsError, bash_words
from console.core.siglab.capture import Capture, CaptureError, parse_http

_WITH_VALUE = {
    "-X": "method",
    "--request": "method",
    "-H": "header",
    "--header": "header",
    "-d": "data",
    "--data": "data",
    "--data-ascii": "data",
    "--data-binary": "data",
    "--data-raw": "raw",
    "--data-urlencode": "urlencode",
    "--url": "url",
}
# Options that take a value but do not change what is signed.
_IGNORED_WITH_VALUE = frozenset(
    (
        *("-u", "--user", "-A", "--user-agent", "-o", "--output", "-e", "--referer"),
        *("-b", "--cookie", "-c", "--cookie-jar", "-m", "--max-time", "--connect-timeout"),
        *("--cacert", "--capath", "--cert", "--key", "--key-type", "--cert-type"),
        *("-x", "--proxy", "-w", "--write-out", "--retry", "--retry-delay"),
        *("--retry-max-time", "--resolve", "--interface", "--limit-rate", "-r", "--range"),
        *("--proxy-user", "-E", "--trace", "--trace-ascii", "--dump-header", "-D"),
    )
)
_FLAGS = frozenset(
    (
        *("-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include"),
        *("-k", "--insecure", "-L", "--location", "--compressed", "-f", "--fail"),
        *("--fail-with-body", "-g", "--globoff", "--http1.0", "--http1.1", "--http2"),
        *("-N", "--no-buffer", "-#", "--progress-bar", "-4", "-6", "--ipv4", "--ipv6"),
        *("-q", "--disable", "--no-progress-meter", "--tlsv1.2", "--tlsv1.3", "--ssl-reqd"),
        *("-n", "--netrc", "-I", "--head", "-G", "--get"),
    )
)
_SHORT_FLAGS = frozenset(f[1] for f in _FLAGS if len(f) == 2)
_SHORT_VALUED = frozenset(o[1] for o in (*_WITH_VALUE, *_IGNORED_WITH_VALUE) if len(o) == 2)
# Line continuations of cmd (^) and PowerShell (`) copies; bash's (\) are bash_words' own.
_CONTINUATION = re.compile(r"[\^`]\r?\n")
# Options whose value the request carries but the console does not take over: what to call
# them (their values may be passwords or session cookies, so only names are said).
_LEFT_OUT = {
    "-u": "credentials (-u)",
    "--user": "credentials (--user)",
    "-b": "cookies (-b)",
    "--cookie": "cookies (--cookie)",
    "-A": "the user agent (-A)",
    "--user-agent": "the user agent (--user-agent)",
    "-e": "the referer (-e)",
    "--referer": "the referer (--referer)",
    "-E": "a client certificate (-E)",
    "--cert": "a client certificate (--cert)",
    "--proxy-user": "proxy credentials (--proxy-user)",
}
_CARRIED_HEADERS = frozenset({"authorization", "content-type"})


def parse_curl(text: str) -> Capture:
    """Turn a curl command line into a :class:`Capture`.

    Raises:
        CaptureError: not a curl line, unbalanced quotes, no URL, or an option that changes
            the request in a way that cannot be read here.
    """
    try:
        words = bash_words(_CONTINUATION.sub(" ", text.strip()))
    except BashWordsError as exc:
        raise CaptureError(f"The curl line cannot be read as bash reads it: {exc}") from None
    if not words or words[0] not in ("curl", "curl.exe"):
        raise CaptureError("A curl line starts with the word curl.")
    method, url, get = "", "", False
    headers: list[str] = []
    data: list[str] = []
    left_out: list[str] = []
    for option, value in _options(words[1:]):
        kind = _WITH_VALUE.get(option, "")
        if option in _LEFT_OUT:
            left_out.append(_LEFT_OUT[option])
        if option in ("-G", "--get"):
            get = True
        elif option == "":
            if url:
                raise CaptureError(f"The curl line has two URLs: {url!r} and {value!r}.")
            url = value
        elif kind == "method":
            method = value.upper()
        elif kind == "header":
            headers.append(value)
        elif kind == "url":
            url = value
        elif kind in ("data", "raw", "urlencode"):
            data.append(_data(option, kind, value))
    if not url:
        raise CaptureError("The curl line has no URL: give it as an argument or with --url.")
    if "://" not in url:
        url = "http://" + url  # what curl itself assumes
    body = "&".join(data)
    if get and body:
        url += ("&" if urlsplit(url).query else "?") + body
        body = ""
    method = method or ("GET" if get or not data else "POST")
    auth, ctype = None, None
    others: list[str] = []
    for header in headers:
        name, _, header_value = header.partition(":")
        if name.strip().lower() == "authorization":
            auth = header_value.strip()
        elif name.strip().lower() == "content-type":
            ctype = header_value.strip()
        if name.strip().lower() not in _CARRIED_HEADERS:
            others.append(name.strip())
    if others:
        left_out.append(f"the headers {', '.join(dict.fromkeys(others))}")
    return Capture(method, url, auth, body, ctype, left_out=tuple(dict.fromkeys(left_out)))


def _options(words: list[str]) -> list[tuple[str, str]]:
    """(option, value) pairs; a positional argument comes as ('', word)."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word.startswith("--"):
            name, eq, attached = word.partition("=")
            if name in _FLAGS:
                out.append((name, ""))
            elif name in _WITH_VALUE or name in _IGNORED_WITH_VALUE:
                if not eq:
                    if i >= len(words):
                        raise CaptureError(f"The curl option {name} needs a value after it.")
                    attached, i = words[i], i + 1
                out.append((name, attached))
            else:
                raise _unknown(name)
        elif word.startswith("-") and len(word) > 1:
            j = 1
            while j < len(word):
                letter = word[j]
                if letter in _SHORT_FLAGS:
                    out.append((f"-{letter}", ""))
                    j += 1
                elif letter in _SHORT_VALUED:
                    value = word[j + 1 :]
                    if not value:
                        if i >= len(words):
                            raise CaptureError(f"The curl option -{letter} needs a value.")
                        value, i = words[i], i + 1
                    out.append((f"-{letter}", value))
                    break
                else:
                    raise _unknown(f"-{letter}")
        else:
            out.append(("", word))
    return out


def _unknown(option: str) -> CaptureError:
    if option in ("-F", "--form", "--form-string"):
        return CaptureError(
            f"The curl option {option} sends a multipart form; this API signs "
            "application/x-www-form-urlencoded bodies: use -d instead."
        )
    return CaptureError(
        f"The curl option {option} is not understood here; remove it if it does not change "
        "the request, or give the request as raw HTTP text."
    )


def _data(option: str, kind: str, value: str) -> str:
    if kind == "urlencode":
        name, sep, content = _split_urlencode(value)
        if sep == "@":
            raise CaptureError(
                f"{option} {value!r} reads a file; put the content in the line instead."
            )
        encoded = quote(content.encode("utf-8"), safe="-._~")  # what curl's escape keeps
        return f"{name}={encoded}" if name else encoded
    if kind == "data" and value.startswith("@"):
        raise CaptureError(f"{option} {value!r} reads a file; put the body in the line instead.")
    return value


def _split_urlencode(value: str) -> tuple[str, str, str]:
    cut = min((p for p in (value.find("="), value.find("@")) if p >= 0), default=-1)
    if cut < 0:
        return "", "", value
    return value[:cut], value[cut], value[cut + 1 :]


def parse_request_text(text: str, *, scheme: str | None = None) -> Capture:
    """Read either a curl command line or raw HTTP text (which one is told by the start;
    ``scheme``: of raw HTTP, assumed and said when None)."""
    stripped = text.strip()
    if not stripped:
        raise CaptureError("The request text is empty: paste a raw HTTP request or a curl line.")
    # A shell comment above a curl line (the console's own copies carry two) is not the request.
    lines = stripped.splitlines()
    while lines and lines[0].lstrip().startswith("#"):
        lines.pop(0)
    command = "\n".join(lines).strip()
    if command.split(None, 1)[:1] in (["curl"], ["curl.exe"]):
        return parse_curl(command)
    return parse_http(text.lstrip(), scheme=scheme)  # the body's end is kept: Content-Length
