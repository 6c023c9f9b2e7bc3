# description: Fetch forecasts at the documented bounds and outside them
# value: {"None": [3, "cloudy"], "1": [1, "rain"], "7": [7, "windy"], "8": ["ValueError", null]}
out = {}
for days in (None, 1, 7, 8):
    try:
        if days is None:
            rows = await tools.forecast(city="Sydney")
        else:
            rows = await tools.forecast(city="Sydney", days=days)
        out[str(days)] = [len(rows), rows[-1]["condition"]]
    except ToolCallError as e:
        out[str(days)] = [e.type, e.code]
return out
