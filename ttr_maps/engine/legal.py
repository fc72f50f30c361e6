"""`LegalActions`: the legal actions of a turn as a sequence that builds a claim only when it is asked for.

`State.legal_sequence()` returns one at the start of a turn (other phases get legal_actions' list). It holds
the same actions in the same order as `legal_actions()`, the very same objects, but a claim group is kept as
its count and what makes its claims (claims.claim_segments), so `len()` and one `seq[i]` (all a uniformly
random choice needs: `rng.choice(seq)` draws exactly as it does from the list) cost no list of every claim with
every payment. Everything else a list offers for reading (iteration, `in`, `index`, `count`, slices, `==` with a
list) works too: the first such use builds the whole list once and keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .claims import gray_pick, gray_extend


class LegalActions(Sequence):
    """The legal actions of a turn (see the module): segments, each a list of actions or a gray claim group
    (a tuple, claims.claim_segments), and their total count."""

    __slots__ = ("_segs", "_n", "_list", "last")

    def __init__(self, segs: list, n: int):
        self._segs = segs
        self._n = n
        self._list: list | None = None
        self.last = None  # the action `seq[i]` handed out last (simulate's runner checks a bot's choice by it)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if type(i) is not int:
            if isinstance(i, slice):
                return self.tolist()[i]
            i = i.__index__()
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        for seg in self._segs:
            if type(seg) is list:
                k = len(seg)
                if i < k:
                    a = self.last = seg[i]
                    return a
            else:
                k = seg[0]
                if i < k:
                    a = self.last = gray_pick(seg, i)
                    return a
            i -= k
        raise IndexError("legal action index out of range")  # pragma: no cover - the counts add up to _n

    def tolist(self) -> list:
        """The actions as a list (built once; the same list every call: do not change it)."""
        lst = self._list
        if lst is None:
            lst = []
            for seg in self._segs:
                if type(seg) is list:
                    lst.extend(seg)
                else:
                    gray_extend(seg, lst)
            self._list = lst
        return lst

    def __iter__(self):
        return iter(self.tolist())

    def __contains__(self, a) -> bool:
        return a in self.tolist()

    def __reversed__(self):
        return reversed(self.tolist())

    def index(self, a, start: int = 0, stop: int | None = None) -> int:
        lst = self.tolist()
        return lst.index(a, start, len(lst) if stop is None else stop)

    def count(self, a) -> int:
        return self.tolist().count(a)

    def __eq__(self, other) -> bool:
        if isinstance(other, LegalActions):
            other = other.tolist()
        if not isinstance(other, list):
            return NotImplemented
        return self._n == len(other) and self.tolist() == other

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return repr(self.tolist())
