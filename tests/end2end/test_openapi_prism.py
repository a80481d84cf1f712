"""Prism (``prism mock``, npm @stoplight/prism-cli from tests/clients/prism) mocks the
exported OpenAPI description: a valid request of every command gets 200 and an example
answer in the gateway's own format, and what the console refuses Prism refuses too (the
contract's formats, the either-or rules, a request with no Authorization header).

The requests are signed by the console's signer, as a merchant's would be.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qsl

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from console.cli import main
from console.core.signing import sign
from console.core.spec import COMMANDS, example_values, validate
from console.core.spec.model import Severity
from tests.helpers.examples import changed_example
from tests.helpers.prism import prism_mock
from tests.helpers.runtimes import require_prism

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def prism(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Prism mocking a fresh export, its base URL."""
    require_prism()
    description = tmp_path_factory.mktemp("openapi") / "gateway-v4.openapi.json"
    assert main(["export", "openapi", "--output", str(description)]) == 0
    with prism_mock(description) as url:
        yield url


def _post(
    prism: str, path: str, values: dict[str, str], key: rsa.RSAPrivateKey, *, signed: bool = True
) -> requests.Response:
    request = sign(prism + path, list(values.items()), consumer_key="demo", private_key=key)
    headers = dict(request.headers)
    if not signed:
        del headers["Authorization"]
    return requests.post(
        request.url, data=request.body.encode("ascii"), headers=headers, timeout=30
    )


@pytest.mark.parametrize(
    ("command", "form"),
    [(c.name, form) for c in COMMANDS.values() for form in c.path_templates],
)
def test_prism_answers_every_command_with_an_example_answer_in_the_gateways_format(
    prism: str, rsa_key: rsa.RSAPrivateKey, command: str, form: str
) -> None:
    path = COMMANDS[command].path_templates[form]
    path = path.replace("{endpoint_id}", "1001").replace("{endpoint_group_id}", "2001")
    answer = _post(prism, path, example_values(command), rsa_key)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/html")
    # Read the way the description says: form-decoded pairs, each value ending in a line feed.
    assert answer.text.endswith("\n")
    fields = {k: v.rstrip("\n") for k, v in parse_qsl(answer.text, strict_parsing=True)}
    assert fields["type"] == COMMANDS[command].success_type


REFUSED = [
    ("payout-check", {"amount": "1,234.50"}),
    ("payout-check", {"expire_month": "13"}),
    ("payout-check", {"currency": "usd"}),
    ("payout-check", {"receiver_country_code": "U.S."}),
    ("payout-check", {"cvv2": "12a"}),
    ("payout-check", {"notify_url": "https://merchant.example/notify"}),
    ("payout-check", {"card_recurring_payment_id": "987654"}),
    ("payout-check", {"redirect_success_url": "https://merchant.example/ok"}),
    ("payout-check", {"expire_year": None}),
    ("create-recurring-payment", {"amount-sequence": "1.00,2.00"}),
    ("create-recurring-payment", {"start-date": "2030-12-01"}),
    ("create-recurring-payment", {"interval": "0"}),
    ("create-recurring-payment", {"rp_card_type": "DST"}),
]


@pytest.mark.parametrize(("command", "change"), REFUSED)
def test_prism_refuses_what_the_console_refuses(
    prism: str, rsa_key: rsa.RSAPrivateKey, command: str, change: dict[str, str | None]
) -> None:
    values = changed_example(command, change)
    assert any(p.severity is Severity.ERROR for p in validate(command, values))
    path = COMMANDS[command].path_templates["endpoint"].replace("{endpoint_id}", "1001")
    answer = _post(prism, path, values, rsa_key)
    assert answer.status_code == 422, answer.text


def test_prism_refuses_a_request_with_no_authorization_header(
    prism: str, rsa_key: rsa.RSAPrivateKey
) -> None:
    answer = _post(prism, "/api/v4/status/1001", example_values("status"), rsa_key, signed=False)
    assert answer.status_code == 401, answer.text
