"""The engine's frozen value classes behave as frozen dataclasses do (scoring/engine/values.py)."""

import copy
import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from scoring.engine import PRESETS, GameRecord, Hand, Problem, Transfer
from scoring.engine.values import FrozenInstanceError, field, fields, frozen, replace


@frozen(slots=True)
class Slotted:
    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    KIND: ClassVar[str] = "slotted"


@frozen
class Plain:
    name: str
    notes: dict[str, int] = field(default_factory=dict, hash=False)
    count: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class SlottedDataclass:
    name: str
    count: int = 0
    tags: tuple[str, ...] = ()


@pytest.mark.parametrize("cls", [Slotted, SlottedDataclass])
def test_a_value_class_is_built_compared_and_shown_as_a_frozen_dataclass(cls):
    a = cls("An", 2, ("x",))
    assert (a.name, a.count, a.tags) == ("An", 2, ("x",))
    assert a == cls(name="An", count=2, tags=("x",)) and a != cls("An", 3, ("x",))
    assert hash(a) == hash(cls("An", 2, ("x",)))
    assert cls("Bình") == cls("Bình", 0, ())
    assert repr(a) == f"{cls.__qualname__}(name='An', count=2, tags=('x',))"
    with pytest.raises(AttributeError):
        a.count = 5
    with pytest.raises(AttributeError):
        del a.name
    with pytest.raises(TypeError):
        cls()  # the field without a default is missing
    with pytest.raises(TypeError):
        cls("An", 1, (), "extra")
    with pytest.raises(TypeError):
        cls("An", nope=1)
    assert not hasattr(a, "__dict__")
    assert cls.__match_args__ == ("name", "count", "tags")
    match a:
        case cls(name, count):
            assert (name, count) == ("An", 2)


def test_the_two_kinds_agree_field_for_field():
    ours, theirs = Slotted("Chi", 4, ("a", "b")), SlottedDataclass("Chi", 4, ("a", "b"))
    assert fields(ours) == tuple(f.name for f in dataclasses.fields(theirs))
    assert hash(ours) == hash(theirs)  # both hash the tuple of the fields
    assert ours != theirs  # values of different classes are never equal


def test_assigning_says_which_field():
    with pytest.raises(FrozenInstanceError, match="'count'"):
        Slotted("An").count = 1  # type: ignore[misc]
    assert issubclass(FrozenInstanceError, AttributeError)


def test_class_variables_are_not_fields():
    assert fields(Slotted) == ("name", "count", "tags")
    assert Slotted.KIND == "slotted" and Slotted("An").KIND == "slotted"


def test_a_default_factory_gives_each_object_its_own_value_and_may_stay_out_of_the_hash():
    a, b = Plain("An"), Plain("An")
    assert a.notes == {} and a.notes is not b.notes
    assert a.count == 1 and "notes" not in Plain.__dict__  # the factory is not a class attribute
    assert a == b and hash(a) == hash(b)
    c = Plain("An", {"x": 1})
    assert c != a and hash(c) == hash(a)  # compared, but not hashed (a dict cannot be)
    assert a.__dict__ == {"name": "An", "notes": {}, "count": 1}


def test_replace_changes_the_named_fields_only():
    a = Slotted("An", 2, ("x",))
    b = replace(a, count=3)
    assert b == Slotted("An", 3, ("x",)) and a.count == 2
    with pytest.raises(TypeError, match="no field 'cuont'"):
        replace(a, cuont=3)
    if sys.version_info >= (3, 13):
        assert copy.replace(a, name="Bình") == Slotted("Bình", 2, ("x",))


@pytest.mark.parametrize(
    "value",
    [
        Slotted("An", 2, ("x",)),
        Plain("Bình", {"a": 1}, 3),
        PRESETS["dem-la-26"],
        Hand(5, ("2H",), 1, 0, 0),
        Transfer("An", "Bình", 5000, "cards", "5 lá"),
        Problem("stake", "stake_not_positive", {"value": "0"}),
    ],
)
def test_values_copy_and_pickle(value):
    for other in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert other == value and type(other) is type(value)


def test_a_field_without_a_default_cannot_follow_one_with_it():
    with pytest.raises(TypeError, match="without a default follows"):

        @frozen
        class Bad:
            a: int = 0
            b: int


def test_a_value_class_does_not_extend_another():
    with pytest.raises(TypeError, match="cannot extend"):

        @frozen
        class More(Plain):
            extra: int = 0


def test_the_engine_types_keep_their_fields_and_types():
    assert fields(Hand) == ("cards", "heo", "dt3", "tq", "dt4", "dt5")
    assert fields(Transfer) == ("payer", "payee", "amount", "reason", "detail")
    assert fields(GameRecord) == (
        "players", "opening", "finish", "hands", "cong", "chat", "toi_trang", "den",
        "ket_3_bich", "chan_ket_3_bich", "two_out",
    )  # fmt: skip
    record = GameRecord(("An", "Bình"), finish=("An", "Bình"))
    assert record.hands == {} and record.hands is not GameRecord(("An",)).hands
    assert Hand() == Hand(0, (), 0, 0, 0, 0)
    assert hash(PRESETS["dem-la"]) == hash(replace(PRESETS["dem-la"]))


def test_scoring_imports_neither_dataclasses_nor_inspect():
    # Importing them, and generating the methods of every engine class, took about 20 ms of
    # each `manage.py score` run: the reason the engine has its own value classes.
    code = (
        "import sys, scoring.engine.cli; "
        "print(sorted({'dataclasses', 'inspect', 'typing', 'ast'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"
