# category: host-cost
# signal: host handler liveness
# kinds: ok
# plain: skip (checks the host's decode work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: a legitimate call whose one argument is a string of characters JSON escapes, near the frame cap: the host decodes, checks and echoes back text six times the string's length
hit = await tools.echo(x="\x01" * 80_000)
return len(hit["x"])
