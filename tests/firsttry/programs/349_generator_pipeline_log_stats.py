# description: Stream the raw logs through a generator pipeline with a send-driven running average
# value: {"history": [12.0, 13.5, 22.33, 18.75, 19.4, 21.33], "count": 6, "delegated": "done after 2", "firsts": [0, 1], "cleanup": ["closed"], "closed_next": "exhausted", "iter_sentinel": [5], "error_services": ["api", "billing"], "genexpr_sum": 1543}
# logs: ["running averages: [12.0, 13.5, 22.33, 18.75, 19.4, 21.33]"]
from collections.abc import Generator, Iterable, Iterator

text = await tools.fetch_logs()


def lines(raw: str) -> Iterator[str]:
    for line in raw.splitlines():
        if line.strip():
            yield line


def parse(stream: Iterable[str]) -> Iterator[dict]:
    for line in stream:
        date, clock, level, service, *rest = line.split()
        yield {"level": level, "service": service, "rest": rest}


def only(level: str, stream: Iterable[dict]) -> Iterator[dict]:
    yield from (r for r in stream if r["level"] == level)


def latencies(stream: Iterable[dict]) -> Iterator[int]:
    for r in stream:
        for tok in r["rest"]:
            if tok.endswith("ms") and tok[:-2].isdigit():
                yield int(tok[:-2])


def averager() -> Generator[float, float, int]:
    total = count = 0
    avg = 0.0
    while True:
        value = yield avg
        if value is None:
            return count
        total += value
        count += 1
        avg = total / count


def drain(gen):
    try:
        gen.send(None)
    except StopIteration as stop:
        return stop.value


def delegate():
    result = yield from averager()
    yield f"done after {result}"


avg = averager()
next(avg)
history = [round(avg.send(ms), 2) for ms in latencies(only("INFO", parse(lines(text))))]
count = drain(avg)

d = delegate()
next(d)
d.send(10)
d.send(20)
final = d.send(None)

cleanup = []


def tracked():
    try:
        for i in range(10):
            yield i
    finally:
        cleanup.append("closed")


t = tracked()
firsts = [next(t), next(t)]
t.close()

queue = [3, 2, 1, 0, 5]
stop_at_zero = list(iter(queue.pop, 0))
error_services = sorted({r["service"] for r in only("ERROR", parse(lines(text)))})
print("running averages:", history)
return {
    "history": history,
    "count": count,
    "delegated": final,
    "firsts": firsts,
    "cleanup": cleanup,
    "closed_next": next(t, "exhausted"),
    "iter_sentinel": stop_at_zero,
    "error_services": error_services,
    "genexpr_sum": sum(ms for ms in latencies(parse(lines(text))) if ms > 20),
}
