"""create-recurring-payment (contract section 4.3): the request table, response table and path.

Card types come from the contract's wording in the Meaning column: "SRC and DST" and
"Required for SRC, optional for DST" mean both card types; "Not supported for DST" means SRC
only; rows that say nothing have ``card_types=None``. The three date rows are typed
``FieldType.DATE`` so forms can offer a date editor; the contract's own type wording
("Numeric, DD.MM.YYYY") is kept in ``note``.
"""

from __future__ import annotations

from .build import SRC_AND_DST, SRC_ONLY, row, v4_paths
from .model import Command, FieldType, ResponseField

_S = FieldType.STRING
_N = FieldType.NUMERIC
_I = FieldType.INT
_D = FieldType.DATE

_REQ, _OPT, _CON = "Required", "Optional", "Conditional"
_SRC_REQUIRED = "Required for SRC, optional for DST."
_DATE_NOTE = "Contract type: Numeric, DD.MM.YYYY (8 digits); sample requests write year-first."
CARD_TYPES = ("SRC", "DST")
PERIODS = ("day", "week", "month")

FIELDS = (
    row(
        "rp_card_type",
        _REQ,
        FieldType.ENUM,
        "3",
        "`SRC` (sender's source card) or `DST` (receiver's destination card).",
        section="profile",
        choices=CARD_TYPES,
    ),
    row(
        "client-orderid",
        _REQ,
        _S,
        "128",
        "Connecting Party order id. SRC and DST.",
        section="profile",
        card_types=SRC_AND_DST,
    ),
    row(
        "credit-card-number",
        _REQ,
        _N,
        "19",
        "Payer's card number. SRC and DST.",
        section="card",
        card_types=SRC_AND_DST,
    ),
    row("cvv2", _OPT, _N, "3-4", "Card verification code.", section="card"),
    *(
        row(
            name,
            _CON,
            type_,
            size,
            _SRC_REQUIRED,
            section="card",
            card_types=SRC_AND_DST,
            note=_SRC_REQUIRED,
        )
        for name, type_, size in (
            ("card-printed-name", _S, "128"),
            ("expire-year", _N, "4"),
            ("expire-month", _N, "2"),
        )
    ),
    row(
        "amount",
        _CON,
        _N,
        "10",
        "Fixed charge amount. Its currency must equal the currency of the assigned project. "
        "Required unless `amount-from` with `amount-to`, or `amount-sequence`, is used. "
        "SRC and DST.",
        section="amount",
        card_types=SRC_AND_DST,
    ),
    row(
        "currency",
        _REQ,
        _S,
        "3",
        "Currency code. SRC and DST.",
        section="amount",
        card_types=SRC_AND_DST,
    ),
    *(
        row(name, _REQ, _S, size, meaning, section="payer", card_types=SRC_ONLY)
        for name, size, meaning in (
            ("country", "2", "Payer's country. Not supported for DST."),
            ("city", "128", "Payer's city. Not supported for DST."),
            ("zip-code", "10", "Payer's postal code. Not supported for DST."),
            ("address1", "256", "Payer's address. Not supported for DST."),
            ("first-name", "128", "Not supported for DST."),
            ("last-name", "128", "Not supported for DST."),
            ("email", "128", "Not supported for DST."),
        )
    ),
    row(
        "amount-from",
        _CON,
        _N,
        "10",
        "Lower bound of a random amount per charge. Used together with `amount-to`. Required "
        "if `amount` and `amount-sequence` are not used. SRC and DST.",
        section="amount",
        card_types=SRC_AND_DST,
    ),
    row(
        "amount-to",
        _CON,
        _N,
        "10",
        "Upper bound of a random amount per charge. Required under the same condition as "
        "`amount-from`. SRC and DST.",
        section="amount",
        card_types=SRC_AND_DST,
    ),
    row(
        "amount-sequence",
        _CON,
        _N,
        "10",
        "List of amounts, separated by commas, charged in order. Required if `amount` and the "
        "from/to pair are not used. SRC and DST.",
        section="amount",
        card_types=SRC_AND_DST,
    ),
    row(
        "period",
        _CON,
        _S,
        "32",
        "One of `day`, `week`, `month`. Not supported for DST.",
        section="schedule",
        card_types=SRC_ONLY,
        choices=PERIODS,
    ),
    row(
        "interval",
        _CON,
        _I,
        "-",
        "Multiplier applied to the period. Not supported for DST.",
        section="schedule",
        card_types=SRC_ONLY,
    ),
    row(
        "order_desc",
        _OPT,
        _S,
        "65K",
        "Description of the recurring payment. SRC and DST.",
        section="profile",
        card_types=SRC_AND_DST,
    ),
    row(
        "customer-ip",
        _OPT,
        _S,
        "45",
        "Payer's IP address. SRC and DST.",
        section="payer",
        card_types=SRC_AND_DST,
    ),
    row(
        "ssn",
        _OPT,
        _S,
        "32",
        "Social security number. Not supported for DST.",
        section="payer",
        card_types=SRC_ONLY,
    ),
    row(
        "birthday",
        _OPT,
        _D,
        "8",
        "Payer's birthday. Not supported for DST.",
        section="payer",
        card_types=SRC_ONLY,
        note=_DATE_NOTE,
    ),
    row("phone", _OPT, _S, "128", "Not supported for DST.", section="payer", card_types=SRC_ONLY),
    row(
        "state",
        _OPT,
        _S,
        "2-3",
        "Payer's state code. Required for USA, Canada and Australia. Not supported for DST.",
        section="payer",
        card_types=SRC_ONLY,
    ),
    row(
        "start-date",
        _OPT,
        _D,
        "8",
        "Date of the first scheduled charge. SRC and DST.",
        section="schedule",
        card_types=SRC_AND_DST,
        note=_DATE_NOTE,
    ),
    row(
        "finish-date",
        _OPT,
        _D,
        "8",
        "Date of the last charge. SRC and DST.",
        section="schedule",
        card_types=SRC_AND_DST,
        note=_DATE_NOTE,
    ),
    row(
        "max-repeats-number",
        _OPT,
        _I,
        "-",
        "Maximum repeats index. SRC and DST.",
        section="schedule",
        card_types=SRC_AND_DST,
    ),
    row(
        "purpose",
        _OPT,
        _S,
        "128",
        "Purpose of the transaction. Not supported for DST.",
        section="profile",
        card_types=SRC_ONLY,
    ),
    row(
        "notify_url",
        _OPT,
        _S,
        "1024",
        "Callback address. `server_callback_url` can be used instead. SRC and DST. A sample "
        "request spells it `notify-url`.",
        section="callbacks",
        card_types=SRC_AND_DST,
        alias="notify-url",
        note="The sample spelling `notify-url` is accepted as an alias.",
    ),
    row(
        "server_callback_url",
        _OPT,
        _S,
        "128",
        "Address that receives the callback at the final status.",
        section="callbacks",
    ),
)

RESPONSE_FIELDS = (
    ResponseField(
        "type",
        "`create-recurring-payment-response`, `validation-error` or `error`. For the last two, "
        "`error-message` and `error-code` carry the details.",
    ),
    ResponseField("recurring-payment-id", "Id of the new profile."),
    ResponseField(
        "status", "`approved` when the request is accepted. It is not a transaction status."
    ),
    ResponseField("serial-number", "Per-request unique number."),
    ResponseField(
        "error-message",
        "Reason for a decline or error details, when status is declined or error.",
    ),
    ResponseField("error-code", "Error code, when status is declined or error."),
)

NOTES = (
    "Exactly one amount rule is used: fixed `amount`; the `amount-from` and `amount-to` pair "
    "(each charge is a random amount between them); `amount-sequence`.",
    "With `amount-sequence`, when the current repeats number is higher than the number of list "
    "elements, every new charge uses the last amount. To begin at the first amount, the current "
    "repeats number must be 0.",
    "`period` and `interval` are both sent or both omitted. When both are sent, the profile has "
    "an automatic schedule. `interval` multiplies the period. `day` charges every day and "
    "`week` every 7 days. `month` charges on the same day of the month as the start date, "
    "whatever the month length. When both are omitted, there is no automatic schedule.",
    "Send either `notify_url` or `server_callback_url`, not both.",
    "When the current repeats number reaches `max-repeats-number`, the profile goes to Stopped. "
    "When the finish date is reached, the profile also goes to Stopped.",
    "Sample requests write the date fields in a hyphenated year-first form, while the "
    "documented format is DD.MM.YYYY with 8 digits. The documented format is the contract.",
)

CREATE_RECURRING_PAYMENT = Command(
    name="create-recurring-payment",
    title="Create recurring payment profile",
    purpose="Create a recurring payment profile. The command is synchronous.",
    fields=FIELDS,
    response_fields=RESPONSE_FIELDS,
    success_type="create-recurring-payment-response",
    # The contract gives only the endpoint form for this command: no "group" template.
    path_templates=v4_paths("create-recurring-payment", group=False),
    notes=NOTES,
)
