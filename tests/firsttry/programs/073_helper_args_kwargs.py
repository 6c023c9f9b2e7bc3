# description: Call tools through a retrying helper
# value: {"celsius": 33.5, "forecast_ok": false, "attempts": 3}
attempts = {"count": 0}


async def call_with_retry(fn, *args, retries=2, **kwargs):
    last_error = None
    for attempt in range(retries + 1):
        attempts["count"] += 1
        try:
            return await fn(*args, **kwargs)
        except ToolCallError as e:
            last_error = e
            if e.code == "INVALID_ARGS":
                break
        finally:
            pass
    raise last_error


weather = await call_with_retry(tools.get_weather, city="Cairo")
try:
    await call_with_retry(tools.forecast, city="Cairo", days=30, retries=1)
    forecast_ok = True
except ToolCallError:
    forecast_ok = False

return {"celsius": weather["celsius"], "forecast_ok": forecast_ok, "attempts": attempts["count"]}
