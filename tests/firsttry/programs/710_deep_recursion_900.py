# description: Recursively flatten a deeply nested reply chain of 900 levels
# value: {"length": 900, "city": "Paris"}
chain = None
for i in range(900):
    chain = {"id": i, "reply": chain}

def length(node):
    return 0 if node is None else 1 + length(node["reply"])

w = await tools.get_weather(city="Paris")
return {"length": length(chain), "city": w["city"]}
