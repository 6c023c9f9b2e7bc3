# category: output
# signal: leak
# leak: rewritten after return
# plain: skip (checks the sandbox's snapshot of the return value)
# tripwire: harmless (no audited event: a task step the loop runs before run_until_complete stops)
# source: a task started just before return takes its first step in the loop iteration that ends the run, after the program returned and before the value is copied
import asyncio
result = ["computed"]
returned = []
async def writer():
    if returned:
        result[0] = "rewritten after return"
asyncio.create_task(writer())
returned.append(True)
return result
