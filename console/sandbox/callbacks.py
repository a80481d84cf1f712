"""Callbacks to the merchant's server (contract section 6, field notes "Callbacks").

* ``server_callback_url``: one GET when the order reaches a final status.
* ``notify_url``: a GET at the final status and again on every later update (reversal,
  chargeback).
* Parameters: ``status``, ``orderid``, ``merchant_order``, ``client_orderid``, ``amount``,
  ``type``, ``merchant_data`` (when it was sent), ``error_message``/``error_code`` (for a
  decline) and ``control`` = lower-case hex SHA-1 of ``status + orderid + client_orderid +
  merchant_control`` when a merchant control secret is configured.
* A receiver that does not answer 200 is tried again with doubling back-off, a bounded
  number of times (deployed gateways try about 30 times over 14 days; the sandbox is
  quicker). The local sandbox calls any port; deployed gateways use only 80, 8080, 443 and
  8443.
* Only addresses on this machine (``localhost``, 127.0.0.0/8, ``::1``) are called unless the
  sandbox was started with remote callbacks allowed: an offline sandbox should not reach out
  to the addresses in example requests.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from functools import partial
from urllib.parse import urlencode, urlsplit

from console.core.addresses import is_loopback_host
from console.sandbox.records import Callback, Order
from console.sandbox.scheduler import Scheduler
from console.sandbox.state import Database

log = logging.getLogger("console.sandbox")
USER_AGENT = "gateway-console-sandbox"


def control_code(status: str, orderid: str, client_orderid: str, secret: str) -> str:
    """The ``control`` parameter: SHA-1 hex of status, orderid, client_orderid and secret."""
    text = status + orderid + client_orderid + secret
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def callback_params(
    order: Order, *, type_: str, status: str, amount: str, merchant_control: str | None
) -> list[tuple[str, str]]:
    """The query parameters of one callback."""
    params = [
        ("status", status),
        ("orderid", str(order.orderid)),
        ("merchant_order", order.client_orderid),
        ("client_orderid", order.client_orderid),
        ("amount", amount),
        ("currency", order.currency),
        ("type", type_),
    ]
    if status != "approved" and order.error_message:
        params += [("error_message", order.error_message), ("error_code", order.error_code)]
    if order.merchant_data is not None:
        params.append(("merchant_data", order.merchant_data))
    if merchant_control:
        code = control_code(status, str(order.orderid), order.client_orderid, merchant_control)
        params.append(("control", code))
    return params


class CallbackSender:
    """Records callbacks and delivers them on the scheduler's workers.

    Args:
        db: where callbacks and their attempts are recorded.
        scheduler: runs deliveries off the request threads.
        attempts: tries per callback before it is marked failed.
        backoff: seconds before the second try; each further wait doubles.
        timeout: seconds to wait for a receiver's answer.
        merchant_control: the shared secret for ``control``, or None.
        remote: also call addresses that are not on this machine.
    """

    def __init__(
        self,
        db: Database,
        scheduler: Scheduler,
        *,
        attempts: int = 5,
        backoff: float = 1.0,
        timeout: float = 5.0,
        merchant_control: str | None = None,
        remote: bool = False,
    ) -> None:
        self.remote = remote
        self.db = db
        self.scheduler = scheduler
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.timeout = timeout
        self.merchant_control = merchant_control
        # No proxies: a sandbox calls back on this machine or the merchant's own network.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def enqueue(self, order: Order, *, event: str, type_: str, status: str, amount: str) -> int:
        """Record and schedule the callbacks of one event; returns how many."""
        urls = [order.notify_url]
        if event == "final":
            urls.insert(0, order.server_callback_url)
        params = callback_params(
            order,
            type_=type_,
            status=status,
            amount=amount,
            merchant_control=self.merchant_control,
        )
        count = 0
        now = time.time()
        for url in filter(None, urls):
            record = Callback(order.orderid, event, url, json.dumps(params), now, now)
            self.db.insert(record)
            assert record.id is not None
            self.scheduler.call_later(0, partial(self.deliver, record.id))
            count += 1
        return count

    def resume(self) -> None:
        """Schedule the callbacks a previous run left pending (``--state``)."""
        for record in self.db.select(Callback, "state = 'pending'"):
            assert record.id is not None
            self.scheduler.call_at_wall(record.next_at, partial(self.deliver, record.id))

    def deliver(self, callback_id: int) -> None:
        """One delivery attempt; schedules the next one when the receiver did not say 200."""
        record = self.db.get(Callback, callback_id)
        if record is None or record.state != "pending":
            return
        params = [(str(n), str(v)) for n, v in json.loads(record.params)]
        url = record.url + ("&" if "?" in record.url else "?") + urlencode(params)
        status, result = self._get(url)
        record.attempts += 1
        record.last_result = result
        if status == 200:
            record.state, record.delivered_at = "delivered", time.time()
            log.info(
                "callback %s for order %s delivered to %s", record.id, record.orderid, record.url
            )
        elif record.attempts >= self.attempts or (status is None and result.startswith("not ")):
            record.state = "failed"
            log.warning(
                "callback %s for order %s to %s failed after %d attempts: %s",
                record.id,
                record.orderid,
                record.url,
                record.attempts,
                result,
            )
        else:
            wait = self.backoff * 2 ** (record.attempts - 1)
            record.next_at = time.time() + wait
            log.info(
                "callback %s to %s: %s; trying again in %.1f s", record.id, record.url, result, wait
            )
            self.scheduler.call_later(wait, partial(self.deliver, callback_id))
        self.db.update(record, "attempts", "last_result", "state", "delivered_at", "next_at")

    def _get(self, url: str) -> tuple[int | None, str]:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return None, "not an http(s) address"
        if not self.remote and not is_loopback_host(parts.hostname or ""):
            return None, (
                "not an address on this machine; start the sandbox with remote callbacks "
                "allowed (--remote-callbacks) to call other hosts"
            )
        request = urllib.request.Request(  # noqa: S310 (http and https only, checked above)
            url, headers={"User-Agent": USER_AGENT}, method="GET"
        )
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                response.read(65536)
                return int(response.status), f"HTTP {response.status}"
        except urllib.error.HTTPError as exc:
            exc.close()
            return exc.code, f"HTTP {exc.code}"
        except (OSError, http.client.HTTPException, ValueError) as exc:
            return None, f"no answer ({exc})"
