# value: [3, [2, 4, 6], 2]
def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump
bump = counter()
bump()
bump()
if (n := bump()) > 2:
    doubled = list(map(lambda v: v * 2, [1, 2, 3]))
return [n, doubled, len([y for x in [1, 2] if (y := x)])]
