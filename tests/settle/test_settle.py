"""min_payments: exact minimum, settles everything, and a stable order under paying."""

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine.settle import MAX_EXACT_PEOPLE, SuggestedPayment, min_payments
from tests.hypothesis_counts import examples

NAMES = ["An", "Bình", "Chi", "Dũng", "Đức", "Giang", "Hà", "Hùng", "Lan", "Mai", "Nam", "Ánh"]


def zero_sum(amounts: list[int]) -> list[int]:
    return [*amounts, -sum(amounts)]


@st.composite
def balances(draw: st.DrawFn, max_people: int = 7, max_amount: int = 9) -> dict[str, int]:
    """Random balances; small amounts so that zero-sum subgroups are common."""
    size = draw(st.integers(1, max_people))
    names = draw(st.permutations(NAMES).map(lambda names: names[:size]))
    amount = st.integers(-max_amount, max_amount)
    amounts = zero_sum(draw(st.lists(amount, min_size=size - 1, max_size=size - 1)))
    return dict(zip(names, amounts, strict=True))


@st.composite
def grouped_balances(draw: st.DrawFn, max_groups: int = 3) -> dict[str, int]:
    """Balances built from several zero-sum groups, then shuffled: many equally short plans."""
    amounts: list[int] = []
    for _ in range(draw(st.integers(1, max_groups))):
        amounts += zero_sum(draw(st.lists(st.integers(-4, 4).map(lambda a: a * 1000), max_size=2)))
    names = draw(st.permutations(NAMES).map(lambda names: names[: len(amounts)]))
    return dict(zip(names, draw(st.permutations(amounts)), strict=True))


any_balances = st.one_of(balances(), grouped_balances())


def settled(balances: Mapping[str, int], plan: Sequence[SuggestedPayment]) -> dict[str, int]:
    after = dict(balances)
    for payment in plan:
        after[payment.payer] += payment.amount
        after[payment.payee] -= payment.amount
    return after


def set_partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def largest_splits(balances: Mapping[str, int]) -> list[list[list[str]]]:
    """Brute force: every partition of the non-zero balances into the most zero-sum groups."""
    people = sorted(name for name, amount in balances.items() if amount)
    splits = [
        split
        for split in set_partitions(people)
        if all(sum(balances[name] for name in group) == 0 for group in split)
    ]
    most = max(len(split) for split in splits)
    return [split for split in splits if len(split) == most]


def two_pointer(balances: Mapping[str, int], group: list[str]) -> list[SuggestedPayment]:
    """Debtors and creditors in name order, matched by overlapping running totals."""
    debtors = [name for name in sorted(group) if balances[name] < 0]
    creditors = [name for name in sorted(group) if balances[name] > 0]
    left = {name: abs(balances[name]) for name in group}
    plan: list[SuggestedPayment] = []
    d = c = 0
    while d < len(debtors):
        amount = min(left[debtors[d]], left[creditors[c]])
        plan.append(SuggestedPayment(debtors[d], creditors[c], amount))
        left[debtors[d]] -= amount
        left[creditors[c]] -= amount
        d += left[debtors[d]] == 0
        c += left[creditors[c]] == 0
    return plan


def payment_key(payment: SuggestedPayment) -> tuple[str, str, int]:
    return payment.payer, payment.payee, -payment.amount


def most_groups(amounts: list[int]) -> int:
    """Independent O(n 2**n) DP: the most zero-sum groups the amounts split into."""
    n = len(amounts)
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        total = sum(amounts[i] for i in range(n) if mask >> i & 1)
        best[mask] = max(best[mask ^ 1 << i] for i in range(n) if mask >> i & 1) + (total == 0)
    return best[-1]


def test_it_pairs_matching_debts() -> None:
    plan = min_payments({"A": 4, "B": 6, "C": -4, "D": -6})
    assert plan == [SuggestedPayment("C", "A", 4), SuggestedPayment("D", "B", 6)]


def test_it_finds_the_two_groups_of_five_people() -> None:
    plan = min_payments({"A": -3, "B": -4, "C": -5, "D": 7, "E": 5})
    assert plan == [
        SuggestedPayment("A", "D", 3),
        SuggestedPayment("B", "D", 4),
        SuggestedPayment("C", "E", 5),
    ]


def test_it_returns_nothing_when_everyone_is_square() -> None:
    assert min_payments({}) == []
    assert min_payments({"A": 0, "B": 0}) == []


def test_it_ignores_zero_balances() -> None:
    assert min_payments({"A": -5, "B": 0, "C": 5}) == [SuggestedPayment("A", "C", 5)]


def test_it_refuses_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to 0"):
        min_payments({"A": -5, "B": 4})


def test_it_refuses_float_money() -> None:
    with pytest.raises(TypeError):
        min_payments({"A": -5.0, "B": 5})  # type: ignore[dict-item]


def test_it_refuses_more_people_than_the_exact_search_allows() -> None:
    people = MAX_EXACT_PEOPLE + 1
    too_many = {f"P{i:02}": 1 for i in range(people - 1)} | {"Z": 1 - people}
    with pytest.raises(ValueError, match="limited"):
        min_payments(too_many)


def test_it_keeps_the_order_when_a_payment_is_made() -> None:
    # Two equally short plans exist: {B,E}+{A,C,D} and {B,C}+{A,D,E}. Paying D→A must not make
    # the recomputation switch from one to the other.
    balances = {"A": 2, "B": -3, "C": 3, "D": -5, "E": 3}
    plan = min_payments(balances)
    assert plan == [
        SuggestedPayment("B", "C", 3),
        SuggestedPayment("D", "A", 2),
        SuggestedPayment("D", "E", 3),
    ]
    for paid in plan:
        assert min_payments(settled(balances, [paid])) == [p for p in plan if p != paid]


@given(any_balances)
def test_it_settles_every_balance_to_zero(balances: dict[str, int]) -> None:
    plan = min_payments(balances)
    assert all(amount == 0 for amount in settled(balances, plan).values())
    assert all(payment.amount > 0 for payment in plan)
    assert all(balances[p.payer] < 0 < balances[p.payee] for p in plan)


@given(any_balances)
def test_it_uses_the_brute_force_minimum_of_payments(balances: dict[str, int]) -> None:
    people = sum(1 for amount in balances.values() if amount)
    groups = len(largest_splits(balances)[0]) if people else 0
    assert len(min_payments(balances)) == people - groups


@given(any_balances)
def test_it_picks_the_first_plan_among_all_shortest_splits(balances: dict[str, int]) -> None:
    # The canonical choice, by brute force: each largest split settled group by group with two
    # pointers, and the plan that sorts first wins.
    candidates = [
        sorted((p for group in split for p in two_pointer(balances, group)), key=payment_key)
        for split in largest_splits(balances)
    ] or [[]]
    assert min_payments(balances) == min(candidates, key=lambda plan: list(map(payment_key, plan)))


@given(any_balances, st.randoms(use_true_random=False))
def test_it_does_not_depend_on_the_mapping_order(
    balances: dict[str, int], rng: random.Random
) -> None:
    shuffled = list(balances.items())
    rng.shuffle(shuffled)
    assert min_payments(dict(shuffled)) == min_payments(balances)


@given(st.one_of(balances(max_people=10), grouped_balances(max_groups=4)), st.data())
def test_paying_one_suggestion_leaves_the_rest_unchanged(
    balances: dict[str, int], data: st.DataObject
) -> None:
    plan = min_payments(balances)
    assume(plan)  # a plan with nothing to pay proves nothing here
    paid = data.draw(st.sampled_from(plan))
    assert min_payments(settled(balances, [paid])) == [p for p in plan if p != paid]


@given(st.one_of(balances(max_people=10), grouped_balances(max_groups=4)), st.randoms())
def test_paying_in_any_order_always_leaves_the_rest(
    balances: dict[str, int], rng: random.Random
) -> None:
    remaining = min_payments(balances)
    while remaining:
        paid = rng.choice(remaining)
        balances = settled(balances, [paid])
        remaining.remove(paid)
        assert min_payments(balances) == remaining


@settings(max_examples=examples(10), deadline=None)
@given(
    st.one_of(
        balances(max_people=12, max_amount=20).filter(lambda b: len(b) == 12),
        st.lists(st.integers(1, 10**6), min_size=11, max_size=11).map(zero_sum),
        st.lists(st.integers(-3, 3).map(lambda a: a * 50_000), min_size=11, max_size=11).map(
            zero_sum
        ),
    ).map(lambda b: b if isinstance(b, dict) else {f"P{i:02}": a for i, a in enumerate(b)})
)
def test_it_handles_twelve_people(balances: dict[str, int]) -> None:
    plan = min_payments(balances)
    amounts = [amount for amount in balances.values() if amount]
    assert len(plan) == len(amounts) - most_groups(amounts)
    assert all(amount == 0 for amount in settled(balances, plan).values())
