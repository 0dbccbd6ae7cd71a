"""Frozen value classes for the engine, built without the :mod:`dataclasses` module.

Records, rule sets, problems and results are small immutable values: fields in order, some with
defaults, compared and hashed by value, shown as ``Name(field=value, …)``. ``@dataclass(frozen=
True)`` would build them, but ``manage.py score`` imports the engine on every run, and importing
:mod:`dataclasses` (it brings :mod:`inspect`, :mod:`ast`, :mod:`dis` and :mod:`tokenize`) and
generating half a dozen methods for each of the engine's classes took about 18 ms of a run, as
long as scoring some 600 games. :func:`frozen` builds the same kind of class with one generated
method, ``__init__``; equality, hashing, ``repr``, copying and pickling read the field list.

What it does, as a frozen dataclass would: a field is an annotated class attribute (``ClassVar``
ones are not fields), its value there is its default, ``field(default_factory=…)`` makes a fresh
default per object and ``field(hash=False)`` leaves it out of the hash; the generated
``__init__`` takes the fields in order, positionally or by name; assigning or deleting an
attribute raises :class:`FrozenInstanceError`; ``slots=True`` gives the class ``__slots__``
instead of a ``__dict__``. Type checkers read it as a dataclass (``dataclass_transform``).
Unlike a dataclass, a value class does not extend another one (none of the engine's needs to).
:func:`fields` and :func:`replace` stand in for their namesakes in :mod:`dataclasses`.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # not ``typing``'s: importing it costs every ``score`` run milliseconds

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, dataclass_transform
else:

    def dataclass_transform(**_options):
        """At run time only a marker for type checkers: nothing to do."""
        return lambda decorated: decorated


class FrozenInstanceError(AttributeError):
    """An attempt to change or delete a field of a frozen value."""


class _Field:
    """What ``field(...)`` says of one field."""

    __slots__ = ("default_factory", "hash")

    def __init__(self, default_factory: Callable[[], Any] | None, hash: bool) -> None:
        self.default_factory = default_factory
        self.hash = hash


def field(*, default_factory: Callable[[], Any] | None = None, hash: bool = True) -> Any:
    """A field's options: a fresh default from ``default_factory`` for every object (as a list
    or dict must be), or ``hash=False`` to leave the field out of the hash."""
    return _Field(default_factory, hash)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen[T](cls: type[T] | None = None, /, *, slots: bool = False) -> Any:
    """Make ``cls`` a frozen value class (``@frozen`` or ``@frozen(slots=True)``)."""
    if cls is None:
        return lambda cls: _build(cls, slots)
    return _build(cls, slots)


def fields(value: object) -> tuple[str, ...]:
    """The field names of a frozen value class or of one of its objects, in order."""
    names: tuple[str, ...] = value.__frozen_fields__  # type: ignore[attr-defined]
    return names


def replace[T](value: T, /, **changes: Any) -> T:
    """A copy of ``value`` with some fields changed (as :func:`dataclasses.replace`)."""
    values = {name: getattr(value, name) for name in fields(value)}
    unknown = changes.keys() - values.keys()
    if unknown:
        raise TypeError(f"{type(value).__qualname__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(value)(**values)


def _is_classvar(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _build[T](cls: type[T], slots: bool) -> type[T]:
    if any(hasattr(base, "__frozen_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a frozen value class cannot extend another")
    own = cls.__dict__
    annotations: dict[str, object] = cls.__annotations__  # the class's own (Python >= 3.10)
    names = tuple(name for name, note in annotations.items() if not _is_classvar(note))
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    unhashed: set[str] = set()
    for name in names:
        if name not in own:
            if defaults or factories:
                raise TypeError(
                    f"{cls.__qualname__}.{name}: a field without a default follows one with it"
                )
            continue
        spec = own[name]
        if isinstance(spec, _Field):
            if spec.default_factory is not None:
                factories[name] = spec.default_factory
            else:
                raise TypeError(f"{cls.__qualname__}.{name}: field() needs a default_factory")
            if not spec.hash:
                unhashed.add(name)
        else:
            defaults[name] = spec

    if slots:
        # A slot cannot have a class attribute of its name (the default): build the class again.
        skip = {*defaults, *factories, "__dict__", "__weakref__"}
        namespace = {key: value for key, value in own.items() if key not in skip}
        namespace["__slots__"] = names
        built: type[T] = type(cls.__name__, cls.__bases__, namespace)
        built.__qualname__ = cls.__qualname__
    else:
        built = cls  # defaults stay as class attributes, as dataclasses leaves them
        for name in factories:
            delattr(built, name)

    values = _getter(names)
    hashed = [name for name in names if name not in unhashed]
    hash_values = values if len(hashed) == len(names) else _getter(hashed)

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            result: bool = values(self) == values(other)
            return result
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hash_values(self))

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self: Any, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self: Any) -> tuple[type[Any], tuple[Any, ...]]:
        return type(self), values(self)

    for method in (__eq__, __hash__, __repr__, __setattr__, __delattr__, __reduce__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    made = {
        "__init__": _init(built, names, defaults, factories, slots),
        "__eq__": __eq__,
        "__hash__": __hash__,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__reduce__": __reduce__,
        "__replace__": replace,  # copy.replace (Python 3.13)
        "__match_args__": names,
        "__frozen_fields__": names,
    }
    for name, value in made.items():
        setattr(built, name, value)
    return built


def _getter(names: tuple[str, ...] | list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of these fields of an object, as a tuple (``attrgetter`` answers a single
    name's value alone)."""
    if not names:
        return lambda _value: ()
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda value: (get(value),)
    return get


def _init(
    cls: type[Any],
    names: tuple[str, ...],
    defaults: dict[str, Any],
    factories: dict[str, Callable[[], Any]],
    slots: bool,
) -> Callable[..., None]:
    """The ``__init__`` of a frozen value class, written out and compiled once per class: a
    real signature (so a wrong call says which argument is wrong), and each field set in one
    step (a slot's own setter, or the whole ``__dict__`` at once)."""
    scope: dict[str, Any] = {"_MISSING": _MISSING, "_set": object.__setattr__}
    parameters = []
    for name in names:
        if name in defaults:
            scope[f"_default_{name}"] = defaults[name]
            parameters.append(f"{name}=_default_{name}")
        elif name in factories:
            scope[f"_factory_{name}"] = factories[name]
            parameters.append(f"{name}=_MISSING")
        else:
            parameters.append(name)
    lines = [f"{name} = _factory_{name}() if {name} is _MISSING else {name}" for name in factories]
    if slots:
        for name in names:
            scope[f"_set_{name}"] = cls.__dict__[name].__set__
        lines += [f"_set_{name}(self, {name})" for name in names]
    else:
        lines.append("_set(self, '__dict__', {" + ", ".join(f"{n!r}: {n}" for n in names) + "})")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "".join(
        f"    {line}\n" for line in lines or ["pass"]
    )
    exec(source, scope)  # our own source, written above from the field names
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_MISSING = object()
