# description: Merge contacts from customers and a pasted list, deduplicating by normalised email
# value: {"total": 10, "unique": 7, "set": 7, "dupes": ["Contact('Ada Lovelace', 'ADA+news@Example.com', source='paste')", "Contact('Grace Hopper', 'grace@example.com', source='paste')", "Contact('Alan Turing', 'alan+x@EXAMPLE.com', source='paste')"], "new": ["Linus Torvalds <linus@example.org>"], "eq_str": true, "in": true}
# logs: ["Ada Lovelace <ada@example.com>", "Grace Hopper <grace@example.com>", "Alan Turing <alan@example.com>", "Katherine Johnson <katherine@example.com>", "Edsger Dijkstra <edsger@example.com>", "Margaret Hamilton <margaret@example.com>", "Linus Torvalds <linus@example.org>"]
class Contact:
    def __init__(self, name: str, email: str, source: str):
        self.name = " ".join(name.split()).title()
        self.email = email.strip()
        self.source = source

    @property
    def key(self) -> str:
        local, _, domain = self.email.casefold().partition("@")
        return f"{local.split('+')[0]}@{domain}"

    def __eq__(self, other):
        if isinstance(other, Contact):
            return self.key == other.key
        if isinstance(other, str):
            return self.key == Contact("", other, "").key
        return NotImplemented

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"Contact({self.name!r}, {self.email!r}, source={self.source!r})"

    def __str__(self):
        return f"{self.name} <{self.email}>"

pasted = """
  ada LOVELACE , ADA+news@Example.com
grace hopper, grace@example.com
Linus   Torvalds, linus@example.org
  , broken-line
alan turing , alan+x@EXAMPLE.com
"""
contacts = [Contact(c["name"], c["email"], "crm") for c in await tools.list_customers()]
for raw in pasted.strip().splitlines():
    name, _, email = (p.strip() for p in raw.partition(","))
    if not name or "@" not in email:
        continue
    contacts.append(Contact(name, email, "paste"))

unique = list(dict.fromkeys(contacts))
seen = set(contacts)
crm = [c for c in contacts if c.source == "crm"]
dupes = [c for c in contacts if c.source == "paste" and c in crm]
for c in unique:
    print(str(c))
return {"total": len(contacts), "unique": len(unique), "set": len(seen), "dupes": [repr(d) for d in dupes],
        "new": [str(c) for c in unique if c.source == "paste"],
        "eq_str": Contact("x", "ADA@example.com", "t") == "ada+1@example.com", "in": "grace@EXAMPLE.com" in contacts}
