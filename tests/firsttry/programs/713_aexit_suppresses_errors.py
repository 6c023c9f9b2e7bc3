# description: An async context manager whose __aexit__ suppresses tool errors and records them
# value: {"found": {"c1": "Ada Lovelace", "c3": "Alan Turing"}, "errors": ["get_customer: LookupError", "get_customer: LookupError"]}
class Collect:
    def __init__(self):
        self.errors = []

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, ToolCallError):
            self.errors.append(f"{exc.tool_name}: {exc.type}")
            return True
        return False

found = {}
errors = Collect()
for cid in ["c1", "c9", "c3", "c42"]:
    async with errors:
        found[cid] = (await tools.get_customer(customer_id=cid))["name"]
return {"found": found, "errors": errors.errors}
