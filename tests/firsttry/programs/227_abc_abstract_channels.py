# description: Model notification channels as an abstract base class with concrete subclasses
# value: {"sent": ["ntf-1:push->c1", "ntf-2:email->grace@example.com", "ntf-3:email->katherine@example.com", "ntf-4:push->c6"], "abstract_err": "Can't instantiate abstract class Channel with abstract methods address, format", "broken_err": true, "isinstance": true, "issub": true}
from abc import ABC, abstractmethod


class Channel(ABC):
    name = "base"

    def __init__(self, customer):
        self.customer = customer

    @property
    @abstractmethod
    def address(self):
        ...

    @abstractmethod
    def format(self, text):
        ...

    async def send(self, text):
        r = await tools.send_notification(to=self.address, message=self.format(text), channel=self.name)
        return f"{r['id']}:{r['channel']}->{r['to']}"

    @classmethod
    def for_customer(cls, customer):
        return (Push if customer["tier"] == "enterprise" else Email)(customer)


class Email(Channel):
    name = "email"

    @property
    def address(self):
        return self.customer["email"]

    def format(self, text):
        return f"Hi {self.customer['name']}, {text}"


class Push(Channel):
    name = "push"

    @property
    def address(self):
        return self.customer["id"]

    def format(self, text):
        return text[:30]


class Broken(Channel):
    name = "sms"

    def format(self, text):
        return text


try:
    Channel({})
    abstract_err = None
except TypeError as e:
    abstract_err = str(e)
try:
    Broken({})
    broken_err = None
except TypeError as e:
    broken_err = "address" in str(e)

sent = []
for c in await tools.list_customers():
    if c["tags"]:
        ch = Channel.for_customer(c)
        sent.append(await ch.send("your quarterly statement is available now"))
return {"sent": sent, "abstract_err": abstract_err, "broken_err": broken_err, "isinstance": isinstance(Email({}), Channel),
        "issub": issubclass(Push, ABC)}
