"""The sandbox's HTTP server: an ASGI app on :mod:`console.core.http_service` (uvicorn with
the httptools parser, one thread with its own asyncio loop) on loopback with keep-alive.

Contract paths live under ``/paynet`` (``POST`` only: other methods get 405, unknown paths
404); control paths under ``/_sandbox``. Injected faults are applied here, while the answer
is written: latency (waited on the loop, never blocking it), a dropped connection, a
truncated or a garbage body.

A request is answered on the loop thread: the sandbox's work per request (the RSA check, a
few SQLite statements) is well under a millisecond, less than a hand-over to a thread pool
costs, and the GIL would serialise a pool anyway.
"""

from __future__ import annotations

import asyncio
import logging
import time

from console.core.http_service import HttpService, Limits, Link, Receive, Scope, Send, read_body
from console.sandbox.app import BASE_PATH, COMMAND_NAMES, ApiRequest, Sandbox, route
from console.sandbox.control import PREFIX, Control
from console.sandbox.wire import CONTRACT_HEADERS, FORM_CONTENT_TYPE, Reply, internal_error, plain

log = logging.getLogger("console.sandbox")
MAX_BODY = 1024 * 1024
LIMITS = Limits(
    max_connections=4096,
    request_deadline=15.0,  # from a request's first byte to its last
    idle_timeout=65.0,  # the answers say Keep-Alive: timeout=60
)
# Bytes that are no form data at all: what a broken proxy or a crashed backend might send.
GARBAGE = b"\xff\xfe\x00\x01<\x8f\x90garbage\x00\xc3\x28\xa0\xa1 not form data \xe2\x82\n"
_CONTRACT = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in CONTRACT_HEADERS]
_CLOSE = (b"Connection", b"close")

_NOT_FOUND = (
    "404 Not Found: {path} is not a path of this sandbox. Command paths are "
    f"{BASE_PATH}/api/v4/<command>/<endpoint_id> and "
    f"{BASE_PATH}/api/v4/<command>/group/<endpoint_group_id> (no group form for "
    f"create-recurring-payment); commands: {', '.join(COMMAND_NAMES)}. "
    f"Sandbox controls: GET {PREFIX}."
)


def origin_for(host: str, port: int) -> str:
    """The address people and clients on this machine use to reach a server bound to ``host``.

    A wildcard bind (``0.0.0.0``, ``::``) is reached locally through loopback; the printed
    base URL must be one a client can actually send to (and sign: the whole URL is signed).
    """
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # noqa: S104
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


async def _gone(receive: Receive) -> None:
    """Wait until the client has hung up (the request's body is read by then)."""
    while (await receive())["type"] != "http.disconnect":
        pass


class SandboxServer:
    """The sandbox's HTTP server: answers each request of its :class:`HttpService`."""

    def __init__(self, address: tuple[str, int], sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.service = HttpService(
            self,
            address,
            LIMITS,
            name="sandbox-http",
            log=log,
            server_header=b"gateway-console-sandbox",
        )
        self.server_address = self.service.server_address
        self.origin = origin_for(address[0], self.server_address[1])
        self._host = self.origin.split("//", 1)[1]
        self.control = Control(sandbox, self.origin + BASE_PATH)

    def start(self) -> None:
        """Serve in the background."""
        self.service.start()

    def ask_to_stop(self) -> None:
        """Begin :meth:`shutdown` without waiting for it."""
        self.service.ask_to_stop()

    def shutdown(self) -> None:
        """Stop serving: answers in progress end with ``Connection: close`` (bounded)."""
        self.service.stop()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        link: Link = scope["extensions"]["console"]["link"]
        length = encoding = None
        host = content_type = authorization = ""
        for name, value in scope["headers"]:  # names come lower-cased
            if name == b"content-length":
                length = int(value)  # the parser let one plain number through, no more
            elif name == b"transfer-encoding":
                encoding = value
            elif name == b"host":
                host = value.decode("latin-1")
            elif name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"authorization":
                authorization = value.decode("latin-1")
        if length is None and encoding is not None:
            # a body without a length is not read: the connection closes, so no byte of it
            # can ever be taken for a second request
            await self._write(
                send, plain(411, "411 Length Required: send a Content-Length."), close=True
            )
            return
        if length is not None and length > MAX_BODY:
            await self._write(
                send, plain(413, f"413: the body must be 0 to {MAX_BODY} bytes."), close=True
            )
            return
        body = await self._body(receive, link) if length else b""
        if body is None:
            return
        method: str = scope["method"]
        path = scope["raw_path"].decode("latin-1")
        query: bytes = scope["query_string"]
        if path == PREFIX or path.startswith(PREFIX + "/"):
            try:
                reply = self.control.handle(method, path, query, body, content_type.lower())
            except Exception:
                reply, error_id = internal_error()
                log.exception("internal error on control path %s [%s]", path, error_id)
            await self._write(send, reply)
            return
        api_route = route(path)
        if api_route is None:
            await self._write(send, plain(404, _NOT_FOUND.format(path=path)))
            return
        if method != "POST":
            text = f"405 Method Not Allowed: {path} answers POST only."
            await self._write(send, plain(405, text, (("Allow", "POST"),)))
            return
        request = ApiRequest(
            api_route,
            method,
            "http",
            host or self._host,
            path,
            query,
            {"Content-Type": content_type, "Authorization": authorization},
            body,
        )
        try:
            result = self.sandbox.handle(request)
        except Exception:  # every request gets an answer, also when the sandbox has a bug
            reply, error_id = internal_error()
            log.exception("internal error while handling %s [%s]", path, error_id)
            await self._write(send, reply)
            return
        latency = result.faults.latency or 0.0
        if latency and await self._hung_up_within(latency, receive):
            log.info(
                "a client at %s hung up (or stopped reading) before the answer was written",
                link.peer,
            )
            return
        await self._write(send, result.reply, result.faults.answer, link, receive)
        self.sandbox.stats.add(time.perf_counter() - link.started - latency)

    async def _body(self, receive: Receive, link: Link) -> bytes | None:
        body = await read_body(receive)
        if body is None and not link.timed_out:  # a 408 was logged already
            log.info("a client at %s hung up in the middle of its request", link.peer)
        return body

    async def _hung_up_within(self, seconds: float, receive: Receive) -> bool:
        """Wait ``seconds`` (less when the sandbox stops); True when the client hung up."""
        waits: list[asyncio.Future[object]] = [
            asyncio.ensure_future(_gone(receive)),
            asyncio.ensure_future(asyncio.sleep(seconds)),
        ]
        if self.service.stop_event is not None:
            waits.append(asyncio.ensure_future(self.service.stop_event.wait()))
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        return waits[0] in done

    async def _write(
        self,
        send: Send,
        reply: Reply,
        fault: str | None = None,
        link: Link | None = None,
        receive: Receive | None = None,
        *,
        close: bool = False,
    ) -> None:
        if fault == "drop" and link is not None and receive is not None:
            log.info("fault drop: connection closed without an answer")
            link.close()
            await _gone(receive)
            return
        body, status, content_type = reply.body, reply.status, reply.content_type
        if fault == "garbage":
            body, status, content_type = GARBAGE, 200, FORM_CONTENT_TYPE
        headers = [
            (b"Content-Type", content_type.encode("latin-1")),
            (b"Content-Length", str(len(body)).encode("ascii")),
            *_CONTRACT,
            *((n.encode("latin-1"), v.encode("latin-1")) for n, v in reply.headers),
        ]
        truncate = fault == "truncate" and link is not None and receive is not None
        if close or truncate or self.service.stopping.is_set():
            headers.append(_CLOSE)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if truncate and link is not None and receive is not None:
            await send(
                {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
            )
            link.close()
            await _gone(receive)
            return
        await send({"type": "http.response.body", "body": body})
