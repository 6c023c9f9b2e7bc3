# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: codecs.open wraps the builtin open
import codecs
return codecs.open("{SECRET_PATH}").read()
