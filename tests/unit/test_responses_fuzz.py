"""Network garbage never crashes the decoder, and well-formed bodies decode losslessly."""

from __future__ import annotations

from urllib.parse import quote, quote_plus

from hypothesis import given, settings
from hypothesis import strategies as st

from console.core import responses
from console.core.responses import Kind, decode

header_names = st.sampled_from(["Content-Type", "content-type", "Location", "X-Any"])
content_types = st.sampled_from(
    [
        "text/html;charset=utf-8",
        "text/html; charset=latin-1",
        "text/html; charset=utf-16",
        "text/html; charset=idna",
        "text/html; charset=rot13",
        "text/html; charset=",
        "application/json",
        "",
    ]
)
headers = st.dictionaries(header_names, content_types | st.text(max_size=40), max_size=3)
statuses = st.sampled_from([0, 200, 302, 400, 403, 404, 500, 502, 999]) | st.integers(-5, 1000)
form_like = st.lists(
    st.tuples(st.text(min_size=0, max_size=12), st.text(max_size=12)), max_size=6
).map(lambda ps: "&".join(f"{n}={v}\n" for n, v in ps).encode("utf-8", "surrogatepass"))
bodies = st.binary(max_size=300) | form_like | st.text(max_size=200).map(str.encode)


@settings(max_examples=200, deadline=None)
@given(status=statuses, hdrs=headers, body=bodies, expected=st.none() | st.text(max_size=20))
def test_decode_never_raises_and_keeps_the_raw_bytes(
    status: int, hdrs: dict[str, str], body: bytes, expected: str | None
) -> None:
    r = decode(status, hdrs, body, expected_type=expected)
    assert isinstance(r.kind, Kind)
    assert r.raw == body
    assert r.http_status == status
    assert r.summary
    # the last-resort branch exists for safety only: ordinary garbage has its own words
    assert r.summary != responses._FALLBACK_SUMMARY
    r.to_json()


names = st.from_regex(r"[a-z][a-z0-9_\-]{0,15}", fullmatch=True).filter(
    lambda n: n not in {"type", "status"}
)


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.lists(st.tuples(names, st.text(max_size=30)), max_size=8),
    plus=st.booleans(),
)
def test_form_bodies_round_trip(pairs: list[tuple[str, str]], plus: bool) -> None:
    def enc(v: str) -> str:
        return quote_plus(v) if plus else quote(v, safe="")

    all_pairs = [("type", "async-response"), *pairs]
    body = "&".join(f"{n}={enc(v)}\n" for n, v in all_pairs).encode()
    r = decode(200, {"Content-Type": "text/html;charset=utf-8"}, body)
    assert r.kind is Kind.SUCCESS
    assert r.fields == tuple(all_pairs)  # even values ending in CR or LF, sent encoded
