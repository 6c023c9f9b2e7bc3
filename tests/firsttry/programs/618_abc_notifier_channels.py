# description: Notify VIP customers through channel classes built on an abstract base
# value: {"email": ["ntf-1", "ntf-3"], "push": ["ntf-2"], "push_cost": 0.01, "is_notifier": [true, true], "subclass": true}
# logs: ["abstract: True"]
from abc import ABC, abstractmethod

class Notifier(ABC):
    channel: str = "?"

    def __init__(self):
        self.sent = []

    @property
    @abstractmethod
    def cost(self) -> float: ...

    @abstractmethod
    def address_for(self, customer) -> str: ...

    async def notify(self, customer, message):
        receipt = await tools.send_notification(
            to=self.address_for(customer), message=message, channel=self.channel
        )
        self.sent.append(receipt["id"])
        return receipt

class EmailNotifier(Notifier):
    channel = "email"
    cost = 0.0

    def address_for(self, customer):
        return customer["email"]

class PushNotifier(Notifier):
    channel = "push"

    @property
    def cost(self):
        return 0.01 * len(self.sent)

    def address_for(self, customer):
        return customer["id"]

try:
    Notifier()
except TypeError as e:
    print("abstract:", "abstract" in str(e))

email, push = EmailNotifier(), PushNotifier()
customers = await tools.list_customers()
for c in customers:
    if "vip" in c["tags"]:
        notifier = email if c["tier"] == "enterprise" else push
        await notifier.notify(c, f"Hi {c['name'].split()[0]}, thanks for being a VIP!")
return {
    "email": email.sent,
    "push": push.sent,
    "push_cost": push.cost,
    "is_notifier": [isinstance(n, Notifier) for n in (email, push)],
    "subclass": issubclass(PushNotifier, Notifier),
}
