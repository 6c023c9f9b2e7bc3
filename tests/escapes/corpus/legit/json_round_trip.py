# value: {"a": [1, 2, {"b": null}], "text": "{\"x\": 1}"}
import json
data = json.loads('{"a": [1, 2, {"b": null}]}')
data["text"] = json.dumps({"x": 1})
return data
