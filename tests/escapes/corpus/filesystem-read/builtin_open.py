# category: filesystem-read
# signal: secret
# expect: refused
# source: classic; the builtin open() on a root-only file
return open("{SECRET_PATH}").read()
