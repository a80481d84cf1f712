"""Everything a person can meet, as one exception tree.

Every error the core raises on purpose derives from :class:`ConsoleError`; its message is
written for the person using the console (what happened, what to do next). Anything else
that escapes the core is a programming error: fronts log it with its traceback and report
it as an internal error, never as bad input.

::

    ConsoleError
    ├── InputError                  bad input: a field, an option or a file the person gave;
    │   │                           nothing was sent
    │   ├── LoginInBodyError        (core.request_inputs) ``login`` given as a body field
    │   ├── UnencodableTextError    (core.signing) text with no UTF-8 form (a lone
    │   │                           surrogate); names the field
    │   ├── TeamSetupError          (core.team) a team setting (DSN, role, policy) is wrong
    │   └── CardDataNeedsWaitingError  (core.team) a held request or batch carries card
    │                               data: only a console that waits may submit it
    ├── KeyMaterialError            a private key or secret cannot be had
    │   ├── KeyProblem              (core.keys) unreadable, wrong passphrase, not RSA, too small
    │   └── VaultError              (core.secret_store, core.vault) the OS keyring
    │       ├── KeyringUnavailableError   no protected keyring (plaintext backends refused)
    │       ├── NoKeyError, KeyExistsError, VaultDamagedError
    ├── EnvironmentStoreError       (core.environments) environments.json and its rules
    │   ├── EnvironmentFileError    damaged or unreadable file, left untouched
    │   ├── InvalidEnvironmentError a setting breaks a rule (names the field)
    │   ├── UnknownEnvironmentError, BuiltinEnvironmentError, EnvironmentNotReadyError
    │   └── ConfirmationRequiredError  a production address change needs a yes
    ├── JournalUnavailableError     the history journal cannot be opened or written; since
    │   │                           nothing may be sent unjournaled, nothing was sent
    │   └── TeamUnavailableError    (core.team) the team database cannot be used
    ├── SendRefusedError            (core.pipeline) the double-payout guard or a declined
    │   │                           confirmation stopped a send; nothing was sent
    │   ├── RefusedError, BatchRefusedError  (core.pipeline, core.batch) with a code
    │   └── ApprovalRefusedError    (core.team) an approval step refused by the database
    │       └── NotApprovedError    rejected, expired, void or sent already
    ├── ApprovalPendingError        (core.team) submitted, no decision yet: nothing sent yet
    ├── TeamPermissionError         (core.team) an action refused to this person's role
    └── NetworkError                (raised by core.transport) no answer came back
        ├── NotSentError            it never arrived: safe to send again
        └── OutcomeUnknownError     it may have arrived: check the status first

The command line maps this tree to exit codes in one place (``console.cli.failures``).
"""

from __future__ import annotations


class ConsoleError(Exception):
    """Base of every error a person can meet; ``message`` is in the person's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(ConsoleError):
    """Bad input (a field, an option, a file the person named): nothing was sent."""


class KeyMaterialError(ConsoleError):
    """A private key or a secret cannot be had (file, passphrase, keyring)."""


class EnvironmentStoreError(ConsoleError):
    """The environments file or one of its environments cannot be used as it is."""


class JournalUnavailableError(ConsoleError):
    """The history journal cannot be opened or written.

    Attributes:
        path: the journal file, so the person can find it.
    """

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class SendRefusedError(ConsoleError):
    """The pipeline refused to send (double-payout guard, confirmation declined)."""


class NetworkError(ConsoleError):
    """A request that did not come back with an answer.

    Attributes:
        url: the address the request was for.
        safe_to_resend: True when the request certainly never arrived.
    """

    safe_to_resend = False

    def __init__(self, message: str, url: str) -> None:
        super().__init__(message)
        self.url = url


class NotSentError(NetworkError):
    """The request did not arrive at the gateway: sending again is safe."""

    safe_to_resend = True


class OutcomeUnknownError(NetworkError):
    """The request may have arrived: check the status, resend only with the same order id."""
