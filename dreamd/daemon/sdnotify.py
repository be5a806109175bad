"""systemd's notify protocol in a few lines: READY, STATUS, WATCHDOG, STOPPING.

Messages are datagrams on ``$NOTIFY_SOCKET`` (``@`` means the abstract namespace), sent without
blocking: when the receiver's queue is full the message is dropped, never the event loop stalled.
Outside systemd every call is a no-op. The watchdog interval is half of ``$WATCHDOG_USEC`` when
``$WATCHDOG_PID`` is unset or ours.
"""

from __future__ import annotations

import os
import socket

__all__ = ["notify", "watchdog_interval"]


def notify(*lines: str) -> bool:
    """Send ``lines`` to systemd; False when not running under it or the send failed."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.setblocking(False)  # a reader that stopped reading must never stall the daemon
            sock.connect(address)
            sock.send("\n".join(lines).encode("utf-8"))
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between WATCHDOG=1 pings (half the timeout), or None when there is no watchdog."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) <= 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000
