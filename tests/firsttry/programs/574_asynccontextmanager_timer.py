# description: Time each phase with an asynccontextmanager that records the call counts
# value: {"phases": ["start customers", "end customers", "start orders", "end orders"], "label": "customers", "total": 1620.23}
from contextlib import asynccontextmanager
import asyncio

phases: list[str] = []

@asynccontextmanager
async def phase(name: str):
    phases.append(f"start {name}")
    try:
        yield name
    finally:
        phases.append(f"end {name}")

async with phase("customers") as label:
    customers = await tools.list_customers(tier="enterprise")
async with phase("orders"):
    orders = await asyncio.gather(*[tools.list_orders(customer_id=c["id"]) for c in customers])
total = sum(o["total"] for batch in orders for o in batch)
return {"phases": phases, "label": label, "total": round(total, 2)}
