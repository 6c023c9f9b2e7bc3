# description: Pack pending order items into shipping boxes with first-fit decreasing
# value: {"o-1003": ["Box(S, 2 items, 50% full)"], "o-1005": ["Box(S, 4 items, 40% full)"], "o-1008": ["Box(S, 10 items, 50% full)"], "o-1010": ["Box(M, 3 items, 96% full)", "Box(S, 1 items, 60% full)"]}
# logs: ["o-1003 [Box(S, 2 items, 50% full)]", "o-1005 [Box(S, 4 items, 40% full)]", "o-1008 [Box(S, 10 items, 50% full)]", "o-1010 [Box(M, 3 items, 96% full), Box(S, 1 items, 60% full)]"]
from dataclasses import dataclass, field

VOLUME = {"KB-01": 9.0, "MS-02": 1.5, "MN-27": 40.0, "HD-10": 1.0, "CB-05": 0.5, "LP-14": 6.0, "HS-07": 4.0}
BOX_SIZES = {"S": 10.0, "M": 25.0, "L": 45.0}

@dataclass
class Box:
    size: str
    items: list[str] = field(default_factory=list)
    used: float = 0.0

    @property
    def capacity(self) -> float:
        return BOX_SIZES[self.size]

    @property
    def free(self) -> float:
        return self.capacity - self.used

    def fits(self, volume: float) -> bool:
        return volume <= self.free + 1e-9

    def add(self, sku: str, volume: float) -> None:
        self.items.append(sku)
        self.used += volume

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.size}, {len(self.items)} items, {self.used / self.capacity:.0%} full)"

def pack(units: list[str]) -> list[Box]:
    boxes: list[Box] = []
    for sku in sorted(units, key=lambda s: (-VOLUME[s], s)):
        vol = VOLUME[sku]
        target = next((b for b in boxes if b.fits(vol)), None)
        if target is None:
            size = next(s for s, cap in sorted(BOX_SIZES.items(), key=lambda kv: kv[1]) if cap >= vol and cap >= 2 * vol or s == "L")
            target = Box(size)
            boxes.append(target)
        target.add(sku, vol)
    for box in boxes:
        smallest = min((s for s, cap in BOX_SIZES.items() if cap >= box.used), key=BOX_SIZES.get)
        box.size = smallest
    return boxes

plans = {}
for cid in ("c1", "c2", "c4", "c6"):
    for order in await tools.list_orders(customer_id=cid, status="pending"):
        units = [l["sku"] for l in order["lines"] for _ in range(l["quantity"])]
        boxes = pack(units)
        plans[order["id"]] = [repr(b) for b in boxes]
        print(order["id"], boxes)
return plans
