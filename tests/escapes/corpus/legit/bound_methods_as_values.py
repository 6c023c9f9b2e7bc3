# value: [["b", 2], ["a", 1]]
counts = {"a": 1, "b": 2}
ranked = sorted(counts, key=counts.get, reverse=True)
return [[name, counts[name]] for name in ranked]
