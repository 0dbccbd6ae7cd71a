"""clears: whose balance each payment of a plan finishes, and the SuggestedPayment value itself."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.settle import SuggestedPayment, as_played, clears, min_payments

NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Hà", "Ánh"]


@st.composite
def balances(draw: st.DrawFn) -> dict[str, int]:
    size = draw(st.integers(1, len(NAMES)))
    names = draw(st.permutations(NAMES).map(lambda names: names[:size]))
    amounts = draw(st.lists(st.integers(-9, 9), min_size=size - 1, max_size=size - 1))
    return dict(zip(names, [*amounts, -sum(amounts)], strict=True))


def test_it_names_who_each_payment_finishes() -> None:
    balances = {"A": 2, "B": -3, "C": 3, "D": -5, "E": 3}
    plan = [
        SuggestedPayment("B", "C", 3),
        SuggestedPayment("D", "A", 2),
        SuggestedPayment("D", "E", 3),
    ]
    assert clears(balances, plan) == {
        plan[0]: ["B", "C"],
        plan[1]: ["A"],
        plan[2]: ["D", "E"],
    }


def test_it_follows_plan_order_not_payment_size() -> None:
    balances = {"An": -10, "Bình": 4, "Chi": 6}
    plan = [SuggestedPayment("An", "Chi", 6), SuggestedPayment("An", "Bình", 4)]
    assert list(clears(balances, plan).values()) == [["Chi"], ["An", "Bình"]]


def test_a_go_between_is_finished_when_they_pass_the_money_on() -> None:
    plan = as_played({("An", "Bình"): 5000, ("Bình", "Chi"): 5000})
    assert list(clears({"An": -5000, "Chi": 5000}, plan).values()) == [["An"], ["Bình", "Chi"]]


def test_it_refuses_a_plan_with_the_same_payment_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        clears({"An": -10, "Bình": 10}, [SuggestedPayment("An", "Bình", 5)] * 2)


def test_it_refuses_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to 0"):
        clears({"An": -10, "Bình": 5}, [])


@given(balances())
def test_each_person_is_finished_by_their_last_payment(balances: dict[str, int]) -> None:
    plan = min_payments(balances)
    finished = clears(balances, plan)
    assert list(finished) == plan
    last = {name: p for p in plan for name in (p.payer, p.payee)}
    assert {name: p for p, names in finished.items() for name in names} == last


@pytest.mark.parametrize(
    ("payer", "payee", "amount"), [("An", "Bình", 0), ("An", "Bình", -5), ("An", "An", 5)]
)
def test_a_payment_must_be_positive_between_two_people(payer: str, payee: str, amount: int) -> None:
    with pytest.raises(ValueError):
        SuggestedPayment(payer, payee, amount)


def test_a_payment_refuses_float_money() -> None:
    with pytest.raises(TypeError):
        SuggestedPayment("An", "Bình", 5.0)  # type: ignore[arg-type]
