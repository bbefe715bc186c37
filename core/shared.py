"""Read-only objects shared by the processes of one machine: stored once in shared memory, never copied per task.

The object is pickled with protocol 5, its large buffers (the numpy arrays of a terrain lookup, an image
field's pixels) out of band, all into one :class:`multiprocessing.shared_memory.SharedMemory` block. A
worker unpickles it once with the arrays as read-only views of that block. The creating process owns the
block: :meth:`SharedObject.close` (also on ``with`` exit and at garbage collection) unlinks it, and the
resource tracker of :mod:`multiprocessing` unlinks it if that process dies.

Examples
--------
>>> import numpy as np
>>> with SharedObject({"heights": np.arange(4.0)}) as shared:
...     copy = shared.handle.open()
...     print(copy["heights"].tolist(), copy["heights"].flags.writeable)
...     del copy  # views of the block must go before the block closes
[0.0, 1.0, 2.0, 3.0] False
"""

from __future__ import annotations

import atexit
import gc
import pickle
import struct
import sys
from dataclasses import dataclass
from multiprocessing.shared_memory import SharedMemory
from types import TracebackType
from typing import Any

_ALIGN = 64
_SIZE = struct.Struct("<Q")
_OPEN: dict[str, tuple[SharedMemory, Any]] = {}
"""This process's attached objects by block name (a worker keeps the latest one)."""
_OPEN_HOOKED: list[bool] = []
_LINGERING: list[SharedMemory] = []
"""Blocks that could not close because a view of them is still alive; they go with the process."""


def _aligned(offset: int) -> int:
    return -(-offset // _ALIGN) * _ALIGN


@dataclass(frozen=True)
class SharedHandle:
    """What a task receives instead of the object: the block's name (a few bytes to pickle)."""

    name: str

    def open(self) -> Any:
        """The shared object, unpickled once per process (arrays are read-only views of the block)."""
        cached = _OPEN.get(self.name)
        if cached is not None:
            return cached[1]
        for name in list(_OPEN):
            _forget(name)
        memory = _attach(self.name)
        if not _OPEN_HOOKED:
            atexit.register(_forget_all)
            _OPEN_HOOKED.append(True)
        view = _buffer(memory).toreadonly()
        (meta_size,) = _SIZE.unpack_from(view, 0)
        data_at, data_size, spans = pickle.loads(view[_SIZE.size:_SIZE.size + meta_size])
        buffers = [view[at:at + size] for at, size in spans]
        value = pickle.loads(view[data_at:data_at + data_size], buffers=buffers)
        _OPEN[self.name] = (memory, value)
        return value


def _buffer(memory: SharedMemory) -> memoryview:
    buf = memory.buf
    if buf is None:  # pragma: no cover - only after close()
        raise ValueError(f"shared block {memory.name} is closed")
    return buf


def _attach(name: str) -> SharedMemory:
    if sys.version_info >= (3, 13):
        return SharedMemory(name=name, track=False)
    # Before 3.13 attaching registers the block with the resource tracker, which a worker shares with the
    # process that created it (spawn passes it on): the creator's unlink unregisters it once for all.
    return SharedMemory(name=name)


def _forget(name: str) -> None:
    memory, _ = _OPEN.pop(name)
    gc.collect()
    try:
        memory.close()
    except BufferError:
        _LINGERING.append(memory)


def _forget_all() -> None:
    """At exit: drop the objects before their blocks, so no block is closed under a live view."""
    for name in list(_OPEN):
        _forget(name)


class SharedObject:
    """``obj`` pickled into a new shared memory block owned by this process; ``handle`` names it."""

    def __init__(self, obj: Any) -> None:
        self._memory: SharedMemory | None = None
        buffers: list[pickle.PickleBuffer] = []
        data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
        raws = [buffer.raw() for buffer in buffers]
        # Layout: [meta size][meta][data][buffer 0][buffer 1]... with buffers aligned for numpy.
        spans: list[tuple[int, int]] = []
        meta_room = 64 + 32 * len(raws)
        at = _aligned(_SIZE.size + meta_room + len(data))
        for raw in raws:
            spans.append((at, raw.nbytes))
            at = _aligned(at + raw.nbytes)
        data_at = _SIZE.size + meta_room
        meta = pickle.dumps((data_at, len(data), spans))
        if len(meta) > meta_room:
            raise AssertionError("shared object header larger than reserved")  # pragma: no cover
        self._memory = SharedMemory(create=True, size=max(at, 1))
        buf = _buffer(self._memory)
        _SIZE.pack_into(buf, 0, len(meta))
        buf[_SIZE.size:_SIZE.size + len(meta)] = meta
        buf[data_at:data_at + len(data)] = data
        for (start, size), raw in zip(spans, raws, strict=True):
            buf[start:start + size] = raw
        del buf
        self.handle = SharedHandle(self._memory.name)
        self.nbytes = at

    def close(self) -> None:
        """Unlink the block (workers' mappings stay valid until they let go); safe to call twice."""
        memory, self._memory = self._memory, None
        if memory is None:
            return
        if memory.name in _OPEN:
            _forget(memory.name)
        memory.close()
        memory.unlink()

    def __enter__(self) -> SharedObject:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
