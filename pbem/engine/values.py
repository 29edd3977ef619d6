"""Fast construction of the fold's frozen values (GameState, Trick), for its hot path.

A frozen dataclass's `__init__` stores every field through `object.__setattr__`, about six times
slower than a plain attribute store: for GameState's thirty fields that was most of the cost of
`apply`. `fast_constructor(cls)` builds the same object on an unfrozen twin class with the same
slots (plain stores, the same arguments and defaults) and then gives it `cls` as its class, which
Python allows because both classes have the same layout. What comes out is an ordinary frozen
instance: equal to one made by `cls(...)`, and refusing assignment the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, field, fields, make_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor taking the arguments of `cls(...)` (a frozen dataclass with slots)."""
    twin = _unfrozen_twin(cls)
    if sorted(twin.__slots__) != sorted(getattr(cls, "__slots__", ())):
        raise TypeError(f"{cls.__name__} must be a dataclass with slots=True")

    def construct(*args: Any, **kwargs: Any) -> T:
        value = twin(*args, **kwargs)
        value.__class__ = cls
        return value  # type: ignore[no-any-return]

    construct.__name__ = f"new_{cls.__name__}"
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
