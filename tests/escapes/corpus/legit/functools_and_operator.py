# value: [10, 8, 55, [3, 2, 1]]
import functools
import operator
add3 = functools.partial(operator.add, 3)
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
return [functools.reduce(operator.add, [1, 2, 3, 4]), add3(5), fib(10), sorted([1, 3, 2], key=functools.cmp_to_key(lambda a, b: b - a))]
