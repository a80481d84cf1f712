"""What an API client's collection holds, whatever the client: Postman's and Bruno's.

One request per command with the example values; card data and the ids that tie the
requests together come from variables (``{{name}}``, the syntax both clients use), so the
collection runs again and again without repeating an order id and carries no card data.
Each client writes its own scripts from :data:`FRESH_IDS` and :data:`KEPT_IDS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from console.core.masking import is_sensitive, pan_fields
from console.core.spec import COMMANDS, example_values
from console.core.spec.examples import (
    SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID,
    SANDBOX_FIRST_PAYMENT_ORDERID,
)

# Body values that come from variables: the ids that tie the requests together.
TIED = {
    ("payout-check", "client_orderid"): "{{payoutOrderId}}",
    ("status", "client_orderid"): "{{payoutOrderId}}",
    ("status", "orderid"): "{{payoutGatewayOrderId}}",
    ("create-card-ref", "client_orderid"): "{{firstPaymentClientOrderId}}",
    ("create-card-ref", "orderid"): "{{firstPaymentOrderId}}",
    ("create-recurring-payment", "client-orderid"): "{{subscriptionOrderId}}",
}
# Before a request: a fresh order id each run (variable, prefix before the time in ms).
FRESH_IDS = {
    "payout-check": ("payoutOrderId", "payout-"),
    "create-recurring-payment": ("subscriptionOrderId", "subscription-"),
}
# After a request: an answer field kept in a variable (payout-check's order, for status).
KEPT_IDS = {"payout-check": ("gateway-order-id", "payoutGatewayOrderId")}
# Variables the collection sets itself, with a first value.
COLLECTION_VARIABLES = (
    ("payoutOrderId", "payout-0001"),
    ("payoutGatewayOrderId", ""),
    ("subscriptionOrderId", "subscription-0001"),
)


def first_payment_variables(*, sandbox: bool) -> tuple[tuple[str, str], ...]:
    """create-card-ref's first payment, as the environment's variables: for a sandbox the
    approved one the sandbox seeds (the collection then runs as exported), elsewhere the
    example's placeholders, to be replaced by a real first payment's ids."""
    if sandbox:
        ids = (SANDBOX_FIRST_PAYMENT_CLIENT_ORDERID, str(SANDBOX_FIRST_PAYMENT_ORDERID))
    else:
        example = example_values("create-card-ref")
        ids = (example["client_orderid"], example["orderid"])
    return tuple(zip(("firstPaymentClientOrderId", "firstPaymentOrderId"), ids, strict=True))


_PATH_VARIABLES = (
    ("{endpoint_id}", "{{endpointId}}"),
    ("<endpoint_id>", "{{endpointId}}"),
    ("{endpoint_group_id}", "{{endpointGroupId}}"),
    ("<endpoint_group_id>", "{{endpointGroupId}}"),
)


_READ_ANSWER = """\
// The answer is form-urlencoded, each value followed by a line feed.
const fields = {};
String(@BODY@).split("&").forEach((item) => {
  const at = item.indexOf("=");
  if (at < 1) return;
  const decode = (text) => {
    try { return decodeURIComponent(text.replace(/\\+/g, " ")); } catch (e) { return text; }
  };
  fields[decode(item.slice(0, at)).trim()] = decode(item.slice(at + 1)).replace(/\\n$/, "");
});"""


def read_answer_js(body: str) -> str:
    """JavaScript that reads the answer's fields into ``fields``; ``body`` is the client's
    expression for the answer's text."""
    return _READ_ANSWER.replace("@BODY@", body)


@dataclass(frozen=True, slots=True)
class CollectionTarget:
    """The gateway an exported collection talks to (an environment, or connection options).

    Attributes:
        name: the environment's name in the client.
        sandbox: the gateway is a sandbox: its test card fills the card variables and a
            key may be filled in.
    """

    name: str
    base_url: str | None = None
    login: str | None = None
    endpoint_id: str | None = None
    endpoint_group_id: str | None = None
    path_templates: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    sandbox: bool = False

    @property
    def group_form(self) -> bool:
        """The paths' endpoint group form: only when the group is all there is (an endpoint
        id is narrower)."""
        return bool(self.endpoint_group_id) and not self.endpoint_id


@dataclass(frozen=True, slots=True)
class PlannedRequest:
    """One request of a collection.

    Attributes:
        command: the command's wire name.
        segments: the path after the base URL, split at ``/``, ids as variables.
        fields: the body, in the contract's example order, with variables where planned.
    """

    command: str
    segments: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]


def body_value(command: str, name: str, value: str) -> str:
    """The value a collection sends: a tied id's or a card field's variable, else ``value``."""
    tied = TIED.get((command, name))
    if tied is not None:
        return tied
    if is_sensitive(name):
        return "{{" + ("cardNumber" if name in pan_fields() else "cvv2") + "}}"
    return value


def planned_requests(
    *,
    group: bool = False,
    values: Mapping[str, Mapping[str, str]] | None = None,
    path_templates: Mapping[str, Mapping[str, str]] | None = None,
    today: date | None = None,
) -> list[PlannedRequest]:
    """Every command's request.

    Args:
        group: use the endpoint group form of the paths where the command has one.
        values: per command, fields that replace the example values (a value of ``""``
            drops the field).
        path_templates: per command, an environment's path overrides.
        today: the date the example values are computed from (the default: today).
    """
    planned = []
    for command, spec in COMMANDS.items():
        fields = example_values(command, today=today)
        fields.update((values or {}).get(command, {}))
        templates = {**spec.path_templates, **(path_templates or {}).get(command, {})}
        form = "group" if group and "group" in templates else "endpoint"
        path = templates[form]
        for placeholder, variable in _PATH_VARIABLES:
            path = path.replace(placeholder, variable)
        planned.append(
            PlannedRequest(
                command=command,
                segments=tuple(s for s in path.split("/") if s),
                fields=tuple(
                    (name, body_value(command, name, value))
                    for name, value in fields.items()
                    if value != ""
                ),
            )
        )
    return planned
