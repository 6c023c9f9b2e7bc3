# description: Find the cheapest delivery route between cities, penalising bad weather at each stop
# value: {"London->Sydney": {"cost": 18430.0, "path": "London > Oslo > Tokyo > Sydney"}, "Oslo->Cairo": {"cost": 4607.0, "path": "Oslo > Paris > Cairo"}, "Paris->Tokyo": {"cost": 10544.0, "path": "Paris > Oslo > Tokyo"}}
# logs: [" London -> Sydney   18,430.0  via 2 stops", "   Oslo -> Cairo     4,607.0  via 1 stops", "  Paris -> Tokyo    10,544.0  via 1 stops"]
import asyncio
import heapq
from math import inf

ROADS: dict[str, dict[str, float]] = {
    "London": {"Paris": 460, "Oslo": 1150},
    "Paris": {"London": 460, "Cairo": 3200, "Oslo": 1340},
    "Oslo": {"London": 1150, "Paris": 1340, "Tokyo": 8400},
    "Cairo": {"Paris": 3200, "Tokyo": 9500, "Sydney": 14200},
    "Tokyo": {"Oslo": 8400, "Cairo": 9500, "Sydney": 7800},
    "Sydney": {"Tokyo": 7800, "Cairo": 14200},
}
PENALTY = {"sunny": 1.0, "cloudy": 1.05, "windy": 1.2, "rain": 1.3, "snow": 1.6}

weather = await asyncio.gather(*(tools.get_weather(city=c) for c in ROADS))
factor = {w["city"]: PENALTY[w["condition"]] for w in weather}

def cheapest(start: str, goal: str) -> tuple[float, list[str]]:
    dist: dict[str, float] = {start: 0.0}
    prev: dict[str, str] = {}
    heap: list[tuple[float, str]] = [(0.0, start)]
    done: set[str] = set()
    while heap:
        d, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        if node == goal:
            break
        for nxt, km in ROADS[node].items():
            cost = d + km * factor[nxt]
            if cost < dist.get(nxt, inf):
                dist[nxt] = cost
                prev[nxt] = node
                heapq.heappush(heap, (cost, nxt))
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return round(dist[goal], 1), path[::-1]

routes = {}
for a, b in [("London", "Sydney"), ("Oslo", "Cairo"), ("Paris", "Tokyo")]:
    cost, path = cheapest(a, b)
    routes[f"{a}->{b}"] = {"cost": cost, "path": " > ".join(path)}
    print(f"{a:>7} -> {b:<7} {cost:>9,.1f}  via {len(path) - 2} stops")
return routes
