# description: Seeded random.Random for a weighted sample of customers and shuffled ticket order
# value: {"picked": ["c3", "c6", "c2", "c6", "c2", "c5"], "order": ["c1", "c4", "c6", "c2", "c5", "c3"], "sample": [45, 53, 67, 93, 78], "counted": ["a", "a", "b", "b"], "uniform": 1.519351, "gauss": -0.467279}
import random

rng = random.Random(2024)
customers = await tools.list_customers()
weights = {"enterprise": 5, "pro": 3, "free": 1}
picked = rng.choices([c["id"] for c in customers], weights=[weights[c["tier"]] for c in customers], k=6)
order = [c["id"] for c in customers]
rng.shuffle(order)
sample = rng.sample(range(100), 5)
counted = rng.sample(["a", "b"], counts=[3, 2], k=4)
return {"picked": picked, "order": order, "sample": sample, "counted": counted,
        "uniform": round(rng.uniform(1, 2), 6), "gauss": round(rng.gauss(0, 1), 6)}
