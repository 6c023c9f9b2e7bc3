# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; the builtin open() on a root-only file
return open("{SECRET_PATH}").read()
