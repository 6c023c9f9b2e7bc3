# description: Build typed city summaries
# value: [{"city": "New York", "now": 21.0, "max_next_3": 24.0, "warning": "strong wind"}, {"city": "Tokyo", "now": 24.0, "max_next_3": 27.0, "warning": "rain expected"}]
from typing import TypedDict, Optional


class CitySummary(TypedDict):
    city: str
    now: float
    max_next_3: float
    warning: Optional[str]


async def summarize(city: str) -> CitySummary:
    current = await tools.get_weather(city=city)
    days = await tools.forecast(city=city)
    warning: Optional[str] = None
    if current["wind_kph"] > 30:
        warning = "strong wind"
    elif any(d["condition"] == "rain" for d in days):
        warning = "rain expected"
    return CitySummary(
        city=current["city"],
        now=current["celsius"],
        max_next_3=max(d["high"] for d in days),
        warning=warning,
    )


summaries: list[CitySummary] = [await summarize(c) for c in ("New York", "Tokyo")]
return summaries
