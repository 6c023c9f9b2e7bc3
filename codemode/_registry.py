"""The tool registry: a global layer, nested agent scopes, restrictions and modes.

**What a scope sees** (:func:`~codemode._scope.resolve_view`): what it inherits
(the global layer and every ancestor's own tools), kept only where every
restriction on the chain admits the name, then its own tools, then ``run_code``
when its mode is not ``native``. A restriction is a security filter: a preset
that keeps only ``read`` still calls its own ``bash``, but the agents nested
under it see only ``read``.

**Modes.** ``native`` shows the model every visible tool; ``code`` shows only
``run_code`` (the other tools are callable from inside a program); ``both``
shows both. The registry's ``mode`` is the default; :meth:`Registry.present_as`
declares a mode for one scope, and the nearest declaration up the chain wins.

**Changes.** Every change of what some scope can see (a registration or its
disposal, a restriction or its lifting, a mode declaration, ``run_code`` coming
or going) notifies every :meth:`Registry.on_change` listener. A listener that
raises while a change is being made undoes the change and the error propagates.
"""

from __future__ import annotations

import contextlib
from types import MappingProxyType
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    TypeAlias,
    TypedDict,
    final,
    get_args,
    overload,
)

from bridge.lossless import materialize

from ._errors import RegistrationError
from ._formats import ProviderFormat, WireFormat, check_format, format_tool
from ._hooks import Hooks
from ._offload import fits_inline
from ._scope import (
    Agent,
    Restriction,
    ViewCache,
    checked_names,
    inheritable_names,
    resolve_view,
)
from ._tools import ToolDefinition

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Mapping

    from ._execution import Approver, CallInput, ScopeKey
    from ._results import ToolResult

__all__ = ["RUN_CODE", "Agent", "ExecutionMode", "Mode", "Registry", "ToolSchema"]

#: The reserved name of the Code Mode transport tool.
RUN_CODE: Final = "run_code"

Mode: TypeAlias = Literal["native", "code", "both"]
ExecutionMode: TypeAlias = Literal["parallel", "exclusive"]
_MODES: Final[tuple[Mode, ...]] = get_args(Mode)


class ToolSchema(TypedDict):
    """The model-facing projection of a tool: these three fields and nothing else.

    ``parameters`` is a plain, detached copy of the JSON Schema (typed loosely,
    as JSON Schema documents usually are, so that callers can index into it).
    """

    name: str
    description: str
    parameters: dict[str, Any]


def _check_mode(mode: object, what: str) -> Mode:
    if mode not in _MODES:
        expected = ", ".join(map(repr, _MODES))
        raise ValueError(f"{what} must be one of {expected}, got {what}={mode!r}")
    return mode


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{n}"' for n in sorted(names))


@final
class Registry:
    """Tools, agent scopes, restrictions, presentation modes and the execution pipeline.

    Args:
        mode: the presentation every scope gets unless it (or an ancestor)
            declares its own with :meth:`present_as`.
        max_parallel_sub_calls: how many parallel-safe ``run_code`` sub-calls
            may overlap (at least 1).
        approver: the approval service a pre-execute ``Ask`` is routed
            through; without one, ``Ask`` is a denial.

    Raises:
        ValueError: ``mode`` is not ``"native"``, ``"code"`` or ``"both"``, or
            ``max_parallel_sub_calls`` is not a positive int.

    Example::

        registry = Registry(mode="code")
        registry.register(search)
        result = await registry.execute(CallInput("c1", "run_code", {...}, signal))
    """

    __slots__ = (
        "_layers",
        "_listeners",
        "_mode",
        "_modes",
        "_restrictions",
        "_run_code",
        "_version",
        "_views",
        "hooks",
        "max_parallel_sub_calls",
    )

    def __init__(
        self,
        *,
        mode: Mode = "native",
        max_parallel_sub_calls: int = 10,
        approver: Approver | None = None,
    ) -> None:
        self._mode: Mode = _check_mode(mode, "mode")
        if type(max_parallel_sub_calls) is not int or max_parallel_sub_calls < 1:
            raise ValueError(
                "max_parallel_sub_calls must be an int of at least 1, "
                f"got max_parallel_sub_calls={max_parallel_sub_calls!r}"
            )
        self.max_parallel_sub_calls: int = max_parallel_sub_calls
        #: Listener storage for the pipeline's hooks (see :mod:`codemode._hooks`).
        self.hooks: Hooks = Hooks(approver=approver)
        # ``None`` keys the global layer; dicts keep registration order.
        self._layers: dict[ScopeKey | None, dict[str, ToolDefinition]] = {None: {}}
        self._restrictions: dict[ScopeKey, list[Restriction]] = {}
        self._modes: dict[ScopeKey, Mode] = {}
        self._run_code: ToolDefinition | None = None
        self._listeners: list[list[Callable[[], object]]] = []
        # Bumped on every change; a cached view of an older version is stale.
        self._version = 0
        self._views: ViewCache[ToolDefinition] = ViewCache()

    def __repr__(self) -> str:
        return f"<Registry mode={self._mode!r} tools={len(self._layers[None])} global>"

    @property
    def mode(self) -> Mode:
        """The default mode: what every scope without a declaration up its chain uses."""
        return self._mode

    # --- changes ------------------------------------------------------------------------------

    def on_change(self, listener: Callable[[], object]) -> Callable[[], None]:
        """Call ``listener()`` after every change of what any scope can see.

        Listeners are not filtered by scope: a change in one scope concerns
        every agent that will next build a request. A listener that raises
        while a change is made undoes that change (see the module docs).

        Returns:
            A disposer that removes the listener; calling it again does nothing.
        """
        if not callable(listener):
            raise TypeError(f"an on_change listener must be callable, got listener={listener!r}")
        box: list[Callable[[], object]] = [listener]  # a fresh box: dispose removes this entry

        def dispose() -> None:
            for index, held in enumerate(self._listeners):
                if held is box:
                    del self._listeners[index]
                    return

        self._listeners.append(box)
        return dispose

    def _notify(self, undo: Callable[[], object] | None) -> None:
        # Every change ends here (and an undo happens here), so this is where
        # cached views go stale.
        self._version += 1
        for (listener,) in tuple(self._listeners):
            try:
                listener()
            except BaseException:
                if undo is not None:
                    undo()
                    self._version += 1
                raise

    def _commit(self, remove: Callable[[], bool]) -> Callable[[], None]:
        """Announce a change just made; return its disposer (``remove`` undoes it)."""
        self._notify(undo=remove)

        def dispose() -> None:
            if remove():
                self._notify(undo=None)

        return dispose

    # --- registration -------------------------------------------------------------------------

    def register(
        self, definition: ToolDefinition, *, agent: Agent | None = None
    ) -> Callable[[], None]:
        """Register a tool globally, or in ``agent``'s own layer.

        A scoped registration is visible to that agent and the agents nested
        under it, and shadows an inherited tool of the same name.

        Returns:
            The disposer for exactly this registration: it removes this
            definition (not a later one of the same name); calling it again
            does nothing.

        Raises:
            TypeError: ``definition`` is not a :class:`ToolDefinition`.
            RegistrationError: the name is ``run_code`` (reserved, in every
                mode), or the layer already holds a tool of that name.
        """
        if not isinstance(definition, ToolDefinition):
            raise TypeError(
                "register() takes a ToolDefinition (from @tool or define_tool), "
                f"got {definition!r}"
            )
        if agent is not None and not isinstance(agent, Agent):
            raise TypeError(f"agent must be an Agent or None, got agent={agent!r}")
        name = definition.name
        if name == RUN_CODE:
            raise RegistrationError(
                f'the tool name "{RUN_CODE}" is reserved for the Code Mode transport and '
                "cannot be registered or shadowed, in any mode; choose another name"
            )
        layer = self._layers.setdefault(agent, {})
        if name in layer:
            if agent is None:
                raise RegistrationError(
                    f'a tool named "{name}" is already registered globally; dispose the '
                    "first registration, or register the other one in an agent scope "
                    "(register(..., agent=...)) to shadow it there"
                )
            raise RegistrationError(
                f'a tool named "{name}" is already registered in this scope ({agent!r}); '
                "dispose the first registration before registering another"
            )
        layer[name] = definition

        def remove() -> bool:
            held = self._layers.get(agent)
            if held is None or held.get(name) is not definition:
                return False
            del held[name]
            if agent is not None and not held:
                del self._layers[agent]
            return True

        return self._commit(remove)

    def install_run_code(self, definition: ToolDefinition) -> Callable[[], None]:
        """Provide the reserved ``run_code`` tool (Code Mode does this).

        It is visible exactly where the scope's mode is not native, and no
        restriction removes it.

        Returns:
            A disposer that uninstalls it; calling it again does nothing.

        Raises:
            RegistrationError: ``definition`` is not named ``run_code``, or one
                is already installed.
        """
        if not isinstance(definition, ToolDefinition):
            raise TypeError(f"install_run_code() takes a ToolDefinition, got {definition!r}")
        if definition.name != RUN_CODE:
            raise RegistrationError(
                f'install_run_code() takes the "{RUN_CODE}" tool, got name={definition.name!r}'
            )
        if self._run_code is not None:
            raise RegistrationError(
                f'a "{RUN_CODE}" tool is already installed; dispose it before installing another'
            )
        self._run_code = definition

        def remove() -> bool:
            if self._run_code is not definition:
                return False
            self._run_code = None
            return True

        return self._commit(remove)

    def restrict(
        self,
        agent: Agent | None,
        *,
        allow: Iterable[str] | None = None,
        deny: Iterable[str] | None = None,
    ) -> Callable[[], None]:
        """Mask tools ``agent`` inherits: keep only ``allow``, and/or remove ``deny``.

        Restrictions intersect and never touch the scope's own registrations
        for the scope itself. They reach every agent nested under ``agent``,
        where they mask every inherited name they do not admit, ``agent``'s own
        tools included: an ``allow`` list on a preset hides the preset's own
        tools from its members. The names are copied now, so later changes to
        the caller's lists have no effect. An ``allow`` list also hides
        inherited tools registered later; a ``deny`` list does not.

        Returns:
            The disposer that lifts exactly this restriction.

        Raises:
            RegistrationError: ``agent`` is ``None`` (a restriction needs a
                scope), the filter names no tool, it names ``run_code``, or a
                name is not one the scope inherits (its own tools included).
        """
        if agent is None:
            raise RegistrationError(
                "restrict() needs an agent scope; the global layer is changed by "
                "disposing registrations, not by restricting them"
            )
        if not isinstance(agent, Agent):
            raise TypeError(f"agent must be an Agent, got agent={agent!r}")
        allowed = checked_names("allow", allow)
        denied = checked_names("deny", deny) or frozenset()
        named = (allowed or frozenset()) | denied
        if not named:
            raise RegistrationError(
                f"restrict() for {agent!r} names no tool, so it would be a no-op; "
                "pass allow=[...] and/or deny=[...] with the inherited tools to mask"
            )
        if RUN_CODE in named:
            raise RegistrationError(
                f'"{RUN_CODE}" cannot be restricted: it is the Code Mode transport and its '
                "visibility follows the scope's mode (see present_as)"
            )
        inheritable = inheritable_names(self._layers, agent)
        unknown = named - inheritable
        if unknown:
            noun = "tool" if len(unknown) == 1 else "tools"
            own = unknown & self._layers.get(agent, {}).keys()
            hint = (
                f" ({_quoted(own)} {'is' if len(own) == 1 else 'are'} registered in this scope "
                "itself; a restriction names only the tools a scope inherits)"
                if own
                else ""
            )
            raise RegistrationError(
                f"restrict() for {agent!r} names unknown inherited {noun} {_quoted(unknown)}"
                f"{hint}. Restrictable tools: {', '.join(sorted(inheritable)) or '(none)'}"
            )
        restriction = Restriction(allowed, denied)
        self._restrictions.setdefault(agent, []).append(restriction)

        def remove() -> bool:
            held = self._restrictions.get(agent, [])
            for index, item in enumerate(held):
                if item is restriction:
                    del held[index]
                    if not held:
                        del self._restrictions[agent]
                    return True
            return False

        return self._commit(remove)

    def present_as(self, agent: Agent | None, mode: Mode) -> Callable[[], None]:
        """Declare how ``agent`` (and the agents nested under it) present their tools.

        The nearest declaration up the scope chain wins over the registry's
        default ``mode``.

        Returns:
            The disposer that removes this declaration, restoring the default
            (or an ancestor's declaration).

        Raises:
            RegistrationError: ``agent`` is ``None`` (the default is the
                registry's ``mode``), or the scope already declared a mode.
            ValueError: ``mode`` is not a mode.
        """
        checked = _check_mode(mode, "mode")
        if agent is None:
            raise RegistrationError(
                "present_as() needs an agent scope; the process-wide default is "
                "Registry(mode=...)"
            )
        if not isinstance(agent, Agent):
            raise TypeError(f"agent must be an Agent, got agent={agent!r}")
        if agent in self._modes:
            raise RegistrationError(
                f"{agent!r} already presents its tools as {self._modes[agent]!r}; "
                "one declaration per scope: dispose it before declaring another"
            )
        self._modes[agent] = checked
        active = [True]  # one declaration per scope, so while active the entry is ours

        def remove() -> bool:
            if not active[0]:
                return False
            active[0] = False
            del self._modes[agent]
            return True

        return self._commit(remove)

    # --- views --------------------------------------------------------------------------------

    def mode_of(self, agent: ScopeKey | None = None) -> Mode:
        """The effective mode of ``agent``: the nearest declaration, else the default."""
        node = agent
        while node is not None:
            declared = self._modes.get(node)
            if declared is not None:
                return declared
            node = node.parent
        return self._mode

    def _tools_of(self, agent: ScopeKey | None) -> dict[str, ToolDefinition]:
        """What ``agent`` sees, without ``run_code`` (see :func:`resolve_view`)."""
        return resolve_view(self._layers, self._restrictions, agent)

    def _visible(self, agent: ScopeKey | None) -> Mapping[str, ToolDefinition]:
        """The tools ``agent`` can call, by name, including ``run_code`` where it applies.

        Views are cached per scope until the next change: the pipeline asks for
        one on every call, and a nested, restricted scope costs tens of
        microseconds to rebuild.
        """
        cache = self._views
        try:
            cached = cache.get(agent)
        except TypeError:  # a scope key that cannot be weakly referenced: no caching
            cached = None
        if cached is not None and cached[0] == self._version:
            return cached[1]
        tools = self._tools_of(agent)
        if self._run_code is not None and self.mode_of(agent) != "native":
            tools[RUN_CODE] = self._run_code
        view = MappingProxyType(tools)
        with contextlib.suppress(TypeError):
            cache[agent] = (self._version, view)
        return view

    def get(self, name: str, agent: ScopeKey | None = None) -> ToolDefinition | None:
        """The definition ``agent`` resolves ``name`` to, or ``None`` if it sees none."""
        return self._visible(agent).get(name)

    def schemas(self, agent: ScopeKey | None = None) -> list[ToolSchema]:
        """The model-facing schema of every tool ``agent`` sees.

        Each entry holds ``name``, ``description`` and a deep copy of
        ``parameters``, and nothing else: host-only fields never leave. The
        list includes ``run_code`` where the scope's mode is not native.
        """
        return [_project(d) for d in self._visible(agent).values()]

    @overload
    def wire_schemas(
        self, agent: ScopeKey | None = None, *, format: Literal["neutral"] = "neutral"
    ) -> list[ToolSchema]: ...

    @overload
    def wire_schemas(
        self, agent: ScopeKey | None = None, *, format: ProviderFormat
    ) -> list[dict[str, Any]]: ...

    def wire_schemas(
        self, agent: ScopeKey | None = None, *, format: WireFormat = "neutral"
    ) -> list[ToolSchema] | list[dict[str, Any]]:
        """The tool list sent to the model for ``agent``, by its mode, in a provider's format.

        ``native``: every visible tool, without ``run_code``; ``code``: exactly
        ``[run_code]``; ``both``: every visible tool, then ``run_code`` last.

        Args:
            format: ``"neutral"`` (:class:`ToolSchema`), ``"openai"``,
                ``"openai-responses"``, ``"anthropic"``, ``"mcp"`` or ``"gemini"``: each
                provider's documented shape (:mod:`codemode._formats`).

        Raises:
            RegistrationError: the scope's mode is ``code`` or ``both`` and no
                ``run_code`` is installed (Code Mode is not running), so the
                list the model would get cannot do what its mode promises
                (:meth:`schemas` and :meth:`get` stay lenient).
            ValueError: ``format`` is not a format, or a tool's name is one the
                provider refuses (the message names it).
        """
        check_format(format)
        mode = self.mode_of(agent)
        if mode == "native":
            definitions = list(self._tools_of(agent).values())
        elif self._run_code is None:
            scope = "the global scope" if agent is None else repr(agent)
            raise RegistrationError(
                f"wire_schemas() for {scope}: its mode is {mode!r}, which needs the "
                f'"{RUN_CODE}" tool, and none is installed; start Code Mode first '
                "(`async with CodeMode(registry) as code_mode:`) and build the model's tool "
                'list inside it, or present this scope as "native"'
            )
        elif mode == "code":
            definitions = [self._run_code]
        else:
            definitions = [*self._tools_of(agent).values(), self._run_code]
        if format == "neutral":
            return [_project(d) for d in definitions]
        return [
            format_tool(d.name, d.description, d.parameters, d.output.schema, format)
            for d in definitions
        ]

    # --- scheduling ---------------------------------------------------------------------------

    @overload
    def execution_mode(self, call: CallInput, /) -> ExecutionMode: ...

    @overload
    def execution_mode(
        self,
        name: str,
        arguments: object,
        agent: ScopeKey | None = None,
        *,
        parent: object | None = None,
    ) -> ExecutionMode: ...

    def execution_mode(
        self,
        name: Any,
        arguments: object = None,
        agent: ScopeKey | None = None,
        *,
        parent: object | None = None,
    ) -> ExecutionMode:
        """Whether a pending call may overlap with its siblings: fail-closed.

        Takes a :class:`~codemode.CallInput`, or its name, arguments, agent and
        parent. Only a tool whose ``is_concurrency_safe`` returns exactly
        ``True`` for these arguments is ``"parallel"``. Unknown and hidden
        tools, tools without a classifier, a classifier that raises or returns
        anything but ``True``, arguments that are not lossless JSON, and a
        model-direct call that ``code`` mode refuses are all ``"exclusive"``.

        So are arguments of more than :data:`~codemode._offload.INLINE_NODES`
        items, without calling the classifier: the scheduler asks on the event
        loop, synchronously, and checking, copying or validating arguments that
        large (a program chooses their size) would hold the loop for every
        other run. Running such a call alone is always correct.
        """
        if not isinstance(name, str):
            call = name
            name, arguments, agent, parent = call.name, call.arguments, call.agent, call.parent
        if parent is None and name != RUN_CODE and self.mode_of(agent) == "code":
            return "exclusive"  # refused before any policy: it runs alone
        definition = self._visible(agent).get(name)
        classifier = None if definition is None else definition.is_concurrency_safe
        if classifier is None or not fits_inline(arguments):
            return "exclusive"
        try:
            verdict = classifier(materialize(arguments, freeze=True))
        except BaseException:  # a lossy argument (LossyJsonError) or a throwing classifier
            return "exclusive"
        return "parallel" if verdict is True else "exclusive"

    # --- hooks and execution ------------------------------------------------------------------
    # Each method below adds one listener (for every call, or for ``agent``'s calls
    # and those of agents nested under it) and returns the disposer that removes
    # exactly that listener. ``first=True`` puts it before every listener added so
    # far: the outermost layer of a waterfall. See :mod:`codemode._hooks`.

    def pre_execute(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add a ``pre_execute`` waterfall listener (allow / deny / ask); returns its disposer."""
        return self.hooks.add("pre_execute", fn, agent, first=first)

    def guard(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add a monotonic guard (a returned string denies); returns its disposer."""
        return self.hooks.add("guard", fn, agent, first=first)

    def around(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add an around-dispatch wrapper (timeout, retry, metrics); returns its disposer."""
        return self.hooks.add("around", fn, agent, first=first)

    def post_execute(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add a ``post_execute`` waterfall listener (accept / block); returns its disposer."""
        return self.hooks.add("post_execute", fn, agent, first=first)

    def on_result(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add an observer of each final, frozen outcome; returns its disposer."""
        return self.hooks.add("result", fn, agent, first=first)

    def on_code_dispatch_log(
        self, fn: Callable[..., Any], agent: ScopeKey | None = None, *, first: bool = False
    ) -> Callable[[], None]:
        """Add a ``code_dispatch_log`` waterfall listener; returns its disposer."""
        return self.hooks.add("code_dispatch_log", fn, agent, first=first)

    async def execute(self, call: CallInput) -> ToolResult:
        """Run one call through the pipeline and return its final, frozen result.

        See :func:`codemode._pipeline.execute`: every failure comes back as an
        ``is_error`` result; nothing but a caller bug raises.
        """
        execute = _pipeline_execute
        if execute is None:
            execute = _load_pipeline()
        return await execute(self, call)


#: The pipeline's ``execute``, imported at the first call (the pipeline imports
#: the registry's types); held here so that a call pays no import statement.
_pipeline_execute: Callable[[Registry, CallInput], Awaitable[ToolResult]] | None = None


def _load_pipeline() -> Callable[[Registry, CallInput], Awaitable[ToolResult]]:
    global _pipeline_execute
    from ._pipeline import execute

    _pipeline_execute = execute
    return execute


def _project(definition: ToolDefinition) -> ToolSchema:
    # An explicit allow-list of fields: nothing host-only can reach a model.
    parameters = materialize(definition.parameters, accept_tuples=True)
    assert isinstance(parameters, dict)
    return {
        "name": definition.name,
        "description": definition.description,
        "parameters": parameters,
    }
