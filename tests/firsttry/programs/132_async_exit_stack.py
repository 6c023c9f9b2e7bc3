# description: Manage several async resources with AsyncExitStack
# value: {"temps": {"Paris": 18.0, "Oslo": 6.5}, "log": ["open Paris", "open Oslo", "open Atlantis", "callback ran", "close Atlantis after ToolCallError", "close Oslo after ToolCallError", "close Paris after ToolCallError", "failed: get_weather"]}
import contextlib

log = []

class Session:
    def __init__(self, name):
        self.name = name
    async def __aenter__(self):
        log.append(f"open {self.name}")
        return self
    async def __aexit__(self, exc_type, exc, tb):
        log.append(f"close {self.name}" + (f" after {exc_type.__name__}" if exc_type else ""))
        return False
    async def weather(self):
        return await tools.get_weather(city=self.name)

temps = {}
try:
    async with contextlib.AsyncExitStack() as stack:
        sessions = [await stack.enter_async_context(Session(c)) for c in ["Paris", "Oslo", "Atlantis"]]
        stack.callback(log.append, "callback ran")
        for s in sessions:
            w = await s.weather()
            temps[s.name] = w["celsius"]
except ToolCallError as e:
    log.append(f"failed: {e.tool_name}")
return {"temps": temps, "log": log}
