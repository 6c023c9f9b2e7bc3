# value: ["ValueError: bad", "custom: 7", "finally ran"]
class MyError(Exception):
    def __init__(self, code):
        super().__init__(f"custom: {code}")
        self.code = code
out = []
try:
    raise ValueError("bad")
except ValueError as e:
    out.append(f"{type(e).__name__}: {e}")
try:
    raise MyError(7)
except MyError as e:
    out.append(str(e))
finally:
    out.append("finally ran")
return out
