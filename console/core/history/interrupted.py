"""When a pending row is interrupted: its console stopped (or its deadline passed) before
the answer arrived. One rule for the local journal and the team's shared one."""

from __future__ import annotations

import os
import sys

INTERRUPTED_SUMMARY = (
    "The console stopped before the answer arrived, so the request may have reached the "
    "gateway. Check the order status before sending it again, and resend only with the same "
    "client_orderid."
)
IN_FLIGHT_MARGIN = 60.0  # seconds beyond the timeouts before a pending row cannot be in flight


def process_alive(pid: int | None) -> bool:
    """Whether the process that wrote a pending row still runs (so it may still finish it)."""
    if not pid:
        return False
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        import ctypes  # Windows only

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True
