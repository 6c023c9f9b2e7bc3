# description: Compute a city x day temperature matrix with a small Matrix class (__matmul__, __getitem__ tuples, __iter__, __eq__)
# value: {"shape": [3, 4], "weighted": {"London": 15.55, "Paris": 19.05, "Oslo": 7.55}, "first": 15.0, "row": [18.0, 19.5, 21.0, 18.0], "sum_eq": true, "transposed": "Matrix(4x3)", "len": 3}
class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    @property
    def shape(self):
        return (len(self.rows), len(self.rows[0]) if self.rows else 0)

    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            i, j = idx
            return self.rows[i][j]
        return self.rows[idx]

    def __setitem__(self, idx, value):
        i, j = idx
        self.rows[i][j] = value

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def __matmul__(self, other):
        cols = list(zip(*other.rows))
        return Matrix([[round(sum(a * b for a, b in zip(r, c)), 3) for c in cols] for r in self.rows])

    def __mul__(self, k):
        return Matrix([[v * k for v in r] for r in self.rows])

    __rmul__ = __mul__

    def __add__(self, other):
        return Matrix([[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(self.rows, other.rows)])

    def __eq__(self, other):
        return isinstance(other, Matrix) and self.rows == other.rows

    def __repr__(self):
        return f"Matrix({self.shape[0]}x{self.shape[1]})"

    def T(self):
        return Matrix(zip(*self.rows))


cities = ["London", "Paris", "Oslo"]
highs = Matrix([[d["high"] for d in await tools.forecast(city=c, days=4)] for c in cities])
weights = Matrix([[0.4], [0.3], [0.2], [0.1]])
weighted = highs @ weights
highs[0, 0] = highs[0, 0] + 0.5
doubled = 2 * highs
return {
    "shape": list(highs.shape),
    "weighted": {c: row[0] for c, row in zip(cities, weighted)},
    "first": highs[0, 0],
    "row": highs[1],
    "sum_eq": (highs + highs) == doubled,
    "transposed": repr(highs.T()),
    "len": len(highs),
}
