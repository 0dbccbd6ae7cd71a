"""through_banker: everyone settles with one person holding the money."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.engine.settle import SuggestedPayment, through_banker

NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Hà", "Ánh"]


@st.composite
def balances_and_banker(draw: st.DrawFn) -> tuple[dict[str, int], str]:
    size = draw(st.integers(1, len(NAMES)))
    names = draw(st.permutations(NAMES).map(lambda names: names[:size]))
    amounts = draw(st.lists(st.integers(-9, 9), min_size=size - 1, max_size=size - 1))
    balances = dict(zip(names, [*amounts, -sum(amounts)], strict=True))
    return balances, draw(st.sampled_from(names))


def settled(balances: dict[str, int], plan: list[SuggestedPayment]) -> dict[str, int]:
    after = dict(balances)
    for payment in plan:
        after[payment.payer] += payment.amount
        after[payment.payee] -= payment.amount
    return after


def test_it_collects_then_pays_out_in_name_order() -> None:
    balances = {"Chi": 30, "An": -50, "Bình": 0, "Hà": 20, "Dũng": -10, "Ánh": 10}
    assert through_banker(balances, "Bình") == [
        SuggestedPayment("An", "Bình", 50),
        SuggestedPayment("Dũng", "Bình", 10),
        SuggestedPayment("Bình", "Chi", 30),
        SuggestedPayment("Bình", "Hà", 20),
        SuggestedPayment("Bình", "Ánh", 10),
    ]


def test_a_banker_who_lost_only_pays_out() -> None:
    assert through_banker({"An": -30, "Bình": 10, "Chi": 20}, "An") == [
        SuggestedPayment("An", "Bình", 10),
        SuggestedPayment("An", "Chi", 20),
    ]


def test_it_refuses_a_banker_who_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="banker"):
        through_banker({"An": -5, "Bình": 5}, "Chi")


def test_it_refuses_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to 0"):
        through_banker({"An": -5, "Bình": 4}, "An")


@given(balances_and_banker())
def test_everyone_settles_with_the_banker(case: tuple[dict[str, int], str]) -> None:
    balances, banker = case
    plan = through_banker(balances, banker)
    assert all(banker in (p.payer, p.payee) for p in plan)
    assert all(amount == 0 for amount in settled(balances, plan).values())
    assert len(plan) == sum(1 for name, amount in balances.items() if amount and name != banker)
    pay_ins = [p.payee == banker for p in plan]
    assert pay_ins == sorted(pay_ins, reverse=True)


@given(balances_and_banker(), st.data())
def test_paying_one_leaves_the_rest_unchanged(
    case: tuple[dict[str, int], str], data: st.DataObject
) -> None:
    balances, banker = case
    plan = through_banker(balances, banker)
    assume(plan)  # a plan with nothing to pay proves nothing here
    paid = data.draw(st.sampled_from(plan))
    assert through_banker(settled(balances, [paid]), banker) == [p for p in plan if p != paid]
