# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: variant of io_open_code: a source loader's get_data reads any path through io.open_code
import importlib.machinery
return importlib.machinery.SourceFileLoader("x", "{SECRET_PATH}").get_data("{SECRET_PATH}").decode()
