"""The sandbox's ``error-code`` table. The contract does not show error codes; these numbers
are the sandbox's own and never change meaning.

* 1xx: ``type=validation-error``: the request breaks a rule of the contract (one number per
  validation problem code of ``console.core.spec``).
* 2xx: ``type=error``: the request is well formed but cannot be carried out (unknown order,
  duplicate order id, endpoint of another login...).
* 3xx: a transaction ended ``declined``, ``filtered`` or ``unknown`` (status answer and
  callbacks).
"""

from __future__ import annotations

# Problem.code of console.core.spec -> error-code of a validation-error answer.
VALIDATION_CODES: dict[str, int] = {
    "required": 101,
    "too-long": 102,
    "too-short": 103,
    "type": 104,
    "format": 105,
    "choice": 106,
    "date": 107,
    "either-or": 108,
    "together": 109,
    "not-supported": 110,
    "luhn": 111,
    "expired": 112,
    "range": 113,
    "currency": 114,
    "country": 115,
    "ip": 116,
    "email": 117,
    "url": 118,
    "callback-port": 119,
    "alias-duplicate": 120,
    "state-required": 121,
    "amount-rule": 122,
    "schedule": 123,
    "date-order": 124,
    "receiver": 125,
    "unknown-field": 126,
    "not-body": 127,
    "surrounding-space": 128,  # a warning: never answered, numbered for completeness
    "callback-unheard": 129,  # a warning about this computer: never answered
    "control-character": 130,
    # the sandbox's own checks
    "repeated": 150,  # a parameter sent more than once
    "encoding": 151,  # a value that is not UTF-8 text
    "start-date-past": 152,  # a recurring start-date before the sandbox's today
}
OTHER_VALIDATION = 199  # a problem code newer than this table

# type=error
ENDPOINT_NOT_YOURS = 201
DUPLICATE_ORDER = 202
FIRST_PAYMENT_UNKNOWN = 203
FIRST_PAYMENT_NOT_FINAL = 204
FIRST_PAYMENT_NOT_APPROVED = 205
RECURRING_ID_UNKNOWN = 206
ORDER_NOT_FOUND = 207
SERIAL_MISMATCH = 208
DUPLICATE_PROFILE = 209

# transaction results
EXPIRED_CARD = 301
INSUFFICIENT_FUNDS = 302
NOT_PERMITTED = 303
STOLEN_CARD = 304
DECLINED_OTHER_CVV2 = 305
DECLINED_BY_AMOUNT = 306
FILTERED_BY_AMOUNT = 307
OUTCOME_UNKNOWN = 308


def validation_code(problem_code: str) -> int:
    """The number for a validation problem code (199 for codes newer than the table)."""
    return VALIDATION_CODES.get(problem_code, OTHER_VALIDATION)
