# description: Assign customers to 4 shards with zlib.crc32
# value: {"0": ["c5"], "1": ["c1", "c3"], "2": ["c4", "c6"], "3": ["c2"]}
# limitation: the zlib module is not available in run_code; the refusal names a stable hash with hashlib
import zlib

customers = await tools.list_customers()
shards = {}
for c in customers:
    shard = zlib.crc32(c["id"].encode()) % 4
    shards.setdefault(shard, []).append(c["id"])
return {str(k): v for k, v in sorted(shards.items())}
