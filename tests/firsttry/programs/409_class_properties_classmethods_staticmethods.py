# description: Customer account model with properties and setters, classmethod constructors, staticmethods, __eq__/__hash__/__repr__
# value: {"accounts": ["Account('c1', tier='enterprise')", "Account('c2', tier='free')", "Account('c3', tier='pro')", "Account('c4', tier='pro')", "Account('c5', tier='free')", "Account('c6', tier='enterprise')"], "initials": ["AL", "GH", "AT", "KJ", "ED", "MH"], "limits": [10000.0, 100.0, 1000.0, 1000.0, 100.0, 10000.0], "years": {"c1": 3, "c2": 1, "c3": 1, "c4": 3, "c5": 0, "c6": 5}, "trial": ["TrialAccount('c3', tier='free')", 10.0, true, 6], "count": 6, "errors": ["unknown tier 'platinum'"], "is_prop": true}
from datetime import date


class Account:
    count = 0
    TIER_LIMITS = {"free": 100.0, "pro": 1000.0, "enterprise": 10000.0}

    def __init__(self, cid: str, name: str, tier: str, since: date):
        self.cid = cid
        self.name = name
        self._tier = tier
        self.since = since
        type(self).count += 1

    @classmethod
    def from_api(cls, data: dict) -> "Account":
        return cls(data["id"], data["name"], data["tier"], date.fromisoformat(data["signup_date"]))

    @staticmethod
    def initials(name: str) -> str:
        return "".join(part[0] for part in name.split()).upper()

    @property
    def tier(self) -> str:
        return self._tier

    @tier.setter
    def tier(self, value: str) -> None:
        if value not in self.TIER_LIMITS:
            raise ValueError(f"unknown tier {value!r}")
        self._tier = value

    @tier.deleter
    def tier(self):
        self._tier = "free"

    @property
    def limit(self) -> float:
        return self.TIER_LIMITS[self._tier]

    def years(self, today: date) -> int:
        return today.year - self.since.year - ((today.month, today.day) < (self.since.month, self.since.day))

    def __eq__(self, other):
        return isinstance(other, Account) and self.cid == other.cid

    def __hash__(self):
        return hash(self.cid)

    def __repr__(self):
        return f"{type(self).__name__}({self.cid!r}, tier={self.tier!r})"


class TrialAccount(Account):
    @property
    def limit(self) -> float:
        return super().limit / 10


today = date.fromisoformat((await tools.current_time())[:10])
accounts = [Account.from_api(c) for c in await tools.list_customers()]
trial = TrialAccount.from_api(await tools.get_customer(customer_id="c3"))
accounts[2].tier = "pro"
errors = []
try:
    accounts[0].tier = "platinum"
except ValueError as e:
    errors.append(str(e))
del accounts[1].tier
return {
    "accounts": [repr(a) for a in accounts],
    "initials": [Account.initials(a.name) for a in accounts],
    "limits": [a.limit for a in accounts],
    "years": {a.cid: a.years(today) for a in accounts},
    "trial": [repr(trial), trial.limit, trial == accounts[2], len({*accounts, trial})],
    "count": Account.count,
    "errors": errors,
    "is_prop": isinstance(Account.tier, property),
}
