# description: Choose a notification channel per customer with strategy classes
# value: [{"to": "c1", "channel": "push"}, {"to": "alan@example.com", "channel": "email"}]
from abc import ABC, abstractmethod


class Channel(ABC):
    name: str

    @abstractmethod
    def target(self, customer) -> str: ...

    def message(self, customer) -> str:
        return f"Hello {customer['name']}, we have an update on your account."


class EmailChannel(Channel):
    name = "email"

    def target(self, customer):
        return customer["email"]


class PushChannel(Channel):
    name = "push"

    def target(self, customer):
        return customer["id"]


def pick(customer) -> Channel:
    return PushChannel() if customer["tier"] == "enterprise" else EmailChannel()


sent = []
for cid in ["c1", "c3"]:
    customer = await tools.get_customer(customer_id=cid)
    channel = pick(customer)
    receipt = await tools.send_notification(
        to=channel.target(customer), message=channel.message(customer), channel=channel.name
    )
    sent.append({"to": receipt["to"], "channel": receipt["channel"]})

return sent
