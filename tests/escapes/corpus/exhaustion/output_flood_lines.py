# category: exhaustion
# signal: limit bounded
# kinds: timeout output-limit
# plain: skip (floods the output)
# source: printing lines forever
while True:
    print("flood " * 16)
