# description: Describe the shape of several tool results so I know which fields to rely on
# value: {"shapes": {"customer": {"id": "str", "name": "str", "email": "str", "tier": "str", "address": {"street": "str", "city": "str", "postcode": "str", "country": "str"}, "signup_date": "str", "tags": ["list[str]", "str"]}, "weather": {"city": "str", "celsius": "number:float", "condition": "str", "humidity": "number:int", "wind_kph": "number:float"}, "events": {"items": ["list[dict]", {"id": "number:int", "at": "str", "kind": "str", "customer_id": "str", "amount": "number:float"}], "next_cursor": "str", "total": "number:int"}, "stock": "number:int", "time": "str", "nobody": "null"}, "numeric_weather_fields": ["celsius", "humidity", "wind_kph"], "has_items": true, "len_name": 8}
# logs: ["customer  dict   True False", "weather   dict   True False", "events    dict   True False", "stock     int    True False", "time      str    True False", "nobody    NoneType True False"]
def shape(value, depth=0):
    if isinstance(value, dict):
        return {k: shape(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        kinds = {type(v).__name__ for v in value}
        inner = shape(value[0], depth + 1) if value else None
        return [f"list[{'|'.join(sorted(kinds)) or 'empty'}]", inner]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number:" + type(value).__name__
    return type(value).__name__

samples = {
    "customer": await tools.get_customer(customer_id="c2"),
    "weather": await tools.get_weather(city="oslo"),
    "events": await tools.list_events(page_size=2),
    "stock": await tools.get_stock(sku="KB-01"),
    "time": await tools.current_time(),
    "nobody": await tools.find_customer(email="nobody@example.com"),
}
described = {name: shape(v) for name, v in samples.items()}
for name, v in samples.items():
    print(f"{name:<9} {type(v).__name__:<6} {v.__class__.__name__ == type(v).__name__} {callable(v)}")
numeric = sorted(k for k, v in samples["weather"].items() if isinstance(v, (int, float)) and not isinstance(v, bool))
return {"shapes": described, "numeric_weather_fields": numeric,
        "has_items": hasattr(samples["events"], "items"), "len_name": len(type(samples["nobody"]).__name__)}
