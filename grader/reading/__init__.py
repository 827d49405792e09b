"""Reading: learner text -> the allowlisted tree, every containment limit checked on the way.

normalize.py (IME / Unicode -> ASCII, math delimiters dropped, with an index map back to the raw
text) -> lexer.py (tokens; the LaTeX allowlist) -> names.py (declarations, `d/dx` and Leibniz
notation, splitting `Wx` into W x but never into letters the question does not know) ->
parser.py (recursive descent; plain_numbers.py is its fast path for plain numbers and lists of
them) -> nodes.py (the tree: frozen dataclasses, nothing else can appear in a parsed answer).
limits.py holds the limits the parser checks while it builds, with constant.py for the value of
constant subtrees (exponents); latex.py renders a tree back as "interpreted as" LaTeX.

The tree's definition lives here because reading produces it; every later stage (values,
symbolic, kinds) reads it from `grader.reading.nodes`. Nothing here imports a later stage.
"""
