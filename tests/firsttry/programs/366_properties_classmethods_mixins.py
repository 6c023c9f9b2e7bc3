# description: Model customer accounts with properties, class/static methods and cooperative mixins
# value: {"credits": {"c1": 4.14, "c2": 2.02, "c3": 0.0, "c4": 16.11, "c5": 0.0, "c6": 1.36}, "after_delete": 0.0, "reprs": ["VipAccount(cid='c1', tier='enterprise', vip=True)", "Account(cid='c2', tier='pro')", "Account(cid='c3', tier='pro')", "VipAccount(cid='c4', tier='pro', vip=True)", "Account(cid='c5', tier='free')", "VipAccount(cid='c6', tier='enterprise', vip=True)"], "json": "{\"cid\": \"c1\", \"tier\": \"enterprise\", \"vip\": true}", "errors": ["bad tier 'platinum'", "AttributeError"], "created": 6, "vip_created": 6, "static": [true, false], "types": ["VipAccount", "Account", "Account", "VipAccount", "Account", "VipAccount"], "isinstance": [true, true]}
# logs: ["VipAccount(cid='c1', tier='enterprise', vip=True)", "Account(cid='c2', tier='pro')", "Account(cid='c3', tier='pro')", "VipAccount(cid='c4', tier='pro', vip=True)", "Account(cid='c5', tier='free')", "VipAccount(cid='c6', tier='enterprise', vip=True)"]
import json


class ReprMixin:
    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.describe().items())
        return f"{type(self).__name__}({fields})"


class JsonMixin:
    def to_json(self) -> str:
        return json.dumps(self.describe(), sort_keys=True)


class Base:
    def describe(self) -> dict:
        return {}


class Account(ReprMixin, JsonMixin, Base):
    created = 0
    DISCOUNTS = {"free": 0.0, "pro": 0.1, "enterprise": 0.2}

    def __init__(self, cid: str, name: str, tier: str) -> None:
        self.cid = cid
        self.name = name
        self._tier = tier
        self._credit = 0.0
        Account.created += 1

    @classmethod
    def from_api(cls, data: dict) -> "Account":
        return cls(data["id"], data["name"], data["tier"])

    @staticmethod
    def valid_tier(tier: str) -> bool:
        return tier in Account.DISCOUNTS

    @property
    def tier(self) -> str:
        return self._tier

    @tier.setter
    def tier(self, value: str) -> None:
        if not self.valid_tier(value):
            raise ValueError(f"bad tier {value!r}")
        self._tier = value

    @property
    def credit(self) -> float:
        return round(self._credit, 2)

    @credit.deleter
    def credit(self) -> None:
        self._credit = 0.0

    @property
    def discount(self) -> float:
        return self.DISCOUNTS[self._tier]

    def describe(self) -> dict:
        return {**super().describe(), "cid": self.cid, "tier": self._tier}

    def add_credit(self, amount: float) -> "Account":
        self._credit += amount * (1 - self.discount)
        return self


class VipAccount(Account):
    DISCOUNTS = {**Account.DISCOUNTS, "enterprise": 0.3}

    def describe(self) -> dict:
        return {**super().describe(), "vip": True}


accounts = []
for c in await tools.list_customers():
    cls = VipAccount if "vip" in c["tags"] else Account
    accounts.append(cls.from_api(c))
for a in accounts:
    for o in await tools.list_orders(customer_id=a.cid, status="delivered"):
        a.add_credit(o["total"] * 0.05)

errors = []
try:
    accounts[2].tier = "platinum"
except ValueError as e:
    errors.append(str(e))
accounts[2].tier = "pro"
try:
    accounts[0].discount = 1.0
except AttributeError as e:
    errors.append(type(e).__name__)
credits = {a.cid: a.credit for a in accounts}
del accounts[0].credit
print(*accounts, sep="\n")
return {
    "credits": credits,
    "after_delete": accounts[0].credit,
    "reprs": [repr(a) for a in accounts],
    "json": accounts[0].to_json(),
    "errors": errors,
    "created": Account.created,
    "vip_created": VipAccount.created,
    "static": [Account.valid_tier("pro"), accounts[0].valid_tier("x")],
    "types": [type(a).__name__ for a in accounts],
    "isinstance": [isinstance(accounts[0], ReprMixin), issubclass(VipAccount, JsonMixin)],
}
