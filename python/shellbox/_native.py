"""Loading libshellbox and making calls through its C ABI (see cgo/ABI.md).

Every call is asynchronous on the Go side: ``sb_call`` returns at once and the
library reports completion through one C callback, from a Go thread. ctypes
releases the GIL around ``sb_call`` and takes it for the callback, so no
Python thread ever blocks inside Go. A call made from an event loop is
queued instead (``sb_call_queued``): the loop watches the library's eventfd
and takes finished calls with one ``sb_drain``, whose callbacks run on the
loop's own thread, so completing a call costs no foreign thread taking the
GIL and no second wake-up.
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import itertools
import json
import math
import os
import threading
import weakref
from asyncio.events import _get_running_loop
from pathlib import Path
from typing import Any, NamedTuple

_PACKAGE = Path(__file__).resolve().parent
ABI_VERSION = 3

_CALLBACK = ctypes.CFUNCTYPE(
    None,
    ctypes.c_uint64,
    ctypes.c_int32,
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_void_p,
    ctypes.c_size_t,
    ctypes.c_void_p,
    ctypes.c_size_t,
)


# Large reply segments are written by Go straight into a bytes object
# allocated here (sb_alloc), so a reply is never held twice.
_ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t)
_new_bytes = ctypes.pythonapi.PyBytes_FromStringAndSize
_new_bytes.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t]
_new_bytes.restype = ctypes.py_object
_bytes_data = ctypes.pythonapi.PyBytes_AsString
_bytes_data.argtypes = [ctypes.py_object]
_bytes_data.restype = ctypes.c_void_p


class Reply(NamedTuple):
    # A tuple: made on every call's completion, where a frozen dataclass
    # costs a few microseconds more.
    header: Any
    segments: tuple[bytes, bytes]


class GoError(Exception):
    """An error header from the library, before it is mapped to a Python class."""

    def __init__(self, header: dict[str, Any]):
        super().__init__(header.get("message", "unknown error"))
        self.header = header


class _Pending:
    __slots__ = ("loop", "future", "event", "outcome", "keepalive", "buffers", "answered", "confirmed")

    def __init__(self, loop, future, keepalive, event=None):
        self.loop = loop
        self.future = future
        self.event = event
        self.outcome: Reply | GoError | None = None
        self.keepalive = keepalive
        self.buffers: dict[int, bytes] = {}  # address -> a bytes object Go fills (see _alloc)
        self.answered = False  # Go has reported (asynchronous calls, set on the loop's thread)
        self.confirmed: asyncio.Future | None = None  # set once answered, after a cancellation


_pending: dict[int, _Pending] = {}
_ids = itertools.count(1)
_lock = threading.Lock()


def _settle(pending: _Pending, outcome: Reply | GoError) -> None:
    """Completes an asynchronous call, on its loop's thread."""
    pending.answered = True
    if pending.confirmed is not None and not pending.confirmed.done():
        pending.confirmed.set_result(None)
    future = pending.future
    if future.done():  # cancelled by its caller
        return
    if isinstance(outcome, GoError):
        future.set_exception(outcome)
    else:
        # In a box the caller empties: a finished future lingers (e.g. in the
        # wake-up of the task that awaited it) and must not keep a large reply.
        future.set_result([outcome])


@_ALLOC
def _alloc(call, size):
    """A bytes object of size bytes for Go to fill with a reply segment, or
    NULL (Go then passes its own memory, which is copied)."""
    with _lock:
        pending = _pending.get(call)
    if pending is None:
        return None
    try:
        buffer = _new_bytes(None, size)
    except MemoryError:
        return None
    address = _bytes_data(buffer)
    pending.buffers[address] = buffer
    return address


def _segment(pending: _Pending, address: int | None, size: int) -> bytes:
    if not size:
        return b""
    buffer = pending.buffers.pop(address, None)
    if buffer is not None and len(buffer) == size:
        return buffer
    return ctypes.string_at(address, size)


@_CALLBACK
def _on_done(call, status, header, header_len, seg0, seg0_len, seg1, seg1_len):
    with _lock:
        pending = _pending.pop(call, None)
    if pending is None:
        return
    try:
        head = _decode(ctypes.string_at(header, header_len).decode("utf-8", "surrogatepass")) if header_len else {}
        if status:
            outcome: Reply | GoError = GoError(head)
        else:
            outcome = Reply(head, (_segment(pending, seg0, seg0_len), _segment(pending, seg1, seg1_len)))
    except BaseException as error:  # noqa: BLE001 - an exception here would leave the caller waiting forever
        outcome = GoError({"kind": type(error).__name__, "message": f"reading the reply: {error!r}"})
    finally:
        pending.buffers.clear()
    if pending.loop is None:
        pending.outcome = outcome
        if pending.event is not None:  # synchronous calls return after this callback
            pending.event.set()
    elif pending.loop is _get_running_loop():  # drained by the call's own loop
        _settle(pending, outcome)
    else:
        try:
            pending.loop.call_soon_threadsafe(_settle, pending, outcome)
        except RuntimeError:
            pass  # the loop is closed; nobody is waiting any more


# One encoder and decoder for every call: json.dumps with options builds a
# new encoder each time, json.loads of bytes first guesses their encoding.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_decode = json.JSONDecoder().decode


def encode(request: Any) -> bytes:
    """A request as JSON bytes. Strings are written as they are: a string
    holding undecodable bytes (surrogates) reaches Go as bytes that are not
    UTF-8, and Go refuses it naming its field, rather than a replacement
    character running in its place. Non-finite floats, which JSON lacks,
    go as the strings "NaN", "Infinity" and "-Infinity"."""
    if request is None:
        return b"{}"
    try:
        text = _encode(request)
    except ValueError:  # a non-finite float: Go refuses it by name
        text = _encode(_finite(request))
    return text.encode("utf-8", "surrogatepass")


def _finite(value: Any) -> Any:
    """value with NaN and infinities as the strings Go reads them as."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _library_path() -> Path:
    override = os.environ.get("SHELLBOX_LIBRARY")
    if override:
        return Path(override)
    return _PACKAGE / "_lib" / "libshellbox.so"


def bin_dir() -> Path:
    return _PACKAGE / "_bin"


class _Library:
    def __init__(self) -> None:
        path = _library_path()
        if not path.exists():
            raise ImportError(
                f"shellbox's native library is missing at {path}; reinstall shellbox (pip install .) "
                "or set SHELLBOX_LIBRARY"
            )
        lib = ctypes.CDLL(str(path))
        lib.sb_init.argtypes = [_CALLBACK, _ALLOC]
        lib.sb_init.restype = ctypes.c_int32
        lib.sb_call.argtypes = [
            ctypes.c_uint64,
            ctypes.c_uint64,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.c_size_t,
        ]
        lib.sb_call.restype = None
        lib.sb_call_sync.argtypes = lib.sb_call.argtypes
        lib.sb_call_sync.restype = None
        lib.sb_cancel.argtypes = [ctypes.c_uint64]
        lib.sb_cancel.restype = None
        lib.sb_shutdown.argtypes = []
        lib.sb_shutdown.restype = None
        lib.sb_call_queued.argtypes = lib.sb_call.argtypes
        lib.sb_call_queued.restype = None
        lib.sb_completion_fd.argtypes = []
        lib.sb_completion_fd.restype = ctypes.c_int
        # sb_drain only moves completions to callbacks on this thread: it
        # keeps the GIL (a PyDLL function), which those callbacks take anyway.
        drain = ctypes.PyDLL(str(path)).sb_drain
        drain.argtypes = []
        drain.restype = ctypes.c_int32
        self.drain = drain
        self.loops: weakref.WeakSet = weakref.WeakSet()  # event loops that watch completion_fd
        version = lib.sb_init(_on_done, _alloc)
        if version != ABI_VERSION:
            raise ImportError(f"{path} speaks ABI {version}, this package needs {ABI_VERSION}")
        self.lib = lib
        self.completion_fd = lib.sb_completion_fd()
        atexit.register(self.shutdown)

    def _queued(self, loop) -> bool:
        """Whether loop takes its calls' completions from the queue (it watches the eventfd)."""
        if loop in self.loops:
            return True
        if self.completion_fd < 0:
            return False
        try:
            loop.add_reader(self.completion_fd, self.drain)
        except NotImplementedError:  # a loop without add_reader: completions come as callbacks
            return False
        self.loops.add(loop)
        return True

    def shutdown(self) -> None:
        self.lib.sb_shutdown()

    def start(self, handle: int, method: str, request: Any, payload: bytes, loop) -> tuple[int, _Pending]:
        req = encode(request)
        payload = bytes(payload)
        call = next(_ids)
        future = loop.create_future() if loop is not None else None
        pending = _Pending(loop, future, (req, payload), None if loop is not None else threading.Event())
        with _lock:
            _pending[call] = pending
        start = self.lib.sb_call_queued if loop is not None and self._queued(loop) else self.lib.sb_call
        start(call, handle, method.encode(), req, len(req), payload, len(payload))
        return call, pending

    def run(self, handle: int, method: str, request: Any, payload: bytes) -> Reply | GoError:
        """Run a call on this thread (the GIL is released while Go works)."""
        req = encode(request)
        call = next(_ids)
        pending = _Pending(None, None, None)
        with _lock:
            _pending[call] = pending
        self.lib.sb_call_sync(call, handle, method.encode(), req, len(req), payload, len(payload))
        return pending.outcome

    def cancel(self, call: int) -> None:
        self.lib.sb_cancel(call)


_library: _Library | None = None
_library_lock = threading.Lock()


def library() -> _Library:
    global _library
    if _library is None:
        with _library_lock:
            if _library is None:
                lib = _Library()
                _library = lib
                call_sync(0, "configure", {"bin_dir": str(bin_dir())})
    return _library


def call_sync(handle: int, method: str, request: Any = None, payload: bytes = b"") -> Reply:
    """Call and wait in this thread (the GIL is free while Go works)."""
    lib = _library if _library is not None else library()
    outcome = lib.run(handle, method, request, bytes(payload))
    if isinstance(outcome, GoError):
        raise outcome
    return outcome


async def call(handle: int, method: str, request: Any = None, payload: bytes = b"") -> Reply:
    """Call without blocking the event loop. Cancelling the awaiting task
    cancels the Go call and waits for Go to confirm before re-raising."""
    lib = library()
    loop = asyncio.get_running_loop()
    call_id, pending = lib.start(handle, method, request, payload, loop)
    try:
        return (await pending.future).pop()
    except asyncio.CancelledError:
        future = pending.future
        if future.done() and not future.cancelled():
            future.exception()  # answered as the cancellation came: the answer is dropped
        if not pending.answered:
            lib.cancel(call_id)
            pending.confirmed = loop.create_future()
            try:
                await asyncio.wait_for(pending.confirmed, 60)
            except BaseException:  # noqa: BLE001 - the cancellation is what propagates
                pass
        raise


def release(handle: int) -> None:
    """Drop a handle without waiting (used by finalizers)."""
    lib = _library
    if lib is not None and handle:
        lib.start(handle, "release", None, b"", None)
