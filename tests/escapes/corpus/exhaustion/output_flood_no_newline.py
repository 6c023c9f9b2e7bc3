# category: exhaustion
# signal: limit bounded
# kinds: timeout output-limit
# plain: skip (floods the output)
# tripwire: harmless (the host's output caps)
# source: printing forever without a newline, so that no line ever completes
while True:
    print("x" * 1000, end="")
