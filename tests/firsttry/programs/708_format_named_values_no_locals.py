# description: Format weather lines with str.format keywords and format_map instead of locals()
# value: ["London: 14.5C and rain", "Tokyo: 24.0C and sunny", "Oslo: 6.5C and snow"]
# logs: ["London: 14.5C and rain", "Tokyo: 24.0C and sunny", "Oslo: 6.5C and snow"]
TEMPLATE = "{city}: {temp:.1f}C and {cond}"

def describe(weather):
    return TEMPLATE.format(city=weather["city"], temp=weather["celsius"], cond=weather["condition"])

lines = [describe(await tools.get_weather(city=c)) for c in ["London", "Tokyo"]]
w = await tools.get_weather(city="Oslo")
lines.append(TEMPLATE.format_map({"city": w["city"], "temp": w["celsius"], "cond": w["condition"]}))
print("\n".join(lines))
return lines
