"""The slotted value classes compare, hash, copy and pickle like the named tuples they replace."""

from __future__ import annotations

import pickle
from typing import Final

import pytest

from dreamd.recall.query import Term
from dreamd.value import Value


class Pair(Value):
    __match_args__ = ("left", "right")
    __slots__ = __match_args__
    left: Final[str]
    right: Final[tuple[int, ...]]

    def __init__(self, left: str, right: tuple[int, ...] = ()) -> None:
        self.left = left
        self.right = right


class Other(Pair):
    """The same fields, another class."""

    __slots__ = ()


def test_equal_values_are_equal_and_hash_alike() -> None:
    """Values with equal fields are equal and hash alike; a set keeps one of them."""
    assert Pair("a", (1,)) == Pair("a", (1,))
    assert Pair("a", (1,)) != Pair("a", (2,))
    assert hash(Pair("a", (1,))) == hash(Pair("a", (1,)))
    assert len({Pair("a"), Pair("a"), Pair("b")}) == 2


def test_another_class_with_the_same_fields_is_not_equal() -> None:
    """Another class with the same fields, or a tuple of them, is not equal."""
    assert Pair("a") != Other("a")
    assert Pair("a") != ("a", ())  # not a tuple any more


def test_replace_copies_with_changes_and_refuses_unknown_fields() -> None:
    """replace() copies with the changes, leaves the original, and names an unknown field."""
    first = Pair("a", (1,))
    assert first.replace(right=(2,)) == Pair("a", (2,))
    assert first == Pair("a", (1,))
    with pytest.raises(TypeError, match="no field 'middle'"):
        first.replace(middle=1)


def test_repr_pickle_and_positional_patterns_follow_the_field_order() -> None:
    """repr, pickling and positional patterns follow __match_args__."""
    value = Pair("a", (1, 2))
    assert repr(value) == "Pair(left='a', right=(1, 2))"
    assert pickle.loads(pickle.dumps(value)) == value
    match value:
        case Pair(left, (1, second)):
            assert (left, second) == ("a", 2)
        case _:  # pragma: no cover
            pytest.fail("no match")


def test_a_value_has_no_instance_dict() -> None:
    """A value is slotted: no instance dict, no stray attribute."""
    term = Term("Running", "run")
    assert not hasattr(term, "__dict__")
    with pytest.raises(AttributeError):
        term.other = 1  # type: ignore[attr-defined]
