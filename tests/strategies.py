"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from hypothesis import strategies as st

from bridge.lossless import JsonValue

#: Lossless JSON values: what every boundary accepts.
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not (f == 0 and str(f)[0] == "-"))
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
)


def json_values(max_leaves: int = 30) -> st.SearchStrategy[JsonValue]:
    """Nested lossless JSON values."""
    return st.recursive(
        json_scalars,
        lambda children: st.lists(children, max_size=5)
        | st.dictionaries(st.text(st.characters(exclude_categories=["Cs"]), max_size=8), children, max_size=5),
        max_leaves=max_leaves,
    )
