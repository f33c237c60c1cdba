"""A trusted host handler served to code inside a machine, over HTTP on a guest
loopback port, with no network and no credentials in the machine.

    async with serve_http(machine, handler, port=8000) as url:
        await machine.run(Command(["wget", "-qO-", f"{url}/v1/models"]))

A static program of ours listens inside the machine (no Python needed there) and
relays each request to the host over one process session. ``handler`` (sync or
async) takes an HttpRequest and returns an HttpResponse. Only GET and POST reach
it (others get 405); bodies are at most 4 MiB each way (a larger request gets
413, a larger response becomes 502); at most 16 requests wait at once (more get
503); no header crosses; an exception becomes 502 with no detail in the guest.
In a task group, one relay serves every member: through the shared loopback
(local, docker), or under gVisor, where members share no loopback, also on the
member's own address on the group's private link (never on Docker's bridge), so
the others reach it at ``http://<member>:<port>``; the yielded URL (127.0.0.1)
is the serving member's own.
On ShellSim the relay is a virtual route: ``curl``/``wget`` to the port inside
the simulation call the handler, with the same limits."""

from __future__ import annotations

import asyncio
import inspect
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable, Union

from shellbox import _go, _wire

__all__ = ["HttpRequest", "HttpResponse", "serve_http", "MAX_BODY_BYTES", "MAX_PENDING_REQUESTS"]

MAX_BODY_BYTES = 4 * 1024 * 1024
MAX_PENDING_REQUESTS = 16


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    query: str
    body: bytes


@dataclass(frozen=True)
class HttpResponse:
    status: int
    body: bytes
    content_type: str = "application/json"


Handler = Callable[[HttpRequest], Union[HttpResponse, Awaitable[HttpResponse]]]


async def _answer(relay: int, request_id: int, request: HttpRequest, handler: Handler) -> None:
    try:
        if inspect.iscoroutinefunction(handler):
            response = await handler(request)
        else:
            # A blocking handler must not stall the event loop.
            response = await asyncio.to_thread(handler, request)
            if inspect.isawaitable(response):
                response = await response
        if not isinstance(response, HttpResponse):
            raise TypeError(f"the handler returned {type(response).__name__}, not HttpResponse")
        head = _wire.RelayResponse(request_id, response.status, response.content_type)
        payload = bytes(response.body)
    except Exception:
        # The guest learns only that the handler failed (502), nothing of why.
        head, payload = _wire.RelayResponse(request_id, 502, None, True), b""
    await _go.call(relay, _wire.RELAY_RESPOND, head, payload)


@asynccontextmanager
async def serve_http(machine: _go.GoMachine, handler: Handler, *, port: int) -> AsyncIterator[str]:
    """Serve handler on guest loopback ``port`` of machine; yields the guest URL
    (``http://127.0.0.1:PORT``). Leaving the context stops the listener and its
    session; a machine closed first makes the exit raise MachineClosed."""
    if not isinstance(machine, _go.GoMachine):
        raise TypeError(f"serve_http takes a shellbox machine, got {type(machine).__name__}")
    if isinstance(port, bool) or not isinstance(port, int):
        raise TypeError(f"port must be an int, got {type(port).__name__}")
    reply = await _go.call(0, _wire.ROOT_SERVE_HTTP, _wire.ServeHTTPRequest(_go.machine_handle(machine), port))
    relay = _go._Handle(reply.header.handle)
    answers: set[asyncio.Task[None]] = set()

    async def pump() -> None:
        while True:
            got = await _go.call(relay.id, _wire.RELAY_NEXT)
            head: _wire.RelayRequest = got.header
            if head.closed:
                return
            request = HttpRequest(head.method, head.path, head.query, got.segments[0])
            answer = asyncio.create_task(_answer(relay.id, head.id, request, handler))
            answers.add(answer)
            answer.add_done_callback(answers.discard)

    pumping = asyncio.create_task(pump())
    try:
        yield reply.header.url
    finally:
        pumping.cancel()
        for answer in list(answers):
            answer.cancel()
        await asyncio.gather(pumping, *answers, return_exceptions=True)
        try:
            await _go.call(relay.id, _wire.RELAY_CLOSE)
        finally:
            relay.detach()
            await _go.call(relay.id, _wire.ANY_RELEASE)
