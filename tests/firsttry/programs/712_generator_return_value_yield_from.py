# description: A generator that returns a summary through StopIteration.value via yield from
# value: {"last": ["SUMMARY", 2], "levels": ["ERROR", "INFO", "WARN"], "direct": {"bad": 1}}
def parse(lines):
    bad = 0
    for line in lines:
        parts = line.split()
        if len(parts) < 4:
            bad += 1
            continue
        yield parts[2], parts[3]
    return {"bad": bad}

def tagged(lines):
    summary = yield from parse(lines)
    yield "SUMMARY", summary["bad"]

text = await tools.fetch_logs()
rows = list(tagged(text.splitlines() + ["oops", ""]))
gen = parse(["a b"])
try:
    next(gen)
except StopIteration as stop:
    direct = stop.value
return {"last": list(rows[-1]), "levels": sorted({r[0] for r in rows[:-1]}), "direct": direct}
