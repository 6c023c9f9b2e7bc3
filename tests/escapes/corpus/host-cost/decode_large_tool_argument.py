# category: host-cost
# signal: host handler liveness
# kinds: ok
# plain: skip (checks the host's decode work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: a legitimate call with a list of a few hundred thousand small items, under the frame cap: the host decoded and checked it on its event loop
hits = await tools.search(query="q", items=[0] * 150_000)
return len(hits["hits"])
