"""Fast construction of the engine's frozen values (GameState, Trick, events, commands).

A frozen dataclass's `__init__` stores every field through `object.__setattr__`, about six times
slower than a plain attribute store: for GameState's thirty fields that was most of the cost of
`apply`. `fast_constructor(cls)` builds the same object on a settable twin of `cls` (one
generated function of plain stores, the same arguments and defaults, as dataclasses writes
`__init__`) and then gives it `cls` as its class. The twin is a subclass of `cls` that adds no
slot and takes back `object.__setattr__`: Python allows the class assignment because the layout
is the same, and checks it cheaply because the twin adds nothing to `cls` (two unrelated classes
of one layout have their slot names compared at every assignment). What comes out is an
ordinary frozen instance: equal to one made by `cls(...)`, and refusing assignment the same way.
`constructed_fast(cls)` makes `cls(...)` itself build that way (the class's `__new__`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from types import MemberDescriptorType
from typing import Any, TypeVar

try:  # (re-exported: the classes mypyc compiles take their attributes from here)
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # a running server's pure Python need not have mypy's extensions
    def mypyc_attr(*attrs: str, **values: object) -> Any:  # type: ignore[misc]
        """`mypy_extensions.mypyc_attr`: tells mypyc how to compile a class; does nothing."""
        return lambda cls: cls

T = TypeVar("T")


def python_class(cls: type[T]) -> type[T]:
    """Keeps `cls` a Python class when its module is compiled by mypyc (a class decorator mypyc
    does not know makes the class non-native): for values built the ways only Python classes
    allow (`object.__setattr__`, a new `__class__`)."""
    return cls


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor taking the arguments of `cls(...)` (a frozen dataclass with slots)."""
    return _constructor(cls, settable_twin(cls), called_on_class=False)


def constructed_fast(cls: type[T]) -> type[T]:
    """Class decorator (above `@dataclass(frozen=True, slots=True)`): `cls(...)` builds its
    value as `fast_constructor` does, through the class's own `__new__` (its `__init__` is
    object's, doing nothing). A frozen value made like this pickles and copies as its fields
    (`__reduce__`), and `dataclasses.replace` works as before. Also keeps the class a Python
    class under mypyc, as `python_class` does."""
    new = _constructor(cls, settable_twin(cls), called_on_class=True)
    cls.__new__ = staticmethod(new)  # type: ignore[assignment]
    cls.__init__ = object.__init__  # type: ignore[method-assign]
    cls.__reduce__ = _reduce_to_fields  # type: ignore[assignment,method-assign]
    return cls


def _reduce_to_fields(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)


def settable_twin(cls: type[Any]) -> type[Any]:
    """A subclass of the frozen dataclass `cls` adding no slot, without the frozen
    `__setattr__`, whose field stores go straight to `cls`'s slots (their descriptors are
    copied in, so a field's own class attribute may be replaced later)."""
    members = {f.name: vars(cls).get(f.name) for f in fields(cls)}
    if not all(type(member) is MemberDescriptorType for member in members.values()):
        raise TypeError(f"{cls.__name__} must be a dataclass with slots=True")
    # `twin()` makes an empty value (object's `__new__` and `__init__`: cheaper to call than
    # `object.__new__(twin)`, whatever `cls` sets); stores go to the slots (object's
    # `__setattr__` and `__delattr__` both, or Python keeps calling a `__setattr__` hook).
    namespace = {"__slots__": (), "__new__": object.__new__, "__init__": object.__init__,
                 "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
                 **members}
    return type(f"_{cls.__name__}Twin", (cls,), namespace)


def _constructor(cls: type[T], twin: type[Any], called_on_class: bool) -> Callable[..., T]:
    """One function, as dataclasses writes `__init__`: an empty twin, one plain store per
    field, then the class of the frozen value. Called on
    the class (as its `__new__`), it takes the class first, and builds a subclass's value
    through the dataclass's own `__init__`."""
    names: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls,
                             "_init": cls.__init__}
    params, arguments, body = [], [], ["    value = _twin()"]
    specs = fields(twin)  # the fields of `cls`, inherited
    for f in specs:
        if f.init:
            if f.default is not MISSING:
                names[f"_default_{f.name}"] = f.default
                params.append(f"{f.name}=_default_{f.name}")
            else:
                params.append(f.name)
            arguments.append(f.name)
            body.append(f"    value.{f.name} = {f.name}")
        elif f.default is not MISSING:
            names[f"_default_{f.name}"] = f.default
            body.append(f"    value.{f.name} = _default_{f.name}")
        else:
            raise TypeError(f"{cls.__name__}.{f.name}: a field outside __init__ needs a default")
    if any(f.default_factory is not MISSING for f in specs):
        raise TypeError(f"{cls.__name__}: fields with a default_factory are not supported")
    body += ["    value.__class__ = _cls", "    return value"]
    if called_on_class:
        params.insert(0, "cls")
        body[:0] = ["    if cls is not _cls:",
                    "        made = _new(cls)",
                    f"        _init(made, {', '.join(arguments)})",
                    "        return made"]
    source = f"def new_{cls.__name__}({', '.join(params)}):\n" + "\n".join(body)
    exec(source, names)  # noqa: S102 (our own field names, as dataclasses does)
    construct: Callable[..., T] = names[f"new_{cls.__name__}"]
    if called_on_class:  # its errors name it as they named `__init__`
        construct.__name__, construct.__qualname__ = "__new__", f"{cls.__qualname__}.__new__"
    return construct
