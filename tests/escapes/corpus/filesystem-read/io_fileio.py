# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: classic; the raw FileIO class
import io
return io.FileIO("{SECRET_PATH}").read().decode()
