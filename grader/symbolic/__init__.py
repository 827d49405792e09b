"""Symbolic: the bounded sympy check, for what sampling cannot decide.

build.py turns our tree into sympy objects with sympy's constructors (learner text never
reaches `sympify` or `parse_expr`); equality.py decides a - b = 0 within a time budget. sympy is
imported only here (and warmed up by the contained worker, `grader/worker_main.py`), lazily:
grading in the app's own process never imports it.
"""
