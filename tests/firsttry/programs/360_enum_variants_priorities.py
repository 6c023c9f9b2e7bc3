# description: Rank tickets with IntEnum priorities, StrEnum channels, Flag options and a functional Enum
# value: {"tickets": [["T-101", "HIGH", 3], ["T-102", "HIGH", 3], ["T-103", "HIGH", 3]], "int_ops": [4, true, "NORMAL", "HIGH"], "str_formats": ["3", "3", "<Priority.LOW: 1>", "002"], "channel": ["sms", "push", "EMAIL", true, "EMAIL"], "flags": ["Option.GIFT|INSURED", false, ["GIFT", "INSURED"], false, 5], "size": ["Medium", true, ["SMALL", "MEDIUM", "LARGE"], "LARGE", "s"], "functional": [1, "BLUE", ["RED", "GREEN", "BLUE"], 20, "ERROR"], "json_value": 3, "members": ["SMALL", "MEDIUM", "LARGE", "DEFAULT"]}
# logs: ["3 <Priority.HIGH: 3> sms Medium Color.GREEN"]
from enum import Enum, Flag, IntEnum, StrEnum, auto, unique


@unique
class Priority(IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3

    @classmethod
    def for_total(cls, total: float) -> "Priority":
        return cls.HIGH if total > 300 else cls.NORMAL if total > 100 else cls.LOW


class Channel(StrEnum):
    EMAIL = auto()
    SMS = auto()
    PUSH = auto()


class Option(Flag):
    NONE = 0
    GIFT = auto()
    EXPRESS = auto()
    INSURED = auto()


class Size(Enum):
    SMALL = "s"
    MEDIUM = "m"
    LARGE = "l"
    DEFAULT = "m"

    def __str__(self) -> str:
        return self.name.title()


Color = Enum("Color", "RED GREEN BLUE")
Level = Enum("Level", [("INFO", 10), ("WARN", 20), ("ERROR", 30)])

orders = []
for cid in ("c1", "c4", "c6"):
    orders.extend(await tools.list_orders(customer_id=cid))
ranked = sorted(orders, key=lambda o: (-Priority.for_total(o["total"]), o["id"]))
tickets = []
for o in ranked[:3]:
    p = Priority.for_total(o["total"])
    t = await tools.create_ticket(customer_id=o["customer_id"], subject=f"check {o['id']}", priority=p.name.lower())
    tickets.append([t["id"], p.name, int(p)])

opts = Option.GIFT | Option.INSURED
print(f"{Priority.HIGH} {Priority.HIGH!r} {Channel.SMS} {Size.DEFAULT} {Color.GREEN}")
return {
    "tickets": tickets,
    "int_ops": [Priority.HIGH + 1, Priority.LOW < Priority.HIGH, Priority(2).name, max(Priority).name],
    "str_formats": [str(Priority.HIGH), f"{Priority.HIGH}", repr(Priority.LOW), format(Priority.NORMAL, "03d")],
    "channel": [Channel.SMS, str(Channel.PUSH), Channel("email").name, Channel.EMAIL == "email", Channel.EMAIL.upper()],
    "flags": [str(opts), Option.EXPRESS in opts, [o.name for o in opts], bool(Option.NONE), opts.value],
    "size": [str(Size.MEDIUM), Size.DEFAULT is Size.MEDIUM, [s.name for s in Size], Size("l").name, Size["SMALL"].value],
    "functional": [Color.RED.value, Color(3).name, [c.name for c in Color], Level.WARN.value, Level(30).name],
    "json_value": Priority.HIGH,
    "members": list(Size.__members__),
}
