# description: Build report settings from defaults and overrides and print what is configured
# value: {"public": ["currency", "include_cancelled", "page_size"], "overridden": {"currency": "USD", "page_size": 20}, "errors": ["AttributeError: unknown setting 'page_sise'", "TypeError: page_size must be int, not str", "TypeError: include_cancelled must be bool, not int"], "copy_equal": true, "defaults": {"currency": "EUR", "include_cancelled": false, "page_size": 10}, "missing": "UTC", "callables": ["describe", "public"], "events": 20}
# logs: ["ReportSettings(currency='USD', include_cancelled=False, page_size=20)"]
class ReportSettings:
    currency = "EUR"
    page_size = 10
    include_cancelled = False

    def __init__(self, **overrides):
        for key, value in overrides.items():
            if not hasattr(type(self), key):
                raise AttributeError(f"unknown setting {key!r}")
            expected = type(getattr(type(self), key))
            if not isinstance(value, expected):
                raise TypeError(f"{key} must be {expected.__name__}, not {type(value).__name__}")
            setattr(self, key, value)

    def describe(self):
        return "settings"

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.public())
        return f"{self.__class__.__name__}({fields})"

    @classmethod
    def public(cls):
        return [n for n in dir(cls) if not n.startswith("_") and not callable(getattr(cls, n))]

s = ReportSettings(page_size=20, currency="USD")
errors = []
for bad in ({"page_sise": 5}, {"page_size": "20"}, {"include_cancelled": 1}):
    try:
        ReportSettings(**bad)
    except (AttributeError, TypeError) as e:
        errors.append(f"{type(e).__name__}: {e}")

overridden = vars(s)
copy = ReportSettings()
for name in ReportSettings.public():
    setattr(copy, name, getattr(s, name))

page = await tools.list_events(page_size=s.page_size)
print(repr(s))
return {
    "public": ReportSettings.public(),
    "overridden": dict(sorted(overridden.items())),
    "errors": errors,
    "copy_equal": repr(copy) == repr(s),
    "defaults": {n: getattr(ReportSettings, n) for n in ReportSettings.public()},
    "missing": getattr(s, "timezone", "UTC"),
    "callables": [n for n in dir(s) if not n.startswith("_") and callable(getattr(s, n))],
    "events": len(page["items"]),
}
