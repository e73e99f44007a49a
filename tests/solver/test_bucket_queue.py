"""The A* open list (:class:`pyramid_widget.solver.search.BucketQueue`): it gives positions
back in the order a binary heap keyed ``(f, -g)`` would, up to the order among equal keys,
under any mix of pushes and pops, including pushes below the ``f`` being taken."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramid_widget.solver.search import BucketQueue

OPS = st.lists(
    st.one_of(
        st.tuples(st.integers(0, 40), st.integers(0, 40)),  # a push of (f, g)
        st.none(),  # a pop
    ),
    max_size=200,
)


@given(OPS)
def test_same_keys_as_a_heap(ops: list[tuple[int, int] | None]) -> None:
    queue: BucketQueue[int] = BucketQueue()
    heap: list[tuple[int, int, int]] = []
    for n, op in enumerate(ops):
        if op is None:
            if not heap:
                assert not queue
                with pytest.raises(IndexError):
                    queue.pop()
                continue
            f, g, _ = queue.pop()
            hf, hneg, _ = heapq.heappop(heap)
            assert (f, g) == (hf, -hneg)
        else:
            queue.push(op[0], op[1], n)
            heapq.heappush(heap, (op[0], -op[1], n))
        assert len(queue) == len(heap)


def test_last_in_first_out_among_equal_keys() -> None:
    queue: BucketQueue[str] = BucketQueue()
    for item in "abc":
        queue.push(3, 2, item)
    queue.push(3, 1, "low g")
    assert [queue.pop()[2] for _ in range(4)] == ["c", "b", "a", "low g"]


def test_the_items_come_back_whole() -> None:
    queue: BucketQueue[tuple[int, int]] = BucketQueue()
    pushed = [(f, g, (f * 100 + g, n)) for n, (f, g) in enumerate([(5, 1), (2, 2), (5, 4), (9, 0)])]
    for f, g, item in pushed:
        queue.push(f, g, item)
    popped = [queue.pop() for _ in pushed]
    assert sorted(popped) == sorted(pushed)
    assert [p[:2] for p in popped] == [(2, 2), (5, 4), (5, 1), (9, 0)]
