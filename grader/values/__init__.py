"""Values: what a parsed tree is worth, and whether two trees are worth the same.

evaluate.py (numpy, vectorized over k random points; differentiate.py expands d/dx, diff and
F' on the tree first) -> decide.py (the sampling verdict: equal, different, undecided, shape;
samples over the decades and inside narrow real domains) -> confirm.py (where floats cannot
see: exact.py, identity testing of rational expressions modulo random primes, error <= 2^-60;
precise.py, mpmath at 30 and 60 digits to confirm a float agreement and certify a difference)
-> counterexample.py (a hand-checkable point where two formulas differ).

Every module reads the same tree (`grader.reading.nodes`). Imports: the foundation modules
and `grader.reading` only.
"""
