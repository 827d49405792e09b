"""Values: what a parsed tree is worth, and whether two trees are worth the same.

evaluate.py (numpy, vectorized over k random points; differentiate.py expands d/dx, diff and
F' on the tree first) -> decide.py (the sampling verdict: equal, different, undecided, shape)
-> counterexample.py (a hand-checkable point where two formulas differ).

Exact arithmetic belongs here too, as modules of its own beside evaluate.py: identity testing
with exact rationals or modulo large primes, and multi-precision confirmation of float
verdicts. It reads the same tree (`grader.reading.nodes`) and gives decide.py verdicts that
floating point cannot see. Imports: the foundation modules and `grader.reading` only.
"""
