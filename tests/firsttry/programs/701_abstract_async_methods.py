# description: Abstract base class with async abstract methods and an abstract property
# value: {"out": {"stock": {"KB-01": 14, "CB-05": 120}, "weather": {"Cairo": 33.5}}, "error": "Can't instantiate abstract class Broken with abstract method name"}
from abc import ABC, abstractmethod

class Source(ABC):
    @property
    @abstractmethod
    def name(self) -> str: ...

    @abstractmethod
    async def fetch(self, key): ...

    async def fetch_many(self, keys):
        return {k: await self.fetch(k) for k in keys}

class StockSource(Source):
    name = "stock"

    async def fetch(self, key):
        return await tools.get_stock(sku=key)

class WeatherSource(Source):
    @property
    def name(self):
        return "weather"

    async def fetch(self, key):
        return (await tools.get_weather(city=key))["celsius"]

class Broken(Source):
    async def fetch(self, key):
        return None

try:
    Broken()
    error = None
except TypeError as e:
    error = str(e)
out = {}
for src in [StockSource(), WeatherSource()]:
    out[src.name] = await src.fetch_many(["KB-01", "CB-05"] if src.name == "stock" else ["Cairo"])
return {"out": out, "error": error}
