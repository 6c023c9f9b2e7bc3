# description: List the public attributes and methods of a settings object with dir()
# value: {"public": ["describe", "region", "retries", "timeout"], "values": {"region": "eu", "retries": 3, "timeout": 2.5}, "methods": ["describe"], "weather_keys": ["celsius", "city", "condition", "humidity", "wind_kph"]}
class Settings:
    retries = 3
    timeout = 2.5

    def __init__(self, region):
        self.region = region
        self._secret = "x"

    def describe(self):
        return f"{self.region}: {self.retries} retries"

s = Settings("eu")
public = [name for name in dir(s) if not name.startswith("_")]
values = {name: getattr(s, name) for name in public if not callable(getattr(s, name))}
methods = [name for name in public if callable(getattr(s, name))]
w = await tools.get_weather(city="Paris")
return {"public": public, "values": values, "methods": methods, "weather_keys": sorted(w)}
