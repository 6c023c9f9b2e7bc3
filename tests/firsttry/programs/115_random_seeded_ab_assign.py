# description: Deterministically assign customers to experiment arms and sample a survey
# value: {"assignment": {"c1": "variant", "c2": "variant", "c3": "variant", "c4": "variant", "c5": "variant", "c6": "variant"}, "shuffled": ["c1", "c4", "c6", "c2", "c5", "c3"], "survey": ["c3", "c4", "c2"], "coin": true, "dice": [6, 3, 5, 1, 6], "pick": "c2", "uniform": 16.892}
import random

rng = random.Random(2024)
customers = await tools.list_customers()
ids = [c["id"] for c in customers]
arms = rng.choices(["control", "variant"], weights=[1, 3], k=len(ids))
assignment = dict(zip(ids, arms))
shuffled = ids[:]
rng.shuffle(shuffled)
survey = rng.sample(ids, 3)
return {
    "assignment": assignment,
    "shuffled": shuffled,
    "survey": survey,
    "coin": rng.random() < 0.5,
    "dice": [rng.randint(1, 6) for _ in range(5)],
    "pick": rng.choice(ids),
    "uniform": round(rng.uniform(10, 20), 3),
}
