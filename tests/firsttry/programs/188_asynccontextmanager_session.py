# description: Wrap a support session (ticket open, notify on close) in an async context manager
# value: ["opened T-101", "notified grace@example.com (1 notes)", "opened T-102", "session error: get_order", "notified alan@example.com (2 notes)", "timer start", "opened T-103", "notified katherine@example.com (1 notes)", "timer stop exc=None"]
from contextlib import asynccontextmanager, AsyncExitStack
import asyncio

log = []


@asynccontextmanager
async def support_session(customer_id, subject):
    ticket = await tools.create_ticket(customer_id=customer_id, subject=subject)
    log.append(f"opened {ticket['id']}")
    notes = []
    try:
        yield notes
    except ToolCallError as e:
        log.append(f"session error: {e.tool_name}")
        notes.append("failed")
    finally:
        customer = await tools.get_customer(customer_id=customer_id)
        msg = f"Ticket {ticket['id']} closed: {'; '.join(notes) or 'no notes'}"
        r = await tools.send_notification(to=customer["email"], message=msg)
        log.append(f"notified {r['to']} ({len(notes)} notes)")


class Timer:
    async def __aenter__(self):
        log.append("timer start")
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc):
        log.append(f"timer stop exc={exc[0].__name__ if exc[0] else None}")
        return False


async with support_session("c2", "Late delivery") as notes:
    order = await tools.get_order(order_id="o-1005")
    notes.append(f"order {order['id']} is {order['status']}")

async with support_session("c3", "Missing order") as notes:
    notes.append("looking up o-9999")
    await tools.get_order(order_id="o-9999")
    notes.append("never")

async with AsyncExitStack() as stack:
    await stack.enter_async_context(Timer())
    notes = await stack.enter_async_context(support_session("c4", "Bulk order"))
    notes.append("stacked")
return log
