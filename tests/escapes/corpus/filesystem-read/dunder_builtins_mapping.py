# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; the __builtins__ global holds the unrestricted builtins
b = __builtins__
opener = b["open"] if isinstance(b, dict) else b.open
return opener("{SECRET_PATH}").read()
