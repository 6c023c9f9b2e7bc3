# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: tokenize.open is a text opener for source files
import tokenize
return tokenize.open("{SECRET_PATH}").read()
