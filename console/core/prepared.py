"""One request validated and signed, ready to send: what the inspector shows and what the
guard, the journal and the transport take. Preparing sends nothing, so this module loads no
HTTP library (``sign`` and ``validate`` start like a bare signer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from console.core.errors import InputError
from console.core.gateway_identity import gateway_identity
from console.core.request_inputs import request_url
from console.core.signing import SignedRequest, sign
from console.core.spec import request_fields, validate
from console.core.spec.model import Problem, Severity


@dataclass(frozen=True, slots=True)
class PreparedRequest:
    """A request ready to send, with everything the inspector shows.

    Attributes:
        command: the command name.
        url: the full request URL (the whole path is signed).
        params: the body parameters in send order.
        problems: validation findings (errors and warnings).
        signed: the signed request, or None when errors block signing.
    """

    command: str
    url: str
    params: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...]
    signed: SignedRequest | None

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    def value(self, name: str) -> str | None:
        """The first body value sent under ``name``, if any."""
        return next((v for n, v in self.params if n == name), None)

    @property
    def gateway(self) -> str:
        """The identity of the gateway and login it goes to (the double-payout guard's key,
        :mod:`console.core.gateway_identity`), whatever environment or spelling named it."""
        login = self.signed.oauth.get("oauth_consumer_key", "") if self.signed else ""
        return gateway_identity(self.url, login)


def prepare(
    command: str,
    values: Mapping[str, str],
    *,
    base_url: str,
    login: str,
    private_key: RSAPrivateKey,
    endpoint_id: str | None = None,
    endpoint_group_id: str | None = None,
    path_templates: Mapping[str, str] | None = None,
    nonce: str | None = None,
    timestamp: int | None = None,
    skip_validation: bool = False,
) -> PreparedRequest:
    """Validate and sign one request. Sends nothing.

    Raises:
        InputError: unknown command, no endpoint id or group id for the URL, an unusable
            base URL or path template, an empty login, or ``login`` given as a field.
    """
    url = request_url(
        command,
        values,
        login,
        base_url=base_url,
        endpoint_id=endpoint_id,
        endpoint_group_id=endpoint_group_id,
        path_templates=path_templates,
    )
    problems = tuple(validate(command, values))
    params = tuple(request_fields(command, values))
    blocked = any(p.severity is Severity.ERROR for p in problems) and not skip_validation
    signed = None
    if not blocked:
        try:
            signed = sign(
                url,
                params,
                consumer_key=login,
                private_key=private_key,
                nonce=nonce,
                timestamp=timestamp,
            )
        except ValueError as exc:  # an address the signer cannot use: the person's to fix
            raise InputError(str(exc)) from None
    return PreparedRequest(command, url, params, problems, signed)
