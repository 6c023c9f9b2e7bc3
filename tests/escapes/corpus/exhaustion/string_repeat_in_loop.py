# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# applies: both os
# plain: skip (exhausts the machine's memory)
# source: doubling a string until memory runs out
text = "x"
while True:
    text = text + text
