"""curl lines are read as bash reads them (bash itself is the oracle: ``printf '%s\\0'``
prints how it splits a line), browser copies with ``$'..'`` included; ``import-curl`` names
what it does not carry over, and its send line hands ``send`` the very same values."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from console.cli import main
from console.core.siglab.bash_words import BashWordsError, bash_words

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="bash is not installed")

URL = "https://gateway.example/paynet/api/v4/payout-check/1001"
# What Chrome's "Copy as cURL (bash)" writes when a value holds a quote or non-ASCII text.
CHROME = (
    f"curl '{URL}' \\\n"
    "  -H 'accept: */*' \\\n"
    "  -H 'content-type: application/x-www-form-urlencoded' \\\n"
    "  -H $'authorization: OAuth oauth_consumer_key=\"merchant\"' \\\n"
    "  -b 'session=s3cr3t-cookie; theme=dark' \\\n"
    "  -u 'ops:pa55word' \\\n"
    "  --data-raw $'client_orderid=po-1&amount=10.00&currency=EUR&order_desc=Caf\\u00e9 "
    "M\\u00fcller\\'s' \\\n"
    "  --compressed"
)
# Firefox's: single quotes only, a quote inside a value written '\''.
FIREFOX = (
    f"curl '{URL}' -X POST -H 'User-Agent: Mozilla/5.0' -H 'Accept: */*' "
    "--data-raw 'client_orderid=po-1&amount=10.00&currency=EUR&order_desc=M\u00fcller'\\''s'"
)

LINES = [
    CHROME,
    FIREFOX,
    r"""a 'b c' "d e" f\ g x"y"'z'$'w'""",
    r"""$'Caf\u00e9' $'it\'s' $'a\nb' $'\x41\x4' $'\101\7' $'\q' $'\cA\c?\c[' $'\e\E\a\b\f\v\t'""",
    r""""a\"b\$c\`d\\e\f" 'a\b' $"locale" a$ $ b$/c $=""",
    r"""$'\U0001F600' $'\u00' $'\xe2\x82\xac' $'a\x00b' $'\c\\' $'\cz' $'\"' $'\\\\'""",
    "'multi\nline' \"dq\nline\" a\\\nb c \\\n d",
    "\"a\\\nb\" 'c\\\nd' $'e\\\nf' tail",
    "x tail\\ \\  y",  # an escaped blank is part of the word
    "a#b 'c#' # a comment: not words",
]


def _bash_split(line: str) -> list[str]:
    """How bash splits ``line`` into words: a function prints its arguments NUL-ended."""
    assert BASH is not None
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", f"f() {{ printf '%s\\0' \"$@\"; }}\nf {line}"],
        capture_output=True,
        env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return [w.decode("utf-8") for w in done.stdout.split(b"\0")[:-1]]


@needs_bash
@pytest.mark.parametrize("line", LINES)
def test_words_are_the_ones_bash_passes(line: str) -> None:
    assert bash_words(line) == _bash_split(line)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("curl 'https://x/a' -d \"a=$HOME\"", "'$H' outside single quotes"),
        ("curl https://x/a?b=1&c=2", "'&' outside quotes"),
        ("curl 'https://x/a'; rm -rf x", "';' outside quotes"),
        ("curl `cat url`", "'`' outside single quotes"),
        ("curl 'https://x/a\n", "never closed"),
        ("curl $'it\\'s", "never closed"),
        ("curl 'https://x/a'\n  -d 'a=1'", "line 1 ends without a backslash"),
        ("curl 'https://x/a' \\", "ends with a backslash"),
    ],
)
def test_what_bash_would_expand_or_run_apart_is_refused(line: str, said: str) -> None:
    with pytest.raises(BashWordsError) as refused:
        bash_words(line)
    assert said in str(refused.value)


def test_import_curl_reads_a_chrome_line_and_names_what_it_leaves_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["import-curl", "--curl", CHROME]) == 0
    out = capsys.readouterr().out
    assert "  order_desc = Caf\u00e9 M\u00fcller's" in out
    assert "$order_desc" not in out
    assert "\\u00e9" not in out
    assert "Not carried over: cookies (-b); credentials (-u); the headers accept." in out
    assert "pa55word" not in out
    assert "s3cr3t" not in out
    assert "Send it signed by the console:" in out


@needs_bash
@pytest.mark.parametrize("line", [CHROME, FIREFOX])
def test_the_printed_send_line_gives_send_the_same_values(
    line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import-curl", "--curl", line]) == 0
    send_line = capsys.readouterr().out.split("Send it signed by the console:\n", 1)[1].strip()
    words = _bash_split(send_line.removeprefix("gateway-console "))
    fields = [words[i + 1] for i, w in enumerate(words) if w == "-f"]
    body = dict(p.split("=", 1) for p in fields)
    assert body["client_orderid"] == "po-1"
    assert body["order_desc"] in ("Caf\u00e9 M\u00fcller's", "M\u00fcller's")
    assert words[:3] == ["send", "payout-check", "--base-url"]


def test_a_line_bash_cannot_run_as_one_curl_command_prints_no_send_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["import-curl", "--curl", f"curl '{URL}' -d \"order_desc=$USER\""]) == 2
    captured = capsys.readouterr()
    assert "Send it" not in captured.out
    assert "cannot be read as bash reads it" in captured.err


def test_an_id_with_a_character_nobody_sees_gets_no_send_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = f"curl '{URL}' --data-raw $'client_orderid=po-1\\u202e&amount=10.00&currency=EUR'"
    assert main(["import-curl", "--curl", line]) == 0
    out = capsys.readouterr().out
    assert "client_orderid holds U+202E RIGHT-TO-LEFT OVERRIDE at position 5" in out
    assert "Send it signed by the console:" not in out
