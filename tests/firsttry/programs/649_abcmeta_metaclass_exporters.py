# description: Export order summaries through exporter classes declared with an ABCMeta metaclass
# value: {"JsonExporter": "[\"o-1001\", \"o-1002\", \"o-1003\"]", "CsvExporter": "o-1001,118.25\no-1002,559.98\no-1003,188.0"}
# limitation: `metaclass=` in a class statement is refused by design; the refusal says to derive from abc.ABC (`class Exporter(ABC):`)
import json
from abc import ABCMeta, abstractmethod

class Exporter(metaclass=ABCMeta):
    @abstractmethod
    def render(self, orders): ...

class JsonExporter(Exporter):
    def render(self, orders):
        return json.dumps([o["id"] for o in orders])

class CsvExporter(Exporter):
    def render(self, orders):
        return "\n".join(f"{o['id']},{o['total']}" for o in orders)

orders = await tools.list_orders(customer_id="c1")
return {type(e).__name__: e.render(orders) for e in (JsonExporter(), CsvExporter())}
