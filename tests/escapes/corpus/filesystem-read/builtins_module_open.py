# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; open fetched from the builtins module
import builtins
return builtins.open("{SECRET_PATH}").read()
