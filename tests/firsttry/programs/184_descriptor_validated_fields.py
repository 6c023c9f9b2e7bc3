# description: Validate notification requests with reusable descriptor fields
# value: {"sent": ["ntf-1"], "rejected": ["message is too short (2 < 5)", "channel must be one of ['email', 'push', 'sms'], got 'fax'"], "descriptor_name": "channel", "private": "_message"}
# limitation: descriptors (__set_name__, __get__, __set__) cannot be defined by design
class Validated:
    def __init__(self, *, choices=None, min_len=None):
        self.choices = choices
        self.min_len = min_len

    def __set_name__(self, owner, name):
        self.name = name
        self.private = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private)

    def __set__(self, obj, value):
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{self.name} must be one of {sorted(self.choices)}, got {value!r}")
        if self.min_len is not None and len(value) < self.min_len:
            raise ValueError(f"{self.name} is too short ({len(value)} < {self.min_len})")
        setattr(obj, self.private, value)


class Notification:
    channel = Validated(choices={"email", "sms", "push"})
    message = Validated(min_len=5)

    def __init__(self, to, message, channel="email"):
        self.to = to
        self.message = message
        self.channel = channel

    def as_args(self):
        return {"to": self.to, "message": self.message, "channel": self.channel}


requests = [("ada@example.com", "Your order shipped", "email"), ("c2", "Hi", "push"), ("grace@example.com", "Refund issued", "fax")]
sent, rejected = [], []
for to, msg, ch in requests:
    try:
        n = Notification(to, msg, ch)
    except ValueError as e:
        rejected.append(str(e))
        continue
    receipt = await tools.send_notification(**n.as_args())
    sent.append(receipt["id"])
return {"sent": sent, "rejected": rejected, "descriptor_name": Notification.channel.name, "private": Notification.message.private}
