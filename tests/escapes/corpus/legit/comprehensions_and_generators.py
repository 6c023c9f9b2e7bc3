# value: [[0, 4, 16], {"a": 1, "b": 2}, 6, [1, 2, 3, 4]]
squares = [i * i for i in range(5) if i % 2 == 0]
mapping = {k: v for v, k in enumerate("ab", start=1)}
total = sum(i for i in range(4))
def inner():
    yield 1
    yield 2
def outer():
    yield from inner()
    yield from [3, 4]
return [squares, mapping, total, list(outer())]
