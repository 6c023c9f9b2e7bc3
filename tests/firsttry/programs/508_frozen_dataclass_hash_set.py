# description: Deduplicate addresses with a frozen dataclass used as set members and dict keys, and catch FrozenInstanceError
# value: {"n": 6, "labels": ["Arlington (US)", "Boston (US)", "Eindhoven (NL)", "Hampton (US)", "London (UK)", "Manchester (UK)"], "error": "FrozenInstanceError: cannot assign to field 'city'", "lookup": ["c1"], "in": true, "hash_eq": true, "set_len": 1, "frozen_eq": true}
from dataclasses import FrozenInstanceError, dataclass

@dataclass(frozen=True)
class Place:
    city: str
    country: str

    @property
    def label(self) -> str:
        return f"{self.city} ({self.country})"

@dataclass(unsafe_hash=True)
class Tagged:
    name: str
    score: int = 0

customers = await tools.list_customers()
places = {Place(c["address"]["city"], c["address"]["country"]) for c in customers}
places.add(Place("London", "UK"))
by_place = {}
for c in customers:
    by_place.setdefault(Place(c["address"]["city"], c["address"]["country"]), []).append(c["id"])
try:
    next(iter(places)).city = "Elsewhere"
    error = None
except FrozenInstanceError as exc:
    error = f"{type(exc).__name__}: {exc}"
t1, t2 = Tagged("a", 1), Tagged("a", 1)
return {"n": len(places), "labels": sorted(p.label for p in places), "error": error,
        "lookup": by_place[Place("London", "UK")], "in": Place("Boston", "US") in places,
        "hash_eq": hash(t1) == hash(t2), "set_len": len({t1, t2}), "frozen_eq": Place("a", "b") == Place("a", "b")}
