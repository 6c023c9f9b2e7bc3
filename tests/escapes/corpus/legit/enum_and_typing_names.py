# value: ["RED", 2, "ok"]
import enum
import typing
class Color(enum.Enum):
    RED = 1
    GREEN = 2
def check(x: typing.Optional[int] = None) -> str:
    return "ok"
return [Color.RED.name, Color.GREEN.value, check()]
