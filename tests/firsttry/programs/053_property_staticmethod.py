# description: Model weather readings with a class
# value: [{"city": "New York", "f": 69.8, "feels_like": 17.5}, {"city": "Oslo", "f": 43.7, "feels_like": 4.3}]
class Reading:
    def __init__(self, city, celsius, wind_kph):
        self.city = city
        self.celsius = celsius
        self.wind_kph = wind_kph

    @classmethod
    def from_api(cls, data):
        return cls(data["city"], data["celsius"], data["wind_kph"])

    @staticmethod
    def c_to_f(c):
        return round(c * 9 / 5 + 32, 1)

    @property
    def fahrenheit(self):
        return self.c_to_f(self.celsius)

    @property
    def feels_like(self):
        # crude wind chill
        return round(self.celsius - self.wind_kph * 0.1, 1)

    def to_dict(self):
        return {"city": self.city, "f": self.fahrenheit, "feels_like": self.feels_like}


readings = [Reading.from_api(await tools.get_weather(city=c)) for c in ["New York", "Oslo"]]
return [r.to_dict() for r in readings]
