"""Fast construction of the fold's frozen values (GameState, Trick), for its hot path.

A frozen dataclass's `__init__` stores every field through `object.__setattr__`, about six times
slower than a plain attribute store: for GameState's thirty fields that was most of the cost of
`apply`. `fast_constructor(cls)` builds the same object on an unfrozen twin class with the same
slots (one generated function of plain stores, the same arguments and defaults, as dataclasses
writes `__init__`) and then gives it `cls` as its class, which
Python allows because both classes have the same layout. What comes out is an ordinary frozen
instance: equal to one made by `cls(...)`, and refusing assignment the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, field, fields, make_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def python_class(cls: type[T]) -> type[T]:
    """Keeps `cls` a Python class when its module is compiled by mypyc (a class decorator mypyc
    does not know makes the class non-native): for values built the ways only Python classes
    allow (`object.__setattr__`, a new `__class__`, slots filled on first read)."""
    return cls


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor taking the arguments of `cls(...)` (a frozen dataclass with slots)."""
    twin = _unfrozen_twin(cls)
    if sorted(twin.__slots__) != sorted(getattr(cls, "__slots__", ())):
        raise TypeError(f"{cls.__name__} must be a dataclass with slots=True")
    return _constructor(cls, twin)


def _constructor(cls: type[T], twin: type[Any]) -> Callable[..., T]:
    """One function, as dataclasses writes `__init__`: a new twin, one plain store per field,
    then the class of the frozen value (a call and a frame fewer than `twin(...)`)."""
    names: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls}
    params, body = [], ["    value = _new(_twin)"]
    specs = fields(twin)  # the same fields, defaults and init flags as `cls`
    for f in specs:
        if f.init:
            if f.default is not MISSING:
                names[f"_default_{f.name}"] = f.default
                params.append(f"{f.name}=_default_{f.name}")
            else:
                params.append(f.name)
            body.append(f"    value.{f.name} = {f.name}")
        elif f.default is not MISSING:
            names[f"_default_{f.name}"] = f.default
            body.append(f"    value.{f.name} = _default_{f.name}")
        else:
            raise TypeError(f"{cls.__name__}.{f.name}: a field outside __init__ needs a default")
    if any(f.default_factory is not MISSING for f in specs):
        raise TypeError(f"{cls.__name__}: fields with a default_factory are not supported")
    body += ["    value.__class__ = _cls", "    return value"]
    source = f"def new_{cls.__name__}({', '.join(params)}):\n" + "\n".join(body)
    exec(source, names)  # noqa: S102 (our own field names, as dataclasses does)
    construct: Callable[..., T] = names[f"new_{cls.__name__}"]
    return construct


def _unfrozen_twin(cls: type[Any]) -> type[Any]:
    specs = [(f.name, f.type, _same_field(f)) for f in fields(cls)]
    return make_dataclass(f"_{cls.__name__}Twin", specs, slots=True, eq=False, repr=False)


def _same_field(original: Field[Any]) -> Any:
    if original.default is not MISSING:
        return field(default=original.default, init=original.init)
    if original.default_factory is not MISSING:
        return field(default_factory=original.default_factory, init=original.init)
    return field(init=original.init)
