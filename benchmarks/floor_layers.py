"""W1 built up from the lean floor, one part of codemode at a time, in one run.

Run with ``python -m benchmarks.floor_layers [--rounds N] [--samples N] [--json FILE]``.
Each rung is a trivial run (``return 1``) in a fresh child that a fork server forked
ahead and that waited a few milliseconds, timed from the host's write of the program
to the host having its result, as in ``python -m benchmarks.python_floor``:

1. ``floor``: a bare interpreter runs the marshalled code on an event loop it made
   before (the floor of ``benchmarks.python_floor``);
2. ``runtime``: the child runs it with codemode's runtime (``PreparedRun``: fresh
   globals, print capture, the value check), the language layer off;
3. ``restricted``: the same with the language layer (RestrictedPython's compile and
   guards);
4. ``protocol``: the child speaks codemode's protocol (``Ready``, ``Run``, ``Done``,
   the ``tools`` bindings and the end-of-run check) and the host serves it with a
   ``HostEndpoint``;
5. ``pool, OS layer and tripwire off``, ``pool, OS layer off``, ``pool``:
   ``WorkerPool.run`` itself (the zygote's child, the pool's checks and bookkeeping),
   then with the tripwire, then with the OS layer as well (the default).

The rungs alternate order from round to round. The difference between two rungs is
what that part costs in a trivial run on this machine, cold as a run finds it.
"""

from __future__ import annotations

import marshal
import os
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio

from benchmarks._contenders import BenchmarkError, _settle_pool
from benchmarks._floor_script import ForkServer, run_floor_script
from benchmarks._workloads import IDLE_SECONDS
from bridge.host import HostEndpoint
from bridge.protocol import Run
from sandbox import Limits, WorkerPool
from sandbox._compile import compile_program

if TYPE_CHECKING:

    from bridge.lossless import JsonValue

__all__ = ["RUNGS", "measure"]

_ROOT: Final = str(Path(__file__).resolve().parent.parent)

#: The rungs, bottom to top (their names in the JSON figures: ``w1_us.<rung>``).
RUNGS: Final = (
    "floor", "runtime", "restricted", "protocol", "pool_bare", "pool_tripwire", "pool",
)
_SERVED: Final = ("floor", "runtime", "restricted", "protocol")
_POOL_LIMITS: Final = {
    "pool_bare": Limits(os_layer=False, tripwire=False),
    "pool_tripwire": Limits(os_layer=False),
    "pool": Limits(),
}

#: The fork server: argv is the control socket, the rung, the project root. Each child
#: says ready (the protocol's ``Ready``, or 8 bytes), runs one program and answers.
_SERVER: Final = r'''
import asyncio, marshal, os, socket, struct, sys

RUNG = sys.argv[2]
if RUNG != "floor":
    sys.path.insert(0, sys.argv[3])
    from bridge.child import ChildChannel, recv_run, send_ready
    from bridge.proxy import make_bindings
    from sandbox._compile import compile_program
    from sandbox._runtime import PreparedRun, run_program


def discard(line):
    pass


def warm_up(restricted):
    code = compile_program("return 1", restricted=restricted)
    for _ in range(2):
        run_program(code, restricted=restricted, bindings={}, max_log_bytes=100,
                    max_value_bytes=100, emit_log=discard)


def floor(read_fd, write_fd):
    loop = asyncio.new_event_loop()
    namespace = {}
    exec(compile("async def main():\n    return 1\n", "<warm-up>", "exec"), namespace)
    loop.run_until_complete(namespace["main"]())
    os.write(write_fd, b"ready...")
    namespace = {}
    exec(marshal.loads(os.read(read_fd, 65536)), namespace)
    os.write(write_fd, struct.pack("=q", loop.run_until_complete(namespace["main"]())))


def runtime(read_fd, write_fd, restricted):
    warm_up(restricted)
    prepared = PreparedRun(restricted=restricted, emit_log=discard, own_process=True)
    os.write(write_fd, b"ready...")
    code = marshal.loads(os.read(read_fd, 65536))
    outcome = prepared.run(code, bindings={}, max_log_bytes=1000, max_value_bytes=1000)
    os.write(write_fd, struct.pack("=q", outcome.value))


def protocol(read_fd, write_fd):
    warm_up(True)
    channel = ChildChannel(read_fd, write_fd)
    prepared = PreparedRun(restricted=True, emit_log=channel.emit_log, own_process=True,
                           loop=channel.new_event_loop())
    send_ready(channel)
    run = recv_run(channel)
    bindings, _on_return, after_run = make_bindings(channel, run.tool_names)
    outcome = prepared.run(marshal.loads(run.code), bindings=bindings,
                           max_log_bytes=run.max_log_bytes,
                           max_value_bytes=run.max_value_bytes, after_run=after_run)
    channel.send_done(outcome.value, outcome.error)


# As the zygote does before it forks: the collector leaves what is here alone,
# so that a collection in a child does not walk (and copy) every shared object.
import gc
gc.collect()
gc.freeze()
sock = socket.socket(fileno=int(sys.argv[1]))
while sock.recv(64):
    while True:  # reap the children of earlier samples
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    to_child, from_host = os.pipe()
    to_host, from_child = os.pipe()
    if os.fork() == 0:
        sock.close()
        os.close(from_host)
        os.close(to_host)
        if RUNG == "floor":
            floor(to_child, from_child)
        elif RUNG == "protocol":
            protocol(to_child, from_child)
        else:
            runtime(to_child, from_child, RUNG == "restricted")
        os._exit(0)
    os.close(to_child)
    os.close(from_child)
    socket.send_fds(sock, [b"child"], [from_host, to_host])
    os.close(from_host)
    os.close(to_host)
'''


async def _read(fd: int, size: int) -> bytes:
    """``size`` bytes from the non-blocking ``fd`` (b"" at its end)."""
    data = b""
    while len(data) < size:
        await anyio.wait_readable(fd)
        chunk = os.read(fd, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


class _Handler:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        raise BenchmarkError(f"a trivial run called {name}")


def _run_message() -> Run:
    code = marshal.dumps(compile_program("return 1", restricted=True))
    return Run(
        code=code, restricted=True, tool_names=(), max_log_bytes=1000, max_value_bytes=1000,
        max_frame_bytes=1 << 20, cpu_seconds=10, memory_bytes=1 << 30, max_open_files=64,
    )


async def _served_run(server: ForkServer, rung: str) -> float:
    write_fd, read_fd = server.child()
    os.set_blocking(read_fd, False)
    try:
        if rung == "protocol":
            endpoint = HostEndpoint(read_fd, write_fd)
            await endpoint.receive_ready()
            await anyio.sleep(IDLE_SECONDS)
            run = _run_message()
            start = time.perf_counter()
            value = (await endpoint.serve(run, _Handler())).value
        else:
            if await _read(read_fd, 8) != b"ready...":
                raise BenchmarkError(f"a {rung} child did not say ready")
            await anyio.sleep(IDLE_SECONDS)
            source = "async def main():\n    return 1\n" if rung == "floor" else "return 1"
            code = (
                compile(source, "<w1>", "exec") if rung == "floor"
                else compile_program(source, restricted=rung == "restricted")
            )
            message = marshal.dumps(code)
            start = time.perf_counter()
            os.write(write_fd, message)
            answer = await _read(read_fd, 8)
            value = int.from_bytes(answer, sys.byteorder, signed=True) if answer else None
        elapsed = time.perf_counter() - start
        if value != 1:
            raise BenchmarkError(f"a {rung} child returned {value!r}, not 1")
        while await _read(read_fd, 4096):  # until it exits: the next sample has the CPUs
            pass
        await anyio.sleep(IDLE_SECONDS)
        return elapsed
    finally:
        os.close(write_fd)
        os.close(read_fd)


async def _pool_run(pool: WorkerPool) -> float:
    await _settle_pool(pool)
    await anyio.sleep(IDLE_SECONDS)
    start = time.perf_counter()
    result = await pool.run("return 1", tool_names=[], handler=_Handler())
    elapsed = time.perf_counter() - start
    if result.value != 1:
        raise BenchmarkError(f"the pool's run ended with {result.error}")
    return elapsed


async def measure(rounds: int, *, samples: int = 20) -> dict[str, float]:
    """The median W1 of every rung, in microseconds, as ``w1_us.<rung>``."""
    times: dict[str, list[float]] = {rung: [] for rung in RUNGS}
    servers = {rung: ForkServer(_SERVER, rung, _ROOT) for rung in _SERVED}
    try:
        async with AsyncExitStack() as stack:
            pools = {
                rung: await stack.enter_async_context(WorkerPool(size=2, limits=limits))
                for rung, limits in _POOL_LIMITS.items()
            }
            for round_index in range(rounds):
                order = RUNGS if round_index % 2 == 0 else RUNGS[::-1]
                for rung in order:
                    for _ in range(samples):
                        elapsed = (
                            await _served_run(servers[rung], rung) if rung in servers
                            else await _pool_run(pools[rung])
                        )
                        times[rung].append(elapsed * 1e6)
    finally:
        for server in servers.values():
            server.close()
    return {f"w1_us.{rung}": statistics.median(values) for rung, values in times.items()}


def _table(figures: dict[str, float]) -> str:
    lines = ["| rung | W1 | over the rung below |", "|---|---|---|"]
    below: float | None = None
    for rung in RUNGS:
        value = figures[f"w1_us.{rung}"]
        step = "—" if below is None else f"{value - below:+.0f} µs"
        lines.append(f"| {rung} | {value:.0f} µs | {step} |")
        below = value
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_floor_script(
        __doc__, measure, _table, argv, samples_help="samples per round and rung (default 20)"
    )


if __name__ == "__main__":
    sys.exit(main())
