# description: Normalise and deduplicate contact records with a frozen dataclass
# value: {"unique": [{"email": "ada@example.com", "name": "Ada Lovelace", "country": "UK"}, {"email": "alan@example.com", "name": "Alan Turing", "country": "UK"}, {"email": "edsger@example.com", "name": "Edsger Dijkstra", "country": "NL"}, {"email": "grace@example.com", "name": "Grace Hopper", "country": "US"}, {"email": "katherine@example.com", "name": "Katherine Johnson", "country": "US"}, {"email": "margaret@example.com", "name": "Margaret Hamilton", "country": "US"}, {"email": "new@example.com", "name": "New Person", "country": "FR"}], "frozen": "FrozenInstanceError", "hash_equal": true}
# logs: ["9 records -> 7 unique contacts"]
from dataclasses import dataclass, field, asdict

@dataclass(frozen=True, order=True)
class Contact:
    email: str
    name: str = field(compare=False)
    country: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "email", self.email.strip().casefold())
        object.__setattr__(self, "name", " ".join(self.name.split()).title())
        object.__setattr__(self, "country", self.country.upper())

customers = await tools.list_customers()
raw = [(c["email"], c["name"], c["address"]["country"]) for c in customers]
raw += [("  ADA@example.com", "ada   lovelace", "uk"), ("grace@example.com ", "GRACE HOPPER", "us"),
        ("new@example.com", "new  person", "fr")]
contacts = [Contact(*r) for r in raw]
unique = sorted(set(contacts))
try:
    unique[0].email = "x"
    frozen = "mutable"
except AttributeError as e:
    frozen = type(e).__name__
print(f"{len(contacts)} records -> {len(unique)} unique contacts")
return {
    "unique": [asdict(c) for c in unique],
    "frozen": frozen,
    "hash_equal": hash(Contact("A@b.c", "x")) == hash(Contact("a@b.c ", "y")),
}
