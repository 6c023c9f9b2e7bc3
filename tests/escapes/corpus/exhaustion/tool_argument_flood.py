# category: exhaustion
# signal: liveness bounded handler
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host's budget of tool data in flight)
# source: as many concurrent calls as allowed, each with arguments near the frame cap, to make the host hold them all
import asyncio
blob = "x" * 400_000
results = await asyncio.gather(*[tools.echo(blob=blob) for _ in range(128)], return_exceptions=True)
return len(results)
