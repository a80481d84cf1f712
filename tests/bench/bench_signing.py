"""Benchmark: signing a typical payout-check against the bare RSA operation.

Target: signing costs at most 1.2x ``cryptography``'s bare ``private_key.sign`` of the same
base string, for 2048- and 4096-bit keys, measured side by side in one run. The ratio is a
printed figure, never a timed assertion (``make bench``, or
``pytest -s -o python_files='bench_*.py' tests/bench/bench_signing.py``).

The two are timed in interleaved pairs (alternating which goes first), so a load change on
a shared machine hits both alike; the figure to read is the median of the per-pair ratios.
"""

from __future__ import annotations

import statistics
import time

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from console.core.signing import sign

TARGET_RATIO = 1.2
URL = "https://gateway.example/paynet/api/v4/payout-check/group/1042"

# A filled payout-check form: 25 body parameters, some needing percent-encoding.
PAYOUT_CHECK = [
    ("client_orderid", "902B4FF5-2026-11-22"),
    ("amount", "10.42"),
    ("currency", "EUR"),
    ("order_desc", "Payout for order 902B4FF5"),
    ("ipaddress", "65.153.12.232"),
    ("purpose", "Refund of overpayment"),
    ("server_callback_url", "https://merchant.example/callback/payout?id=902B4FF5"),
    ("redirect_url", "https://merchant.example/no-redirect"),
    ("credit_card_number", "4444444444444448"),
    ("card_printed_name", "JOHN SMITH"),
    ("expire_month", "12"),
    ("expire_year", "2030"),
    ("cvv2", "123"),
    ("receiver_first_name", "John"),
    ("receiver_last_name", "Smith"),
    ("receiver_birthday", "15.01.1982"),
    ("receiver_country_code", "US"),
    ("receiver_state", "NY"),
    ("receiver_city", "New York"),
    ("receiver_zip_code", "10001"),
    ("receiver_address1", "100 Main St, Apt 4"),
    ("receiver_phone", "12063582043"),
    ("receiver_email", "john.smith@example.com"),
    ("merchant_data", "VIP customer; tier=gold"),
    ("bank_name", "Bank of Example"),
]

_PADDING = padding.PKCS1v15()
_HASH = hashes.SHA256()


def _measure(key: rsa.RSAPrivateKey, runs: int) -> tuple[list[float], list[float]]:
    signed_times: list[float] = []
    bare_times: list[float] = []
    clock = time.perf_counter
    for i in range(runs + 5):  # the first five warm caches and are dropped
        request = sign(URL, PAYOUT_CHECK, consumer_key="merchant", private_key=key)
        message = request.base_string.encode("ascii")
        first, second = ("sign", "bare") if i % 2 else ("bare", "sign")
        for which in (first, second):
            if which == "sign":
                start = clock()
                sign(URL, PAYOUT_CHECK, consumer_key="merchant", private_key=key)
                signed_times.append(clock() - start)
            else:
                start = clock()
                key.sign(message, _PADDING, _HASH)
                bare_times.append(clock() - start)
    return signed_times[5:], bare_times[5:]


@pytest.mark.parametrize(("bits", "runs"), [(2048, 400), (4096, 120)])
def test_signing_overhead_over_bare_rsa(bits: int, runs: int) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    signed, bare = _measure(key, runs)
    ratios = [s / b for s, b in zip(signed, bare, strict=True)]
    median_ratio = statistics.median(ratios)
    print(
        f"\nsigning a {len(PAYOUT_CHECK)}-parameter payout-check, {bits}-bit key, {runs} pairs:"
        f"\n  sign():        median {statistics.median(signed) * 1e6:8.1f} us"
        f"\n  bare sign:     median {statistics.median(bare) * 1e6:8.1f} us"
        f"\n  ratio:         median of pairs {median_ratio:.3f}, "
        f"of totals {sum(signed) / sum(bare):.3f} (target <= {TARGET_RATIO}: "
        f"{'met' if median_ratio <= TARGET_RATIO else 'MISSED'})"
    )
