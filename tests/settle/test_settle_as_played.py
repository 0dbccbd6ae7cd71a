"""as_played: one transfer per pair that played, netted only within the pair."""

import random
from collections import defaultdict

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.engine.settle import SuggestedPayment, as_played

NAMES = ["An", "Bình", "Chi", "Đức", "Hà", "Ánh"]

pair_nets = st.dictionaries(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).filter(lambda p: p[0] != p[1]),
    st.integers(-5, 20).map(lambda a: a * 1000),
    max_size=12,
)


def net_by_pair(nets: dict[tuple[str, str], int]) -> dict[frozenset[str], dict[str, int]]:
    """For each unordered pair, each member's net (positive = receives)."""
    result: dict[frozenset[str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (debtor, creditor), amount in nets.items():
        result[frozenset((debtor, creditor))][debtor] -= amount
        result[frozenset((debtor, creditor))][creditor] += amount
    return result


def test_it_nets_both_directions_of_a_pair() -> None:
    assert as_played({("An", "Bình"): 5000, ("Bình", "An"): 2000}) == [
        SuggestedPayment("An", "Bình", 3000)
    ]


def test_it_drops_a_pair_that_cancels_out() -> None:
    assert as_played({("An", "Bình"): 5000, ("Bình", "An"): 5000}) == []


def test_it_does_not_net_across_pairs() -> None:
    # min_payments would say An pays Chi directly; as played, Bình passes it on.
    assert as_played({("An", "Bình"): 5000, ("Bình", "Chi"): 5000}) == [
        SuggestedPayment("An", "Bình", 5000),
        SuggestedPayment("Bình", "Chi", 5000),
    ]


def test_it_reads_a_negative_amount_as_owed_the_other_way() -> None:
    assert as_played({("An", "Bình"): -4000}) == [SuggestedPayment("Bình", "An", 4000)]


def test_it_refuses_someone_owing_themselves() -> None:
    with pytest.raises(ValueError):
        as_played({("An", "An"): 1000})


def test_it_refuses_float_money() -> None:
    with pytest.raises(TypeError):
        as_played({("An", "Bình"): 1.5})  # type: ignore[dict-item]


@given(pair_nets)
def test_it_makes_one_payment_per_pair_with_the_pair_net(nets: dict[tuple[str, str], int]) -> None:
    plan = as_played(nets)
    expected = {pair: dict(net) for pair, net in net_by_pair(nets).items() if any(net.values())}
    assert len({frozenset((p.payer, p.payee)) for p in plan}) == len(plan) == len(expected)
    for payment in plan:
        net = expected[frozenset((payment.payer, payment.payee))]
        assert net[payment.payer] == -payment.amount
        assert net[payment.payee] == payment.amount


@given(pair_nets, st.randoms(use_true_random=False))
def test_it_is_sorted_and_ignores_mapping_order(
    nets: dict[tuple[str, str], int], rng: random.Random
) -> None:
    plan = as_played(nets)
    assert plan == sorted(plan, key=lambda p: (p.payer, p.payee))
    shuffled = list(nets.items())
    rng.shuffle(shuffled)
    assert as_played(dict(shuffled)) == plan


@given(pair_nets, st.data())
def test_paying_one_pair_leaves_the_rest_unchanged(
    nets: dict[tuple[str, str], int], data: st.DataObject
) -> None:
    plan = as_played(nets)
    assume(plan)  # a plan with nothing to pay proves nothing here
    paid = data.draw(st.sampled_from(plan))
    after = dict(nets)
    after[paid.payee, paid.payer] = after.get((paid.payee, paid.payer), 0) + paid.amount
    assert as_played(after) == [p for p in plan if p != paid]
