# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; io.open is the same function as open
import io
return io.open("{SECRET_PATH}").read()
