# value: ["0.3", "1/3", [1, 2, 5], 2]
import bisect
import decimal
import fractions
import heapq
heap = [5, 1, 2]
heapq.heapify(heap)
return [str(decimal.Decimal("0.1") + decimal.Decimal("0.2")), str(fractions.Fraction(1, 3)), [heapq.heappop(heap) for _ in range(3)], bisect.bisect([1, 2, 3], 2)]
