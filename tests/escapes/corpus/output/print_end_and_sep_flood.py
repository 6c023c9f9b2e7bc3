# category: output
# signal: liveness bounded
# plain: skip (floods the output)
# tripwire: harmless (the host's output caps)
# source: variant of exhaustion/output_flood_single_line: the flood passed through print's end= and sep= keywords and a file=-less print of many small arguments
print("", end="x" * 20_000_000)
print(*(["y"] * 2_000_000), sep="z" * 8)
return "done"
