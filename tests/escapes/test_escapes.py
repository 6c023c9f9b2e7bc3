"""The ablation: the escape corpus with both layers, with the language layer alone, the OS alone.

Each case's success signal is its *harm* (the secret read, a file written, a
connection made, a process killed, the host or a later run harmed), checked from
outside the child; no case may do harm in any of the three modes. Exhaustion
cases must end with the expected kind within their limit plus a margin, and the
pool must be healthy afterwards: a fresh child for every run, statistics back to
idle, no process left behind, no descriptor or run directory leaked.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import pytest

from .corpus_format import MODES, Case, Mode, load_cases
from .runner import POOL_SIZE, AblationRuns

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

pytestmark = pytest.mark.slow

CASES = load_cases()


def _escapes(modes: tuple[Mode, ...], reason: str, *case_ids: str) -> dict[tuple[Mode, str], str]:
    """The entries for ``case_ids`` in ``modes``, all with one ``reason``."""
    return {(mode, case_id): reason for mode in modes for case_id in case_ids}


_LANGUAGE: tuple[Mode, ...] = ("language",)
#: Disclosures: the OS layer does not judge them, so they fail with both layers too.
_LANGUAGE_AND_BOTH: tuple[Mode, ...] = ("language", "both")

_REAL_TYPE_BASE = (
    "typing.Type (bare, subscripted, or copied with copy_with, alone or among other bases) as "
    "a base makes a program class a subclass of the real type; calling it with three arguments "
    "builds classes from a dict with any dunder (__instancecheck__ with __match_args__, "
    "__setattr__/__getattr__, a property under a private name)"
)
_ALIAS_RELAYS_OBJ = (
    "typing and types.GenericAlias aliases relay attribute reads to their origin: over an "
    "AttributeError, .obj passes the guard's AttributeError check; typing.Type.x's error holds "
    "the real type"
)
_ALIAS_RELAYS_FORMAT = (
    "types.GenericAlias and typing aliases (typing.Annotated[str, ...], a subscripted str "
    "subclass of Generic) relay .format/.format_map to the real str methods: the guard decides "
    "these names by the type of the alias, and the real methods walk fields unguarded"
)
_RENAMED_FIELD_READ = (
    "dataclasses.replace reads getattr(obj, field.name); a field object of a program subclass "
    "of dataclasses.Field can be renamed after decoration (here to asyncio.Event's _loop)"
)
_RENAMED_BASE_FIELD = (
    "dataclass copies the field objects of base classes: one of a program subclass of "
    "dataclasses.Field, renamed after the base was decorated, becomes __match_args__ and is "
    "pasted into the source of __init__/__eq__/__repr__/__hash__, exec'd with the real "
    "builtins; the façade checks only the decorated class's own annotations"
)
_ATTRNAME_READ = (
    "functools.cached_property reads instance.__dict__[attrname] natively; attrname is a plain "
    "attribute of a program subclass of cached_property, or comes from __set_name__ with a "
    "namespace key the enum functional API took from the program (a str subclass); pointed at "
    "_loop of an asyncio.Event or Condition subclass it reads the real event loop"
)
_REAL_ENUM_MRO = (
    "mro() of enum.Enum, of a program enum class or of re.RegexFlag hands out the real "
    "enum.Enum that the façade's checked subclass replaces; its functional API takes any name "
    "(a property or __match_args__ for asyncio.Event's _loop, __setattr__/__getattr__ hooks)"
)
_ENUM_CHECK_THEN_USE = (
    "the enum façade checks member names on the program's own objects (a str subclass whose "
    "startswith lies, a tuple or list subclass whose __getitem__ lies, a str whose replace/split "
    "answer differently the second time) and the real enum reads them again differently"
)
_HAND_STEPPED = (
    "façade coroutines and awaitables (asyncio.sleep, gather, anext over Queue.get, an async "
    "generator's asend, ProgramTask.__await__, the tool-call awaitable) stepped with .send(None) "
    "hand out the real Future or Task they await; its get_loop is then read by a reader of "
    "another open class (a renamed dataclass field, a metaclass from typing.Type)"
)

#: Escapes the corpus found that the sandbox does not stop yet, by (mode, case id), each
#: with the reason, and listed in SECURITY.md under "Known gaps". The expected failure is
#: strict: once a gap is closed its test fails until the entry is removed here. Closed so
#: far: a host blocked by compiling a huge program, and deep JSON from a hostile child
#: raising out of WorkerPool.run (host); attribute reads through match class patterns
#: (language layer); signals to sibling
#: processes through F_SETOWN, System V IPC and POSIX message queues outliving a run,
#: priority/affinity/limits of sibling processes (OS layer).
KNOWN_ESCAPES: dict[tuple[Mode, str], str] = {
    **_escapes(
        _LANGUAGE,
        _REAL_TYPE_BASE,
        "real-metaclasses/bare_type_alias_base_secret",
        "real-metaclasses/copied_type_alias_private_property",
        "real-metaclasses/type_alias_among_generic_bases",
        "real-metaclasses/type_alias_base_match_reader",
        "real-metaclasses/type_alias_base_setattr_hook",
    ),
    **_escapes(
        _LANGUAGE,
        _ALIAS_RELAYS_OBJ,
        "real-metaclasses/typing_alias_over_forwarded_type",
        "native-readers/generic_alias_relays_error_obj",
    ),
    **_escapes(
        _LANGUAGE_AND_BOTH,
        _ALIAS_RELAYS_FORMAT,
        "native-readers/annotated_alias_relays_str_format",
        "native-readers/generic_alias_relays_format",
        "native-readers/generic_subclass_alias_relays_format_map",
    ),
    **_escapes(_LANGUAGE, _RENAMED_FIELD_READ, "native-readers/dataclass_replace_renamed_field"),
    **_escapes(
        _LANGUAGE,
        _RENAMED_BASE_FIELD,
        "decorator-metadata/dataclass_base_field_renamed_eq_code",
        "decorator-metadata/dataclass_base_field_renamed_hash_code",
        "decorator-metadata/dataclass_base_field_renamed_init_code",
        "decorator-metadata/dataclass_base_field_renamed_match_args",
        "decorator-metadata/dataclass_base_field_renamed_repr_code",
    ),
    **_escapes(
        _LANGUAGE,
        _ATTRNAME_READ,
        "descriptors/cached_property_attrname_private_loop",
        "descriptors/condition_cached_property_loop",
        "descriptors/set_name_private_attrname",
    ),
    **_escapes(
        _LANGUAGE,
        _REAL_ENUM_MRO,
        "facade-bypass/enum_mro_real_functional_api",
        "facade-bypass/program_enum_mro_real_enum",
        "facade-bypass/regexflag_mro_real_enum",
    ),
    **_escapes(
        _LANGUAGE,
        _ENUM_CHECK_THEN_USE,
        "check-then-use/enum_list_pair_iter_differs",
        "check-then-use/enum_mapping_key_lies",
        "check-then-use/enum_name_startswith_lies",
        "check-then-use/enum_names_change_between_passes",
        "check-then-use/enum_pair_getitem_lies",
    ),
    **_escapes(
        _LANGUAGE,
        _HAND_STEPPED,
        "hand-stepped-coroutines/anext_queue_get_real_future",
        "hand-stepped-coroutines/async_generator_asend_real_future",
        "hand-stepped-coroutines/gather_send_gathering_future",
        "hand-stepped-coroutines/sleep_send_real_future",
        "hand-stepped-coroutines/task_await_send_real_task",
        "hand-stepped-coroutines/tool_call_await_real_future",
    ),
}


def _case_param(mode: Mode, case: Case) -> ParameterSet:
    reason = KNOWN_ESCAPES.get((mode, case.id))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason is not None else []
    return pytest.param(mode, case, marks=marks, id=f"{mode}-{case.id}")


PARAMS = [_case_param(mode, case) for mode in MODES for case in CASES if mode in case.applies]


def test_every_known_escape_names_a_case_of_the_corpus() -> None:
    ids = {case.id for case in CASES}
    assert {case_id for _, case_id in KNOWN_ESCAPES} <= ids


@pytest.mark.parametrize(("mode", "case"), PARAMS)
def test_case_does_no_harm(mode: Mode, case: Case, ablation: AblationRuns) -> None:
    outcome = ablation.get(mode).outcomes[case.id]
    assert outcome.harms == [], f"{case.id} ({case.source}) in mode {mode!r}"


@pytest.mark.parametrize("mode", MODES)
def test_every_run_gets_a_fresh_child(mode: Mode, ablation: AblationRuns) -> None:
    pids = ablation.get(mode).pids
    assert len(pids) == len(set(pids))


@pytest.mark.parametrize("mode", MODES)
def test_pool_statistics_return_to_idle_after_the_corpus(
    mode: Mode, ablation: AblationRuns
) -> None:
    statistics = ablation.get(mode).statistics
    assert (statistics.idle, statistics.busy, statistics.starting, statistics.exiting) == (
        POOL_SIZE, 0, 0, 0
    )


@pytest.mark.parametrize("mode", MODES)
def test_zygote_survives_the_corpus(mode: Mode, ablation: AblationRuns) -> None:
    assert ablation.get(mode).statistics.zygote_starts == 1


@pytest.mark.parametrize("mode", MODES)
def test_pool_counted_every_run(mode: Mode, ablation: AblationRuns) -> None:
    run = ablation.get(mode)
    assert run.statistics.runs >= len(run.outcomes)


@pytest.mark.parametrize("mode", MODES)
def test_no_child_process_outlives_its_run(mode: Mode, ablation: AblationRuns) -> None:
    assert ablation.get(mode).leftover_processes == {}


@pytest.mark.parametrize("mode", MODES)
def test_no_descriptor_leaks_across_the_corpus(mode: Mode, ablation: AblationRuns) -> None:
    run = ablation.get(mode)
    assert run.fds_after == run.fds_before


@pytest.mark.parametrize("mode", MODES)
def test_no_run_directory_leaks_across_the_corpus(mode: Mode, ablation: AblationRuns) -> None:
    run = ablation.get(mode)
    assert run.run_dirs_after <= run.run_dirs_before


@pytest.mark.parametrize("mode", MODES)
def test_pool_directory_is_removed_when_the_pool_closes(
    mode: Mode, ablation: AblationRuns
) -> None:
    assert ablation.get(mode).pool_dirs_left == set()


@pytest.mark.parametrize("mode", MODES)
def test_results_report_the_layers_of_the_mode(mode: Mode, ablation: AblationRuns) -> None:
    full_os = sys.platform == "linux" and os.geteuid() == 0
    for outcome in ablation.get(mode).outcomes.values():
        if outcome.result is None or outcome.result.pid is None:
            continue
        layers = outcome.result.layers
        assert layers.language_layer == (mode != "os")
        os_parts = (layers.rlimits, layers.uid_drop, layers.no_new_privs, layers.seccomp)
        if mode == "language":
            assert os_parts == (False, False, False, False)
            assert len(layers.reasons) >= 4
        elif full_os:
            assert os_parts == (True, True, True, True), layers.reasons
        else:
            assert all(os_parts) or layers.reasons
