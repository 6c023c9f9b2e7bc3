# description: Normalise contact records in a frozen dataclass's __post_init__ and dedupe them in a set
# value: {"unique": 3, "contacts": [{"email": "ada@example.com", "name": "Ada Lovelace", "tags": ["beta", "vip"], "id": "c1"}, {"email": "grace@example.com", "name": "Grace Hopper", "tags": [], "id": "c2"}, {"email": "nobody@example.com", "name": "No Body", "tags": ["new"], "id": null}]}
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Contact:
    email: str
    name: str
    tags: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "email", self.email.strip().casefold())
        object.__setattr__(self, "name", " ".join(self.name.split()).title())
        object.__setattr__(self, "tags", tuple(sorted(set(self.tags))))


raw = [
    (" ADA@example.com ", "ada   lovelace", ["vip", "beta", "vip"]),
    ("ada@example.com", "Ada Lovelace", ["beta", "vip"]),
    ("Grace@Example.com", "grace hopper", []),
    ("nobody@example.com", "no body", ["new"]),
]
contacts = {Contact(e, n, tuple(t)) for e, n, t in raw}
known = []
for c in sorted(contacts, key=lambda c: c.email):
    customer = await tools.find_customer(email=c.email)
    known.append({"email": c.email, "name": c.name, "tags": list(c.tags), "id": customer["id"] if customer else None})
return {"unique": len(contacts), "contacts": known}
