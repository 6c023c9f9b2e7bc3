# category: filesystem-read
# signal: secret
# expect: refused
# source: classic; io.open is the same function as open
import io
return io.open("{SECRET_PATH}").read()
