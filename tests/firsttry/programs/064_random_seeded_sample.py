# description: Pick a reproducible sample of customers for a survey
# value: {"sample": ["c1", "c4", "c5"], "count": 3, "all_distinct": true}
import random

customers = await tools.list_customers()
rng = random.Random(1234)
sample = rng.sample([c["id"] for c in customers], k=3)
shuffled = [c["name"] for c in customers]
rng.shuffle(shuffled)
return {"sample": sorted(sample), "count": len(sample), "all_distinct": len(set(shuffled)) == len(customers)}
