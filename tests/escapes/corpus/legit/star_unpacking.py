# value: [1, [2, 3], 4, {"a": 1, "b": 2}]
first, *middle, last = [1, 2, 3, 4]
merged = {**{"a": 1}, **{"b": 2}}
return [first, middle, last, merged]
