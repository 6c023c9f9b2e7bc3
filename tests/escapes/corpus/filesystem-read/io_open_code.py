# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: io.open_code, the audit-hook entry used by importers
import io
return io.open_code("{SECRET_PATH}").read().decode()
