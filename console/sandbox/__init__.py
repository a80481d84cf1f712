"""The local sandbox: an offline, stateful emulator of the v4 gateway.

It verifies signatures with its own code (never the client's signer), validates with the
contract's rules, keeps orders, card references and recurring profiles (in memory or in a
SQLite file), calls back, runs recurring schedules on a clock that can be advanced, and can
inject failures.

Public API::

    handle = start_sandbox(port=0, callback_delay=0)
    handle.base_url        # "http://127.0.0.1:PORT/paynet"
    handle.demo            # DemoMerchant: login, endpoint ids, key pair (in memory)
    handle.add_merchant(login, public_key_pem, endpoint_id, endpoint_group_id=None)
    handle.set_faults("payout-check:500")
    handle.advance_clock(days=31)
    handle.stop()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.sandbox.handle import DemoMerchant, SandboxHandle, start_sandbox

__all__ = ["DemoMerchant", "SandboxHandle", "start_sandbox"]


def __getattr__(name: str) -> object:
    """The public names, loaded on first use: importing one of the sandbox's tables (the
    window's test-data hints read its outcomes and seeds) must not load its server."""
    if name in __all__:
        from console.sandbox import handle  # boundary: the server, on first use only

        return getattr(handle, name)
    raise AttributeError(f"module 'console.sandbox' has no attribute {name!r}")
