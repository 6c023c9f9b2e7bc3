# description: Summarise customers as plain objects and return vars() of each
# value: [{"id": "c2", "name": "Grace Hopper", "tier": "pro", "city": "Arlington"}, {"id": "c4", "name": "Katherine Johnson", "tier": "pro", "city": "Hampton"}]
# logs: ["CustomerCard(id='c2', name='Grace Hopper', tier='pro', city='Arlington')", "CustomerCard(id='c4', name='Katherine Johnson', tier='pro', city='Hampton')"]
class CustomerCard:
    def __init__(self, raw):
        self.id = raw["id"]
        self.name = raw["name"]
        self.tier = raw["tier"]
        self.city = raw["address"]["city"]

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"

customers = await tools.list_customers(tier="pro")
cards = [CustomerCard(c) for c in customers]
for card in cards:
    print(repr(card))
return [vars(card) for card in cards]
