# category: filesystem-read
# signal: secret
# expect: refused
# tripwire: stops open
# source: exfiltration through the captured print output instead of the return value
print(open("{SECRET_PATH}").read())
