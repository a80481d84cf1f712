"""Card data sealed to the team sender (RSA-OAEP + AES-GCM): it opens only with the sender's
key and only for the request it was sealed for; the sender's key file must be its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from console.core.team.errors import TeamSetupError
from console.core.team.storage.sealing import (
    SealError,
    open_sealed,
    private_key_file,
    public_half,
    seal,
)
from tests.helpers.sender import owner_only_pem
from tests.helpers.team import PAN

FIELDS = (("client_orderid", "p-1"), ("credit_card_number", PAN), ("cvv2", "123"))


def test_sealed_fields_open_only_with_the_senders_key_and_for_their_request(
    rsa_key: rsa.RSAPrivateKey, other_rsa_key: rsa.RSAPrivateKey
) -> None:
    pem, _fingerprint = public_half(rsa_key)
    blob = seal(pem, FIELDS, "a" * 64)
    assert PAN.encode() not in blob
    assert open_sealed(rsa_key, blob, "a" * 64) == FIELDS
    with pytest.raises(SealError):
        open_sealed(other_rsa_key, blob, "a" * 64)  # another key
    with pytest.raises(SealError):
        open_sealed(rsa_key, blob, "b" * 64)  # moved to another submission
    with pytest.raises(SealError):
        open_sealed(rsa_key, blob[:-1] + bytes([blob[-1] ^ 1]), "a" * 64)  # changed


def test_a_key_file_other_accounts_may_read_is_refused(
    tmp_path: Path, rsa_key: rsa.RSAPrivateKey
) -> None:
    path = owner_only_pem(tmp_path / "seal.pem", rsa_key)
    assert private_key_file(path).private_numbers() == rsa_key.private_numbers()
    path.chmod(0o644)
    with pytest.raises(TeamSetupError, match="chmod 600"):
        private_key_file(path)
