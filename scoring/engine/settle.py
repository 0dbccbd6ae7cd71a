"""Settle-up suggestions: who pays whom at the end of a session, in whole đồng.

Pure Python, no Django. Money is an ``int`` of đồng everywhere; a float is refused.

A *balance* maps a person to their net for the session: positive means they are owed money
(they receive), negative means they owe (they pay). Balances must add up to exactly zero.
A person whose balance is zero has nothing to settle and is left out of every plan.

Three ways to settle:

- :func:`min_payments` — the fewest transfers possible, exactly (not a greedy guess).
- :func:`as_played` — one transfer per pair of people who actually played each other, with no
  netting across pairs (some tables prefer "you pay whom you lost to").
- :func:`through_banker` — everyone settles with one person who holds the money.

:func:`clears` annotates any plan with whose balance each transfer finishes.

Why the minimum plan is stable (paying one suggestion never reshuffles the others)
-----------------------------------------------------------------------------------
Order payments by ``(payer, payee, -amount)`` and compare two plans of the same length by
their sorted lists. Among all *minimal* plans in which every payer owes and every payee is
owed, :func:`min_payments` returns the smallest one, ``M``. Pay any ``t`` in ``M`` in full
and call the new balances ``b'``:

- ``M - {t}`` settles ``b'`` with one transfer fewer, and ``b'`` cannot need fewer than that
  (adding ``t`` to a shorter plan would beat the minimum for the old balances).
- Any other minimal plan ``M'`` for ``b'`` gives the plan ``M' + {t}`` for the old balances,
  also minimal and also debtor-to-creditor (``M'`` cannot already pay between ``t``'s two
  people, or merging the two transfers would beat the minimum). Two sorted lists of the same
  length compare by the smallest payment in one but not the other, so adding the same ``t`` to
  both does not change which is smaller; ``M`` was the smallest, so ``M - {t}`` is the
  smallest for ``b'``.

So the recomputed plan is exactly the remaining suggestions, in the same order. This holds
for any fixed order on payments; ``(payer, payee, -amount)`` is chosen because it makes the
smallest plan read naturally: within each zero-sum group, debtors and creditors in name order
are matched by two pointers ("the first debtor pays the first creditor as much as they can").

How it is computed
------------------
A minimal plan splits the people with a non-zero balance into the largest possible number
``k`` of zero-sum groups and needs ``n - k`` transfers, one spanning tree per group. The first
payment of the smallest plan is therefore: the first debtor by name pays the first creditor
by name who can share a group with them in some ``k``-group split, as much as possible. By the
argument above, the rest of the smallest plan is the smallest plan for the balances after that
payment, so we pay it and repeat.

"Can share a group" is answered with a subset DP written over bitsets: a Python ``int`` of
``2**n`` bits holds one bit per subset of people, so "every superset of these subsets" is
``n`` shift-and-or steps rather than a loop over ``2**n`` masks.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

# The exact search is exponential in the number of people with a non-zero balance: its cost
# about quadruples with every two more (figures in docs/groups.md). A table has four
# players and a long session rarely more than a dozen names; past this we refuse rather than
# tie up a request (through_banker and as_played have no limit).
MAX_EXACT_PEOPLE = 20


@dataclass(frozen=True)
class SuggestedPayment:
    """A suggested transfer of ``amount`` đồng from ``payer`` to ``payee``."""

    payer: str
    payee: str
    amount: int

    def __post_init__(self) -> None:
        _check_money(self.amount)
        if self.amount <= 0:
            raise ValueError(f"a payment must be positive, got {self.amount}")
        if self.payer == self.payee:
            raise ValueError(f"{self.payer!r} cannot pay themselves")


def min_payments(balances: Mapping[str, int]) -> list[SuggestedPayment]:
    """The fewest transfers that bring every balance to zero, in a stable order.

    The same balances always give the same list, whatever the mapping's order. Paying any one
    suggestion in full and recomputing gives exactly the remaining suggestions, in the same
    order (see the module docstring for why).
    """
    owed = _non_zero(balances)
    if len(owed) > MAX_EXACT_PEOPLE:
        raise ValueError(
            f"{len(owed)} people to settle; the exact minimum is limited to {MAX_EXACT_PEOPLE}"
        )
    plan: list[SuggestedPayment] = []
    while owed:
        names = list(owed)
        amounts = list(owed.values())
        payer = next(i for i, amount in enumerate(amounts) if amount < 0)
        payee = _first_partner(amounts, payer)
        amount = min(-amounts[payer], amounts[payee])
        plan.append(SuggestedPayment(names[payer], names[payee], amount))
        for index, change in ((payer, amount), (payee, -amount)):
            owed[names[index]] += change
            if owed[names[index]] == 0:
                del owed[names[index]]
    return plan


def as_played(pair_nets: Mapping[tuple[str, str], int]) -> list[SuggestedPayment]:
    """One transfer per pair of people, netting only within the pair.

    ``pair_nets[(a, b)]`` is what ``a`` owes ``b`` from the games; both ``(a, b)`` and
    ``(b, a)`` may be present and are netted against each other, never against other pairs.
    Sorted by payer then payee, so settling one pair leaves the others in place.
    """
    nets: dict[tuple[str, str], int] = defaultdict(int)
    for (debtor, creditor), amount in pair_nets.items():
        _check_money(amount)
        if debtor == creditor:
            raise ValueError(f"{debtor!r} cannot owe themselves")
        if debtor < creditor:
            nets[debtor, creditor] += amount
        else:
            nets[creditor, debtor] -= amount
    plan = [
        SuggestedPayment(first, second, net) if net > 0 else SuggestedPayment(second, first, -net)
        for (first, second), net in nets.items()
        if net
    ]
    return sorted(plan, key=lambda payment: (payment.payer, payment.payee, -payment.amount))


def through_banker(balances: Mapping[str, int], banker: str) -> list[SuggestedPayment]:
    """Everyone settles with ``banker``: debtors pay in, then creditors are paid out.

    The banker may have any balance, including zero, but must be one of the people in
    ``balances``. Pay-ins come first so the banker holds the cash before paying it out;
    each half is in name order.
    """
    owed = _non_zero(balances)
    if banker not in balances:
        raise ValueError(f"banker {banker!r} is not one of the people settling")
    others = {name: amount for name, amount in owed.items() if name != banker}
    pay_ins = [
        SuggestedPayment(name, banker, -amount) for name, amount in others.items() if amount < 0
    ]
    pay_outs = [
        SuggestedPayment(banker, name, amount) for name, amount in others.items() if amount > 0
    ]
    return pay_ins + pay_outs


def clears(
    balances: Mapping[str, int], plan: Sequence[SuggestedPayment]
) -> dict[SuggestedPayment, list[str]]:
    """For each payment, who is fully settled once it is paid (after the earlier ones).

    Payments are applied in plan order; a payment lists its payer and/or payee when their
    running balance reaches exactly zero with it. Someone missing from ``balances`` starts at
    zero, so a go-between in an :func:`as_played` plan is listed on the payment that passes
    the money on. The dict keeps plan order.
    """
    running: dict[str, int] = defaultdict(int, _non_zero(balances))
    finished: dict[SuggestedPayment, list[str]] = {}
    for payment in plan:
        if payment in finished:
            raise ValueError(f"the plan lists {payment} twice")
        running[payment.payer] += payment.amount
        running[payment.payee] -= payment.amount
        # Each amount is positive, so reaching zero means this payment finished them.
        finished[payment] = [name for name in (payment.payer, payment.payee) if running[name] == 0]
    return finished


def _check_money(amount: object) -> None:
    # bool is an int subclass; True đồng is a bug upstream, not money.
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(f"money must be a whole number of đồng (int), got {amount!r}")


def _non_zero(balances: Mapping[str, int]) -> dict[str, int]:
    """The non-zero balances in name order, after checking they are whole and sum to zero."""
    for amount in balances.values():
        _check_money(amount)
    total = sum(balances.values())
    if total:
        raise ValueError(f"balances must sum to 0, they sum to {total}")
    return {name: balances[name] for name in sorted(balances) if balances[name]}


def _first_partner(amounts: Sequence[int], payer: int) -> int:
    """The lowest-indexed creditor who shares a group with ``payer`` in some largest split.

    ``amounts`` are non-zero and sum to zero. A *largest split* partitions everyone into the
    maximum number ``k`` of zero-sum groups.
    """
    creditors = [i for i, amount in enumerate(amounts) if amount > 0]
    if len(creditors) == 1:
        return creditors[0]
    n = len(amounts)
    everyone = (1 << n) - 1
    all_sets, with_person, without_person = _subset_patterns(n)

    def supersets(sets: int) -> int:
        for person in range(n):
            sets |= (sets & without_person[person]) << (1 << person)
        return sets

    def strict_supersets(sets: int) -> int:
        # `sets` is already closed under supersets, so one added person per step is enough.
        grown = 0
        for person in range(n):
            grown |= (sets & without_person[person]) << (1 << person)
        return grown

    zero_sum = _zero_sum_sets(amounts)
    # Level v: the subsets that contain v disjoint non-empty zero-sum groups (level 0 is every
    # subset). A zero-sum set splits into v + 1 groups exactly when some proper subset of it is
    # at level v: what is left over is zero-sum and non-empty, so it is one more group.
    previous, current = all_sets, supersets(zero_sum)
    while True:
        following = supersets(zero_sum & strict_supersets(current))
        if not following >> everyone & 1:
            break
        previous, current = current, following
    # `current` is level k, `previous` level k - 1. A zero-sum set S is a group of some largest
    # split exactly when everyone outside S still splits into k - 1 groups.
    rest_splits = _complements(previous, n)
    candidates = zero_sum & rest_splits & with_person[payer]
    return next(c for c in creditors if candidates & with_person[c])


# The patterns of one size grow as 2**n bits squared and are cheap to rebuild (figures in
# docs/groups.md), so keep only the few table sizes a process actually sees.
@lru_cache(maxsize=4)
def _subset_patterns(n: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Bitsets over the ``2**n`` subsets: all of them, those with person i, those without."""
    size = 1 << n
    all_sets = (1 << size) - 1
    with_person = []
    for person in range(n):
        run = 1 << person
        # Subsets numbered 0..size-1 alternate in runs of `run`: without person, then with.
        pattern, width = ((1 << run) - 1) << run, 2 * run
        while width < size:
            pattern |= pattern << width
            width *= 2
        with_person.append(pattern)
    return all_sets, tuple(with_person), tuple(all_sets ^ p for p in with_person)


def _zero_sum_sets(amounts: Sequence[int]) -> int:
    """Bitset of the non-empty subsets whose amounts add up to zero.

    Meet in the middle: subset sums of each half, matched by value, so the Python-level work
    is ``2 * 2**(n/2)`` plus one step per zero-sum subset found.
    """
    n = len(amounts)
    half = n // 2
    low_by_sum: dict[int, list[int]] = defaultdict(list)
    for mask, total in enumerate(_subset_sums(amounts[:half])):
        low_by_sum[total].append(mask)
    size = 1 << n
    digits = bytearray(b"0") * size  # most significant digit first: subset size-1 .. 0
    for high, total in enumerate(_subset_sums(amounts[half:])):
        for low in low_by_sum.get(-total, ()):
            digits[size - 1 - (high << half | low)] = ord("1")
    digits[size - 1] = ord("0")  # the empty set is not a group
    return int(digits, 2)


def _subset_sums(amounts: Iterable[int]) -> list[int]:
    sums = [0]
    for amount in amounts:
        sums += [total + amount for total in sums]
    return sums


def _complements(sets: int, n: int) -> int:
    """Bitset of the complements: subset m becomes (everyone - m), i.e. reversed bit order."""
    size = 1 << n
    return int(format(sets, f"0{size}b")[::-1], 2)
