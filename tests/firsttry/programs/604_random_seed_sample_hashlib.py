# description: Pick a reproducible random audit sample of customers and fingerprint it with hashlib
# value: {"sample": ["c6", "c1", "c5"], "digest": "67dc183feb54a65c", "blake": "6c19cb00ecd85725", "roll": [3, 2, 4, 6, 1], "choice": "c"}
import random
import hashlib
import json

rng = random.Random(42)
customers = await tools.list_customers()
sample = rng.sample([c["id"] for c in customers], k=3)
shuffled = sorted(sample)
digest = hashlib.sha256(json.dumps(shuffled).encode()).hexdigest()
blake = hashlib.blake2b(b"audit", digest_size=8).hexdigest()
random.seed(7)
roll = [random.randint(1, 6) for _ in range(5)]
return {"sample": sample, "digest": digest[:16], "blake": blake, "roll": roll, "choice": rng.choice("abc")}
