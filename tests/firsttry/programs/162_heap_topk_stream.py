# description: Keep the top purchases while streaming pages with a bounded heap
# value: {"top": [{"id": 5, "amount": 185.99}, {"id": 10, "amount": 170.99}, {"id": 26, "amount": 162.99}, {"id": 31, "amount": 147.99}], "min_in_heap": 147.99, "by_id": [5, 10, 26], "pushpop": 5}
import heapq

K = 4
heap: list[tuple[float, int]] = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=9)
    for e in page["items"]:
        if e["kind"] != "purchase":
            continue
        item = (e["amount"], e["id"])
        if len(heap) < K:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)
    cursor = page["next_cursor"]
    if cursor is None:
        break
top = sorted(heap, reverse=True)
smallest_three = heapq.nsmallest(3, top, key=lambda t: t[1])
return {"top": [{"id": i, "amount": a} for a, i in top], "min_in_heap": heap[0][0], "by_id": [i for _, i in smallest_three], "pushpop": heapq.heappushpop([5, 7], 6)}
