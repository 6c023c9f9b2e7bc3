# category: exhaustion
# signal: limit bounded
# kinds: timeout output-limit
# plain: skip (floods the output)
# source: printing forever without a newline, so that no line ever completes
while True:
    print("x" * 1000, end="")
