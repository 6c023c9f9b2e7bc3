# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops import pathlib
# source: classic; pathlib bytes variant
from pathlib import Path
return Path("{SECRET_PATH}").read_bytes().decode()
