# description: Wrap tool failures in domain exceptions with context
# value: {"o-1003": "refund 188.0", "attempts": 4, "o-1003#": "refused: tool \"cancel_order\" raised ValueError: order o-1003 is cancelled and cannot be cancelled; cause=None; had_context=True", "o-9999": "missing (order); cause=ToolCallError", "o-1001#": "refused: tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled; cause=None; had_context=True"}
class SupportError(Exception):
    """Base error for this workflow."""

class NotFound(SupportError):
    def __init__(self, what: str, key: str):
        super().__init__(f"{what} {key!r} not found")
        self.what, self.key = what, key

class NotAllowed(SupportError):
    pass

async def cancel(order_id: str) -> dict:
    try:
        return await tools.cancel_order(order_id=order_id, reason="duplicate")
    except ToolCallError as e:
        if e.type == "LookupError":
            raise NotFound("order", order_id) from e
        raise NotAllowed(str(e)) from None

outcomes = {}
for oid in ["o-1003", "o-1003", "o-9999", "o-1001"]:
    try:
        result = await cancel(oid)
    except NotFound as e:
        outcomes[oid] = f"missing ({e.what}); cause={type(e.__cause__).__name__}"
    except (NotAllowed, ValueError) as e:
        outcomes.setdefault(oid + "#", f"refused: {e}; cause={e.__cause__!r}; had_context={e.__context__ is not None}")
    else:
        outcomes[oid] = f"refund {result['refund']}"
    finally:
        outcomes["attempts"] = outcomes.get("attempts", 0) + 1
return outcomes
