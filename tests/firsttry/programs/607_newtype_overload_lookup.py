# description: Look customers up by one id or many with an overloaded helper and NewType ids
# value: {"one": "Grace Hopper", "many": ["UK", "UK", "NL"]}
# logs: ["c9 str"]
import asyncio
from typing import NewType, overload, Sequence

CustomerId = NewType("CustomerId", str)

@overload
async def fetch(ids: CustomerId) -> dict: ...
@overload
async def fetch(ids: Sequence[CustomerId]) -> list[dict]: ...
async def fetch(ids):
    if isinstance(ids, str):
        return await tools.get_customer(customer_id=ids)
    return list(await asyncio.gather(*(tools.get_customer(customer_id=i) for i in ids)))

one = await fetch(CustomerId("c2"))
many = await fetch([CustomerId(f"c{n}") for n in (1, 3, 5)])
print(CustomerId("c9"), type(CustomerId("c9")).__name__)
return {"one": one["name"], "many": [c["address"]["country"] for c in many]}
