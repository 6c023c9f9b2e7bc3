# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops import fileinput
# source: fileinput opens the paths it is given
import fileinput
return "".join(fileinput.input("{SECRET_PATH}"))
