# category: exhaustion
# signal: limit bounded
# kinds: timeout output-limit
# plain: skip (floods the output)
# tripwire: harmless (the host's output caps)
# source: printing lines forever
while True:
    print("flood " * 16)
