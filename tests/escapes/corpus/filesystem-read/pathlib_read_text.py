# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops import pathlib
# source: classic; pathlib reads without naming open
import pathlib
return pathlib.Path("{SECRET_PATH}").read_text()
