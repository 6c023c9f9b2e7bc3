# description: Notification channels as ABC subclasses with abstract methods and abstract properties
# value: {"log": [["c1", "email", "ada@example.com"], ["c1", "push", "c1"], ["c6", "email", "margaret@example.com"], ["c6", "push", "c6"]], "sent": [["ntf-1", "ntf-3"], ["ntf-2", "ntf-4"]], "abstract_error": "Can't instantiate abstract class Broken with abstract method address", "base_error": "Can't instantiate abstract class Notifier", "is_notifier": true}
from abc import ABC, abstractmethod


class Notifier(ABC):
    sent: list

    def __init__(self):
        self.sent = []

    @property
    @abstractmethod
    def channel(self) -> str: ...

    @abstractmethod
    def address(self, customer: dict) -> str: ...

    def render(self, customer: dict, text: str) -> str:
        return text

    async def notify(self, customer: dict, text: str) -> dict:
        r = await tools.send_notification(to=self.address(customer), message=self.render(customer, text), channel=self.channel)
        self.sent.append(r["id"])
        return r


class Email(Notifier):
    channel = "email"

    def address(self, customer):
        return customer["email"]

    def render(self, customer, text):
        return f"Dear {customer['name']},\n\n{text}"


class Push(Notifier):
    @property
    def channel(self):
        return "push"

    def address(self, customer):
        return customer["id"]


class Broken(Notifier):
    channel = "sms"


try:
    Broken()
    abstract_error = None
except TypeError as e:
    abstract_error = str(e)

try:
    Notifier()
except TypeError as e:
    base_error = str(e).split(" with")[0]

email, push = Email(), Push()
log = []
for c in await tools.list_customers(tier="enterprise"):
    for n in (email, push):
        r = await n.notify(c, "Your quarterly review is ready.")
        log.append((c["id"], r["channel"], r["to"]))
return {"log": log, "sent": [email.sent, push.sent], "abstract_error": abstract_error, "base_error": base_error,
        "is_notifier": isinstance(push, Notifier)}
