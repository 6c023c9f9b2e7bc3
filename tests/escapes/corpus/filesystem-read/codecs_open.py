# category: filesystem-read
# signal: secret
# expect: refused
# source: codecs.open wraps the builtin open
import codecs
return codecs.open("{SECRET_PATH}").read()
