"""How copies agree without talking: rendezvous hashing over the live copies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.tables.keeper import rendezvous

names = st.lists(st.from_regex(r"tables-[a-z0-9]{1,8}", fullmatch=True), min_size=2, unique=True)
codes = st.from_regex(r"[A-Z0-9]{5}", fullmatch=True)


@given(code=codes, copies=names, data=st.data())
def test_every_copy_chooses_the_same_copy_whatever_order_it_lists_them(
    code: str, copies: list[str], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(copies))
    assert rendezvous(code, copies) == rendezvous(code, shuffled)


@given(code=codes, copies=names)
def test_a_dead_copy_moves_only_its_own_tables(code: str, copies: list[str]) -> None:
    chosen = rendezvous(code, copies)
    for dead in copies:
        survivors = [name for name in copies if name != dead]
        if dead != chosen:
            assert rendezvous(code, survivors) == chosen  # a live copy keeps its tables


def test_new_tables_are_spread_over_the_copies() -> None:
    copies = ["tables-a", "tables-b", "tables-c"]
    counts = dict.fromkeys(copies, 0)
    for i in range(3000):
        counts[rendezvous(f"request{i}", copies)] += 1
    assert all(800 < count < 1200 for count in counts.values()), counts
