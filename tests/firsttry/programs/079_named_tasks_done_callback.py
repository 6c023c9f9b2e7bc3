# description: Fetch forecasts as named tasks, tracking completion with a done callback
# value: {"finished": ["forecast-London", "forecast-Oslo", "forecast-Paris"], "rain": {"London": 2, "Paris": 1, "Oslo": 1}}
import asyncio

finished = []


def on_done(task):
    if task.exception() is None:
        finished.append(task.get_name())


async def rainy_days(city):
    days = await tools.forecast(city=city, days=5)
    return sum(1 for d in days if d["condition"] == "rain")


tasks = []
for city in ["London", "Paris", "Oslo"]:
    task = asyncio.create_task(rainy_days(city), name=f"forecast-{city}")
    task.add_done_callback(on_done)
    tasks.append(task)

await asyncio.wait(tasks)
return {
    "finished": sorted(finished),
    "rain": {t.get_name().removeprefix("forecast-"): t.result() for t in tasks},
}
