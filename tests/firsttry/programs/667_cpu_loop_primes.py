# description: Sieve primes to check order ids and sum a large range
# value: {"primes": 17984, "sum": 1709600813, "prime_ids": [1009]}
limit = 200_000
sieve = bytearray([1]) * (limit + 1)
sieve[0] = sieve[1] = 0
for i in range(2, int(limit ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i :: i] = bytearray(len(range(i * i, limit + 1, i)))
count = 0
total = 0
for n in range(limit + 1):
    if sieve[n]:
        count += 1
        total += n
ids = [int(o["id"].split("-")[1]) for o in await tools.list_orders(customer_id="c6")]
return {"primes": count, "sum": total, "prime_ids": [i for i in ids if sieve[i]]}
