"""Small immutable values for the modules a per-turn command imports.

``memory recall`` and ``memory search`` run as a fresh process on every agent turn. Defining a
:class:`typing.NamedTuple` costs about 0.3 ms (each annotation is compiled into a forward
reference and the class body is generated and executed), a dataclass more, and a command
imports two dozen such classes; a slotted class costs a hundredth of that. :class:`Value`
gives such a class what the others would: equality and a hash over its fields, a readable
``repr``, :meth:`Value.replace` and pickling. Fields are ``Final``: the type checker (``mypy
--strict`` runs with the tests) refuses an assignment after ``__init__``; nothing checks at run
time, which would cost every construction a Python-level ``__setattr__``.

A subclass lists its fields in ``__match_args__`` (their order: ``repr``, pickling and
positional patterns follow it) and makes them its ``__slots__``, declares them ``Final`` for the
type checker and sets them in ``__init__``, whose parameters are named like the fields::

    class Term(Value):
        __match_args__ = ("word", "stem")
        __slots__ = __match_args__
        word: Final[str]
        stem: Final[str]

        def __init__(self, word: str, stem: str) -> None:
            self.word, self.stem = word, stem
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Self

__all__ = ["Value"]


class Value:
    """Base of the slotted value classes (see the module docstring)."""

    __match_args__: tuple[str, ...] = ()
    __slots__ = ()

    def fields(self) -> tuple[object, ...]:
        """The field values, in order."""
        return tuple(getattr(self, name) for name in self.__match_args__)

    def replace(self, **changes: object) -> Self:
        """A copy with ``changes`` applied (``NamedTuple._replace``)."""
        unknown = set(changes) - set(self.__match_args__)
        if unknown:
            raise TypeError(f"{self.__class__.__name__} has no field {sorted(unknown)[0]!r}")
        values = {name: changes.get(name, getattr(self, name)) for name in self.__match_args__}
        return self.__class__(**values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value) or other.__class__ is not self.__class__:
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash((self.__class__, self.fields()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({shown})"

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        return (self.__class__, self.fields())
