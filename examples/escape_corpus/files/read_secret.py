# category: files
# signal: secret
# expect: refused
# tripwire: stops open
# source: the builtin open() on a file only the host's user may read
return open("{SECRET_PATH}").read()
