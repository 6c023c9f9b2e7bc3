# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# source: classic; a busy loop
while True:
    pass
