# category: output
# signal: limit
# kinds: ok
# plain: skip (checks the sandbox's output capture)
# tripwire: harmless (no audited event: a generator's finally run by the collector)
# source: the collector's period is measured with generators left in reference cycles, then timed so that it runs while the capture cuts the line that passes the output budget; the finalizer's print completes the cut line, which is then handed on a second time, past the budget
fired = [0]
mode = ["count"]
keep = []
def gen(box):
    try:
        yield 1
    finally:
        if mode[0] == "attack":
            print("Y")
        fired[0] += 1
def arm():
    box = []
    g = gen(box)
    box.append(g)
    next(g)
def until_fire():
    start = fired[0]
    n = 0
    while fired[0] == start:
        keep.append([])
        n += 1
    return n
arm()
until_fire()
arm()
period = until_fire()
mode[0] = "attack"
arm()
for _ in range(period - 6):
    keep.append([])
print("x" * 70000)
return [period, fired[0]]
