# description: Wrap the flaky warehouse service in a circuit breaker and report per-SKU availability
# value: {"report": {"KB-01": "ok 14", "MS-02": "ok 0", "MN-27": "failed: TimeoutError", "HD-10": "ok 42", "CB-05": "ok 120", "LP-14": "failed: TimeoutError", "HS-07": "ok 9"}, "transitions": ["t10:closed->open"]}
# logs: [" 1 KB-01 closed    failed: TimeoutError", " 2 MS-02 closed    ok 0", " 3 MN-27 closed    failed: TimeoutError", " 4 HD-10 closed    ok 42", " 5 CB-05 closed    ok 120", " 6 LP-14 closed    failed: TimeoutError", " 7 HS-07 closed    ok 9", " 8 KB-01 closed    ok 14", " 9 MN-27 closed    failed: TimeoutError", "10 LP-14 open      failed: TimeoutError"]
from enum import Enum
from dataclasses import dataclass, field

class State(Enum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half-open"

class CircuitOpen(Exception):
    pass

@dataclass
class Breaker:
    threshold: int = 2
    cooldown: int = 2
    state: State = State.CLOSED
    failures: int = 0
    opened_at: int = 0
    clock: int = 0
    history: list[str] = field(default_factory=list)

    def _move(self, new: State) -> None:
        if new is not self.state:
            self.history.append(f"t{self.clock}:{self.state.value}->{new.value}")
            self.state = new

    async def call(self, sku: str) -> dict:
        self.clock += 1
        if self.state is State.OPEN:
            if self.clock - self.opened_at < self.cooldown:
                raise CircuitOpen(f"circuit open, skipped {sku}")
            self._move(State.HALF_OPEN)
        try:
            result = await tools.warehouse_stock(sku=sku)
        except ToolCallError as e:
            if e.type != "TimeoutError":
                raise
            self.failures += 1
            if self.state is State.HALF_OPEN or self.failures >= self.threshold:
                self._move(State.OPEN)
                self.opened_at = self.clock
            raise
        self.failures = 0
        self._move(State.CLOSED)
        return result

breaker = Breaker()
products = await tools.list_products()
queue = [p["sku"] for p in products] * 2
report: dict[str, str] = {}
for sku in queue:
    if sku in report and report[sku].startswith("ok"):
        continue
    try:
        stock = await breaker.call(sku)
        report[sku] = f"ok {stock['north'] + stock['south']}"
    except CircuitOpen:
        report[sku] = "skipped"
    except ToolCallError as e:
        report[sku] = f"failed: {e.type}"
    print(f"{breaker.clock:>2} {sku} {breaker.state.value:<9} {report[sku]}")
return {"report": report, "transitions": breaker.history}
