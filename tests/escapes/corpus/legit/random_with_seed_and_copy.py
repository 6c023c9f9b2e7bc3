# value: [true, [[1, 2], [3]], true]
import copy
import random
rng = random.Random(7)
values = [rng.randint(1, 6) for _ in range(5)]
nested = [[1, 2], [3]]
clone = copy.deepcopy(nested)
clone[0].append(9)
return [all(1 <= v <= 6 for v in values), nested, clone != nested]
