# description: Offload a checksum to a thread with asyncio.to_thread while fetching weather
# value: {"digest": "96d4296747cf", "oslo": "snow"}
# limitation: asyncio.to_thread is not in the asyncio facade (programs have no threads); the refusal says to call the function directly
import asyncio
import hashlib

def checksum(text):
    return hashlib.sha256(text.encode()).hexdigest()[:12]

logs = await tools.fetch_logs()
digest, weather = await asyncio.gather(
    asyncio.to_thread(checksum, logs),
    tools.get_weather(city="Oslo"),
)
return {"digest": digest, "oslo": weather["condition"]}
