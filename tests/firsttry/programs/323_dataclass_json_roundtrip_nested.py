# description: Save customers with their orders as JSON and rebuild typed objects from it
# value: {"equal": true, "field_names": ["id", "name", "address", "orders"], "types": {"id": "str", "total": "float", "status": "str"}, "first_line": "\"address\": {", "open": {"c1": 747.98, "c6": 715.0, "c2": 70.5, "c4": 97.5}}
# logs: ["1269 bytes for 4 accounts", "Ada Lovelace         London     open \u20ac   747.98", "Margaret Hamilton    Boston     open \u20ac   715.00", "Katherine Johnson    Hampton    open \u20ac    97.50", "Grace Hopper         Arlington  open \u20ac    70.50"]
import json
from dataclasses import dataclass, asdict, field, fields

@dataclass
class Address:
    city: str
    country: str

@dataclass
class OrderRef:
    id: str
    total: float
    status: str

@dataclass
class Account:
    id: str
    name: str
    address: Address
    orders: list[OrderRef] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict) -> "Account":
        return cls(d["id"], d["name"], Address(**d["address"]), [OrderRef(**o) for o in d["orders"]])

    @property
    def open_total(self) -> float:
        return round(sum(o.total for o in self.orders if o.status in ("pending", "shipped")), 2)

accounts = []
for c in await tools.list_customers(tier="enterprise") + await tools.list_customers(tier="pro"):
    orders = await tools.list_orders(customer_id=c["id"])
    accounts.append(Account(c["id"], c["name"], Address(c["address"]["city"], c["address"]["country"]),
                            [OrderRef(o["id"], o["total"], o["status"]) for o in orders]))

blob = json.dumps([asdict(a) for a in accounts], sort_keys=True, indent=1)
restored = [Account.from_dict(d) for d in json.loads(blob)]
print(f"{len(blob)} bytes for {len(restored)} accounts")
for a in sorted(restored, key=lambda a: a.open_total, reverse=True):
    print(f"{a.name:<20} {a.address.city:<10} open €{a.open_total:>9,.2f}")
return {"equal": restored == accounts, "field_names": [f.name for f in fields(Account)],
        "types": {f.name: str(f.type) if not isinstance(f.type, type) else f.type.__name__ for f in fields(OrderRef)},
        "first_line": blob.splitlines()[2].strip(), "open": {a.id: a.open_total for a in restored}}
