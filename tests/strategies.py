"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import strategies as st

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

#: Lossless JSON values: what every boundary accepts.
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False).filter(
        lambda f: not (f == 0 and str(f)[0] == "-")
    )
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
)


def json_values(max_leaves: int = 30) -> st.SearchStrategy[JsonValue]:
    """Nested lossless JSON values."""
    return st.recursive(
        json_scalars,
        lambda children: st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=8), children, max_size=5
        ),
        max_leaves=max_leaves,
    )


# --- Values that may or may not be lossless JSON -------------------------------------------------


class Opaque:
    """An arbitrary object: never JSON."""

    def __repr__(self) -> str:
        return "Opaque()"


#: Scalars across every rejection class as well as the accepted ones.
wild_scalars: st.SearchStrategy[object] = (
    json_scalars
    | st.integers()
    | st.integers(min_value=2**53 - 4, max_value=2**64).map(lambda i: i if i % 3 else -i)
    | st.floats()
    | st.just(-0.0)
    | st.text(max_size=8)  # may hold lone surrogates
    | st.binary(max_size=4)
    | st.builds(Opaque)
)

wild_keys: st.SearchStrategy[object] = (
    st.text(max_size=6) | st.integers(-3, 3) | st.none() | st.booleans() | st.floats(0, 1)
)


def wild_values(max_leaves: int = 20) -> st.SearchStrategy[object]:
    """Nested values mixing JSON with every kind of non-JSON (tuples, sets, odd keys, …)."""
    return st.recursive(
        wild_scalars,
        lambda children: st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | st.frozensets(st.integers(-3, 3) | st.text(max_size=3), max_size=3)
        | st.sets(st.integers(-3, 3), max_size=3)
        | st.dictionaries(wild_keys, children, max_size=4),
        max_leaves=max_leaves,
    )
