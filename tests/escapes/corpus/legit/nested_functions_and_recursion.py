# value: [120, [1, [2, [3]]]]
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def nest(values):
    if len(values) == 1:
        return [values[0]]
    return [values[0], nest(values[1:])]
return [fact(5), nest([1, 2, 3])]
