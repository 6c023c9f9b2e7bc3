# description: Fetch weather for several cities with a task group
# value: {"complete": false, "failed_tools": ["get_weather"]}
# logs: ["weather lookup failed: tool \"get_weather\" raised LookupError: unknown city 'Atlantis'; known cities: Cairo, London, New York, Oslo, Paris, Sydney, Tokyo"]
import asyncio

cities = ["Cairo", "Atlantis", "Sydney"]
results = {}
failed = []

try:
    async with asyncio.TaskGroup() as tg:
        tasks = {city: tg.create_task(tools.get_weather(city=city)) for city in cities}
except* ToolCallError as eg:
    for exc in eg.exceptions:
        failed.append(exc.tool_name)
        print(f"weather lookup failed: {exc}")

for city, task in tasks.items():
    if task.done() and not task.cancelled() and task.exception() is None:
        results[city] = task.result()["celsius"]

return {"complete": len(results) == len(cities), "failed_tools": failed}
