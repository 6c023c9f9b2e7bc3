# description: Look tools up by subscript and skip names that are not declared
# value: {"current_time": "2024-06-15T09:30:00+00:00", "current-time": "no such tool", "clock": "no such tool"}
out = {}
for name in ["current_time", "current-time", "clock"]:
    try:
        stub = tools[name]
    except KeyError:
        out[name] = "no such tool"
        continue
    out[name] = await stub({})
return out
