# description: Match misspelled city names and build forecast links for them
# value: {"links": {"Lodnon": "https://weather.example.com/forecast?city=London&unit=C&note=rain+%26+14.5", "paris": "https://weather.example.com/forecast?city=Paris&unit=C&note=cloudy+%26+18.0", "Tokio": "https://weather.example.com/forecast?city=Tokyo&unit=C&note=sunny+%26+24.0"}, "host": "weather.example.com", "city": "London", "html": "https://weather.example.com/forecast?city=Paris&amp;unit=C&amp;note=cloudy+%26+18.0"}
import difflib
import html
from urllib.parse import parse_qs, urlencode, urlparse

known = ["London", "Paris", "Oslo", "Tokyo"]
requested = ["Lodnon", "paris", "Tokio"]

links = {}
for name in requested:
    match = difflib.get_close_matches(name.title(), known, n=1, cutoff=0.6)
    if not match:
        continue
    city = match[0]
    report = await tools.get_weather(city=city)
    query = urlencode({"city": city, "unit": "C", "note": f"{report['condition']} & {report['celsius']}"})
    links[name] = f"https://weather.example.com/forecast?{query}"

first = urlparse(links["Lodnon"])
return {
    "links": links,
    "host": first.hostname,
    "city": parse_qs(first.query)["city"][0],
    "html": html.escape(links["paris"]),
}
