# value: ["ok", "ToolCallError"]
import asyncio
results = await asyncio.gather(tools.echo(v="ok"), tools.fail(), return_exceptions=True)
return [results[0]["v"], type(results[1]).__name__]
