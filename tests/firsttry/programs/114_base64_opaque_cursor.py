# description: Wrap the event cursor in an opaque base64 token
# value: {"ids": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "token": "eyJjdXJzb3IiOiAiY3VyXzE1IiwgInNlZW4iOiAxNX0", "state": {"cursor": "cur_15", "seen": 15}, "b16": "6F6B"}
import base64
import json

def encode_token(state: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")

def decode_token(token: str) -> dict:
    padded = token + "=" * (-len(token) % 4)
    return json.loads(base64.urlsafe_b64decode(padded))

token = encode_token({"cursor": None, "seen": 0})
collected = []
for _ in range(3):
    state = decode_token(token)
    page = await tools.list_events(cursor=state["cursor"], page_size=5)
    collected.extend(e["id"] for e in page["items"])
    token = encode_token({"cursor": page["next_cursor"], "seen": state["seen"] + len(page["items"])})

final = decode_token(token)
return {"ids": collected, "token": token, "state": final, "b16": base64.b16encode(b"ok").decode()}
