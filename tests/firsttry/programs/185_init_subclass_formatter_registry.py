# description: Format alerts per channel with formatter classes registered via __init_subclass__
# value: {"registered": ["email", "push", "sms"], "sms_max": 40, "out": [{"channel": "email", "len": 78, "body": "Dear Grace Hopper,\n\nYour monthly usage report is ready to download\n\n-- Support"}, {"channel": "sms", "len": 40, "body": "Katherine: Your monthly usage report is\u2026"}, {"channel": "push", "len": 46, "body": "YOUR MONTHLY USAGE REPORT IS READY TO DOWNLOAD"}], "mro": ["SmsFormatter", "Formatter", "object"]}
# limitation: __init_subclass__ cannot be defined and __mro__ cannot be read
class Formatter:
    registry = {}

    def __init_subclass__(cls, /, channel, max_len=160, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.channel = channel
        cls.max_len = max_len
        Formatter.registry[channel] = cls

    def __init__(self, customer):
        self.customer = customer

    def render(self, text):
        out = self.wrap(text)
        return out if len(out) <= self.max_len else out[: self.max_len - 1] + "…"

    def wrap(self, text):
        raise NotImplementedError


class EmailFormatter(Formatter, channel="email", max_len=500):
    def wrap(self, text):
        return f"Dear {self.customer['name']},\n\n{text}\n\n-- Support"


class SmsFormatter(Formatter, channel="sms", max_len=40):
    def wrap(self, text):
        return f"{self.customer['name'].split()[0]}: {text}"


class PushFormatter(Formatter, channel="push"):
    def wrap(self, text):
        return text.upper()


customers = await tools.list_customers(tier="pro")
plan = [("email", customers[0]), ("sms", customers[1]), ("push", customers[0])]
out = []
for channel, c in plan:
    fmt = Formatter.registry[channel](c)
    body = fmt.render("Your monthly usage report is ready to download")
    to = c["email"] if channel == "email" else c["id"]
    r = await tools.send_notification(to=to, message=body, channel=channel)
    out.append({"channel": r["channel"], "len": len(body), "body": body})
return {"registered": sorted(Formatter.registry), "sms_max": SmsFormatter.max_len, "out": out,
        "mro": [k.__name__ for k in SmsFormatter.__mro__]}
