# value: [1, 2, 3]
import functools
@functools.total_ordering
class Version:
    def __init__(self, n):
        self.n = n
    def __eq__(self, other):
        return self.n == other.n
    def __lt__(self, other):
        return self.n < other.n
return [v.n for v in sorted([Version(3), Version(1), Version(2)])]
