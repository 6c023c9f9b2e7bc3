# description: Build ticket drafts as TypedDicts with optional keys and validate them
# value: {"results": [{"customer_id": "c1", "ticket": "T-101:high"}, {"customer_id": "c4", "skipped": "nothing shipped"}, {"customer_id": "c6", "ticket": "T-102:high"}], "keys": ["customer_id", "subject"], "optional": ["notes", "priority"], "is_dict": true}
# limitation: TypedDict __required_keys__ and __optional_keys__ are refused dunder reads
from typing import TypedDict, Literal, Required, NotRequired, get_type_hints

Priority = Literal["low", "normal", "high"]


class TicketDraft(TypedDict, total=False):
    customer_id: Required[str]
    subject: Required[str]
    priority: Priority
    notes: list[str]


class Result(TypedDict):
    customer_id: str
    ticket: NotRequired[str]
    skipped: NotRequired[str]


def make_draft(customer, order) -> TicketDraft:
    draft = TicketDraft(customer_id=customer["id"], subject=f"Order {order['id']} delayed")
    if customer["tier"] == "enterprise":
        draft["priority"] = "high"
    if order["total"] > 300:
        draft.setdefault("notes", []).append("high value")
    return draft


results: list[Result] = []
for cid in ("c1", "c4", "c6"):
    customer = await tools.get_customer(customer_id=cid)
    shipped = await tools.list_orders(customer_id=cid, status="shipped")
    if not shipped:
        results.append({"customer_id": cid, "skipped": "nothing shipped"})
        continue
    draft = make_draft(customer, shipped[0])
    t = await tools.create_ticket(
        customer_id=draft["customer_id"], subject=draft["subject"], priority=draft.get("priority", "normal")
    )
    results.append(Result(customer_id=cid, ticket=f"{t['id']}:{t['priority']}"))

return {
    "results": results,
    "keys": sorted(TicketDraft.__required_keys__),
    "optional": sorted(TicketDraft.__optional_keys__),
    "is_dict": type(TicketDraft(customer_id="x", subject="y")) is dict,
}
