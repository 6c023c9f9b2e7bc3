# description: Drive an order workflow through an explicit state machine
# value: {"o-1005": ["NEW", "CHECKED", "CANCELLED", "NOTIFIED"], "o-1002": ["NEW", "CHECKED", "FAILED"], "o-0000": ["NEW", "FAILED"], "illegal": "NOTIFIED -> NEW not allowed", "values": [1, 2, 3, 4, 5]}
from enum import Enum, auto

class State(Enum):
    NEW = auto()
    CHECKED = auto()
    CANCELLED = auto()
    NOTIFIED = auto()
    FAILED = auto()

TRANSITIONS = {
    State.NEW: {State.CHECKED, State.FAILED},
    State.CHECKED: {State.CANCELLED, State.FAILED},
    State.CANCELLED: {State.NOTIFIED},
}

class Machine:
    def __init__(self, order_id):
        self.order_id = order_id
        self.state = State.NEW
        self.history = [State.NEW.name]

    def go(self, new: State):
        if new not in TRANSITIONS.get(self.state, set()):
            raise RuntimeError(f"{self.state.name} -> {new.name} not allowed")
        self.state = new
        self.history.append(new.name)

async def run(order_id: str) -> Machine:
    m = Machine(order_id)
    try:
        order = await tools.get_order(order_id=order_id)
        m.go(State.CHECKED)
        await tools.cancel_order(order_id=order_id)
        m.go(State.CANCELLED)
        c = await tools.get_customer(customer_id=order["customer_id"])
        await tools.send_notification(to=c["email"], message=f"{order_id} cancelled")
        m.go(State.NOTIFIED)
    except ToolCallError:
        m.go(State.FAILED)
    return m

machines = [await run(oid) for oid in ["o-1005", "o-1002", "o-0000"]]
illegal = None
try:
    machines[0].go(State.NEW)
except RuntimeError as e:
    illegal = str(e)
return {m.order_id: m.history for m in machines} | {"illegal": illegal, "values": [s.value for s in State]}
