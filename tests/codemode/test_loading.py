"""``--tools`` values: whatever the text, loading gives a registry or one readable ToolSpecError."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode._loading import ToolSpecError, load_registry

if TYPE_CHECKING:
    from pathlib import Path

#: Module-like and path-like targets that cannot name anything real (so nothing is imported).
_targets = st.one_of(
    st.from_regex(r"zz_absent_[a-z]{1,6}(\.[a-z]{1,4}){0,2}", fullmatch=True),
    st.from_regex(r"(/tmp/zz-absent/|\./)?[a-z]{1,6}\.py", fullmatch=True),
    st.just(""),
)
_suffixes = st.one_of(
    st.just(""),
    st.text(alphabet=st.sampled_from("ab_:/\\.-9 \n\t"), max_size=6).map(lambda t: ":" + t),
)


@settings(max_examples=150, deadline=None)
@given(target=_targets, suffix=_suffixes)
def test_a_tools_value_that_names_nothing_is_one_readable_tool_spec_error(
    target: str, suffix: str
) -> None:
    spec = target + suffix
    with pytest.raises(ToolSpecError) as caught:
        load_registry(spec)
    message = str(caught.value)
    assert message.startswith("--tools '")
    assert "\n" not in message
    assert len(message) < 600


def test_a_module_raising_inside_its_own_import_is_not_called_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "zz_needs_missing.py").write_text("import zz_absent_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ToolSpecError, match=r"^--tools 'zz_needs_missing': importing it failed: "
                                            r"ModuleNotFoundError: No module named "
                                            r"'zz_absent_dependency'$"):
        load_registry("zz_needs_missing")
