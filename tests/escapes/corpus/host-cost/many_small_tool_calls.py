# category: host-cost
# signal: host handler liveness
# kinds: ok timeout
# plain: skip (checks the host's per-call work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: thousands of tiny calls one after another: each costs the host a frame, a decode and a reply of its own, never work that grows with the calls made before it
n = 0
for i in range(3000):
    hit = await tools.echo(i=i)
    n += hit["i"]
return n
