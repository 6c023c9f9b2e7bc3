# description: Send order updates through notifier classes
# value: {"email": "Notifier(sent=1)", "push": "PushNotifier(sent=1)", "last_channel": "push"}
# logs: ["Notifier(sent=1) PushNotifier(sent=1)"]
class Notifier:
    channel = "email"

    def __init__(self, sender_name):
        self.sender_name = sender_name
        self.sent = []

    def format(self, customer, text):
        return f"{text} -- {self.sender_name}"

    def address(self, customer):
        return customer["email"]

    async def notify(self, customer, text):
        receipt = await tools.send_notification(
            to=self.address(customer), message=self.format(customer, text), channel=self.channel
        )
        self.sent.append(receipt["id"])
        return receipt

    def __repr__(self):
        return f"{type(self).__name__}(sent={len(self.sent)})"


class PushNotifier(Notifier):
    channel = "push"

    def address(self, customer):
        return customer["id"]

    def format(self, customer, text):
        return super().format(customer, text).upper()


email = Notifier("Support team")
push = PushNotifier("Support team")
ada = await tools.get_customer(customer_id="c1")
await email.notify(ada, "Your monitor order has shipped")
last = await push.notify(ada, "Order shipped")
print(repr(email), repr(push))
return {"email": repr(email), "push": repr(push), "last_channel": last["channel"]}
