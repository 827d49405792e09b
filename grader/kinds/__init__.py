"""Kinds: one grader per kind of answer, and the request that chooses between them.

request.py validates one request of the JSON-Lines contract and dispatches on `kind` to
expression.py (a formula), numeric.py (a number, vector or matrix within a tolerance) or
derivation.py (line by line); feedback.py turns their verdicts and errors into a `Result` with
one learner-facing text. The symbolic check is passed in (or deferred to the contained worker),
so grading here stays bounded.
"""
