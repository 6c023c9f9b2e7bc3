# description: Keep run configuration in a SimpleNamespace and expose a read-only view with MappingProxyType
# value: {"rainy": ["2024-06-17"], "cfg": {"city": "Paris", "days": 4, "alert_rain_mm": 1.0, "channels": ["email", "sms"]}, "repr": "namespace(a=1, b='x')", "frozen_vat": 0.21, "err": "TypeError", "eq": true, "deep": ["email", "sms", "push"], "proxy_keys": ["currency", "vat"], "get": "-"}
# limitation: types.MappingProxyType is not in the types facade
from types import SimpleNamespace, MappingProxyType
import copy

cfg = SimpleNamespace(city="Paris", days=5, alert_rain_mm=1.0, channels=["email"])
cfg.days = 4
forecast = await tools.forecast(city=cfg.city, days=cfg.days)
rainy = [d["date"] for d in forecast if d["rain_mm"] >= cfg.alert_rain_mm]
defaults = {"currency": "EUR", "vat": 0.2}
frozen = MappingProxyType(defaults)
try:
    frozen["vat"] = 0
    err = None
except TypeError as e:
    err = type(e).__name__
defaults["vat"] = 0.21
clone = copy.copy(cfg)
clone.channels.append("sms")
deep = copy.deepcopy(cfg)
deep.channels.append("push")
return {"rainy": rainy, "cfg": vars(cfg), "repr": repr(SimpleNamespace(a=1, b="x")), "frozen_vat": frozen["vat"], "err": err,
        "eq": SimpleNamespace(a=1) == SimpleNamespace(a=1), "deep": deep.channels, "proxy_keys": list(frozen), "get": frozen.get("nope", "-")}
