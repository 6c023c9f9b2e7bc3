# description: Format a weather line with str.format(**locals()) inside a helper
# value: ["London: 14.5C and rain", "Tokyo: 24.0C and sunny"]
# logs: ["London: 14.5C and rain", "Tokyo: 24.0C and sunny"]
# limitation: the locals() builtin is not available in run_code; the refusal names f-strings and str.format keywords
def describe(weather):
    city = weather["city"]
    temp = weather["celsius"]
    cond = weather["condition"]
    return "{city}: {temp:.1f}C and {cond}".format(**locals())

lines = []
for city in ["London", "Tokyo"]:
    w = await tools.get_weather(city=city)
    lines.append(describe(w))
print("\n".join(lines))
return lines
