# description: Build a currency conversion matrix with gather over every ordered pair
# value: {"matrix": {"EUR": {"EUR": 1.0, "USD": 1.08, "GBP": 0.85, "CHF": 0.96}, "USD": {"USD": 1.0, "EUR": 0.925926, "GBP": 0.787037, "CHF": 0.888889}, "GBP": {"GBP": 1.0, "EUR": 1.176471, "USD": 1.270588, "CHF": 1.129412}, "CHF": {"CHF": 1.0, "EUR": 1.041667, "USD": 1.125, "GBP": 0.885417}}, "consistent": true}
import asyncio, itertools
codes = ["EUR", "USD", "GBP", "CHF"]
pairs = list(itertools.permutations(codes, 2))
rates = await asyncio.gather(*(tools.get_exchange_rate(base=b, quote=q) for b, q in pairs))
matrix = {b: {b: 1.0} for b in codes}
for (b, q), r in zip(pairs, rates):
    matrix[b][q] = r
consistent = all(abs(matrix[a][b] * matrix[b][a] - 1) < 1e-4 for a, b in pairs)
return {"matrix": matrix, "consistent": consistent}
