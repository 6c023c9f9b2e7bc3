# description: Parse JSON fragments from log lines and report JSONDecodeError positions
# value: {"parsed": [{"user": "c1", "ok": true}], "errors": [{"index": 1, "msg": "Expecting property name enclosed in double quotes", "pos": 15, "lineno": 1, "colno": 16}, {"index": 2, "msg": "Expecting value", "pos": 6, "lineno": 1, "colno": 7}, {"index": 3, "msg": "Extra data", "pos": 15, "lineno": 1, "colno": 16}], "raw": [{"user": "c3"}, 14]}
import json

fragments = ['{"user": "c1", "ok": true}', '{"user": "c2", ok: false}', '[1, 2,', '{"user": "c3"} trailing']
parsed, errors = [], []
for i, text in enumerate(fragments):
    try:
        parsed.append(json.loads(text))
    except json.JSONDecodeError as e:
        errors.append({"index": i, "msg": e.msg, "pos": e.pos, "lineno": e.lineno, "colno": e.colno})
obj, end = json.JSONDecoder().raw_decode(fragments[3])
return {"parsed": parsed, "errors": errors, "raw": [obj, end]}
