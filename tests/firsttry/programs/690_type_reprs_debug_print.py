# description: Debug-print the types of tool results and of the program's own objects
# value: ["<class '__main__.Row'>", "<enum 'Tier'>", "Row", "Row"]
# logs: ["<class 'dict'> <class 'list'> <class '__main__.Row'> <enum 'Tier'>", "<class '__main__.Row'> <enum 'Tier'> Row(id='c3', tier=<Tier.FREE: 'free'>)", "Tier.PRO Tier.PRO pro"]
from dataclasses import dataclass
from enum import Enum

class Tier(Enum):
    FREE = "free"
    PRO = "pro"

@dataclass
class Row:
    id: str
    tier: Tier

c = await tools.get_customer(customer_id="c3")
row = Row(c["id"], Tier(c["tier"]))
print(type(c), type(c["tags"]), type(row), type(Tier.FREE))
print(Row, Tier, repr(row))
print(str(Tier.PRO), f"{Tier.PRO!s}", Tier.PRO.value)
return [str(type(row)), repr(Tier), type(row).__qualname__, Row.__name__]
