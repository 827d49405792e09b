"""Reading untrusted params: every bad field is collected, then reported at once.

A template's `check(params)` asks a `ParamReader` for each field it needs; the reader returns the
normalized value (floats, ints, lists of floats) or None when the field is bad, and `finish()`
raises one `ParamsError` that lists every problem, including unknown fields (likely typos).
"""

from __future__ import annotations

import math
from numbers import Real

from compute.errors import ParamsError

MAX_DIM = 64  # vectors and matrices shown in a prompt stay small enough to read
MAX_ABS = 1e6  # entries of vectors and matrices: hand-sized problems, far from overflow


def _is_number(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


class ParamReader:
    def __init__(self, template: str, params):
        self.template = template
        self.problems: list[tuple[str, str]] = []
        self._seen: set[str] = set()
        if isinstance(params, dict):
            self.params = params
        else:
            self.params = {}
            self.fail("params", "must be a JSON object (a mapping of field names to values)")

    def fail(self, name: str, message: str) -> None:
        self.problems.append((name, message))

    def has(self, name: str) -> bool:
        return name in self.params

    def raw(self, name: str, required: bool):
        """The value as given, or None (with a problem recorded unless optional and absent)."""
        self._seen.add(name)
        if name not in self.params:
            if required:
                self.fail(name, "is missing")
            return None
        if self.params[name] is None:
            self.fail(name, "must not be null")
        return self.params[name]

    def number(self, name, *, lo=None, hi=None, lo_open=False, hi_open=False, required=True):
        value = self.raw(name, required)
        if value is None:
            return None
        if not _is_number(value) or not math.isfinite(value):
            self.fail(name, f"must be a finite number, got {value!r}")
            return None
        value = float(value)
        too_low = lo is not None and (value <= lo if lo_open else value < lo)
        too_high = hi is not None and (value >= hi if hi_open else value > hi)
        if too_low or too_high:
            left = "(" if lo_open else "["
            right = ")" if hi_open else "]"
            low = "-inf" if lo is None else f"{lo:g}"
            high = "inf" if hi is None else f"{hi:g}"
            self.fail(name, f"must be in {left}{low}, {high}{right}, got {value:g}")
            return None
        return value

    def integer(self, name, *, lo, hi, required=True):
        value = self.raw(name, required)
        if value is None:
            return None
        if not _is_number(value) or not float(value).is_integer():
            self.fail(name, f"must be an integer, got {value!r}")
            return None
        value = int(value)
        if not lo <= value <= hi:
            self.fail(name, f"must be between {lo} and {hi}, got {value}")
            return None
        return value

    def boolean(self, name, *, required=True):
        value = self.raw(name, required)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, got {value!r}")
            return None
        return value

    def vector(self, name, *, length=None, max_len=MAX_DIM, required=True):
        """A list of finite numbers; `length` (when known) is the size it must have."""
        value = self.raw(name, required)
        if value is None:
            return None
        if not isinstance(value, list) or not all(_is_number(v) for v in value):
            self.fail(name, "must be a list of numbers")
            return None
        if not all(math.isfinite(v) and abs(v) <= MAX_ABS for v in value):
            self.fail(name, f"must hold finite numbers of size at most {MAX_ABS:g}")
            return None
        if length is not None and len(value) != length:
            self.fail(name, f"must have {length} entries, got {len(value)}")
            return None
        if not 1 <= len(value) <= max_len:
            self.fail(name, f"must have between 1 and {max_len} entries, got {len(value)}")
            return None
        return [float(v) for v in value]

    def matrix(self, name, *, rows=None, cols=None, square=False, max_dim=MAX_DIM,
               required=True):
        """A list of equal-length rows of finite numbers, of shape rows x cols when given
        (square: rows == cols even when the size is not known from another field)."""
        value = self.raw(name, required)
        if value is None:
            return None
        if (not isinstance(value, list) or not value
                or not all(isinstance(row, list) and all(_is_number(v) for v in row)
                           for row in value)):
            self.fail(name, "must be a matrix: a non-empty list of lists of numbers")
            return None
        widths = {len(row) for row in value}
        if len(widths) != 1 or 0 in widths:
            self.fail(name, "rows must be non-empty and all of the same length")
            return None
        if not all(math.isfinite(v) and abs(v) <= MAX_ABS for row in value for v in row):
            self.fail(name, f"must hold finite numbers of size at most {MAX_ABS:g}")
            return None
        shape = (len(value), len(value[0]))
        want = (shape[0] if rows is None else rows, shape[1] if cols is None else cols)
        if square and rows is None and cols is None:
            want = (shape[0], shape[0])
        if shape != want:
            self.fail(name, f"must be a {want[0]}x{want[1]} matrix, got {shape[0]}x{shape[1]}")
            return None
        if max(shape) > max_dim:
            self.fail(name, f"must be at most {max_dim}x{max_dim}, got {shape[0]}x{shape[1]}")
            return None
        return [[float(v) for v in row] for row in value]

    def finish(self) -> None:
        """Raise one ParamsError listing every problem (unknown fields included)."""
        for name in self.params:
            if name not in self._seen:
                self.fail(name, "is not a param of this template")
        if self.problems:
            raise ParamsError(self.template, self.problems)
