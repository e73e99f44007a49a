"""Dead-position tests that let the solver skip positions from which no win exists.

Each module states the precondition of its rule and the argument that it never drops a
winnable position: :mod:`.relax` (the free-stock relaxation), :mod:`.dig` (how deep the last
pass can dig the waste) and :mod:`.piles` (several waste piles and the free cell).
"""
