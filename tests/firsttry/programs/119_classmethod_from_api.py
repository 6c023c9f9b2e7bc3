# description: Wrap tool results in a class with alternative constructors
# value: {"ranked": ["Account(cid='c6', tier='enterprise')", "Account(cid='c1', tier='enterprise')", "Account(cid='c4', tier='pro')", "Account(cid='c2', tier='pro')", "Account(cid='c3', tier='free')", "Account(cid='c5', tier='free')"], "tenure": {"Ada Lovelace": 3, "Grace Hopper": 1, "Alan Turing": 1, "Katherine Johnson": 3, "Edsger Dijkstra": 0, "Margaret Hamilton": 5}, "same": true, "in": true, "ne_str": true}
from datetime import date

class Account:
    def __init__(self, cid: str, name: str, since: date, tier: str):
        self.cid, self.name, self.since, self.tier = cid, name, since, tier

    @classmethod
    def from_api(cls, data: dict) -> "Account":
        return cls(data["id"], data["name"], date.fromisoformat(data["signup_date"]), data["tier"])

    @staticmethod
    def tier_rank(tier: str) -> int:
        return ["free", "pro", "enterprise"].index(tier)

    def tenure_years(self, today: date) -> int:
        years = today.year - self.since.year
        return years - ((today.month, today.day) < (self.since.month, self.since.day))

    def __repr__(self):
        return f"{type(self).__name__}(cid={self.cid!r}, tier={self.tier!r})"

    def __eq__(self, other):
        if not isinstance(other, Account):
            return NotImplemented
        return self.cid == other.cid

accounts = [Account.from_api(c) for c in await tools.list_customers()]
now = date.fromisoformat((await tools.current_time())[:10])
ranked = sorted(accounts, key=lambda a: (-Account.tier_rank(a.tier), -a.tenure_years(now)))
again = Account.from_api(await tools.get_customer(customer_id="c1"))
return {
    "ranked": [repr(a) for a in ranked],
    "tenure": {a.name: a.tenure_years(now) for a in accounts},
    "same": again == accounts[0],
    "in": again in accounts,
    "ne_str": accounts[0] != "c1",
}
