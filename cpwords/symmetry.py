"""The symmetry of a set of points in the plane: which of the eight transformations of the square
map it onto itself, and the lex-leader representatives of orbits under such a group.

Nothing here knows a shape file: :mod:`cpwords.geometry` reads boards and grids and asks
:func:`point_symmetries` for their groups (computed from coordinates, never typed by hand).
Symmetry breaking uses one lex-leader per orbit: for every group element g, X ≤lex g·X where X is
the vector of values in item order and (g·X)[j] = X[g⁻¹(j)].

Example
-------
>>> group = point_symmetries([(0, 0), (1, 0), (0, 1), (1, 1)])
>>> len(group), orbit_size("aabb", group), canonical_form("bbaa", group)
(8, 4, ('a', 'a', 'b', 'b'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cpwords.errors import InputError

T = TypeVar("T")

#: The eight transformations of the square, as maps of integer (x, y) about the origin.
SQUARE_TRANSFORMS: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "identity": lambda x, y: (x, y),
    "rot90": lambda x, y: (-y, x),
    "rot180": lambda x, y: (-x, -y),
    "rot270": lambda x, y: (y, -x),
    "mirror_x": lambda x, y: (-x, y),  # left-right mirror
    "mirror_y": lambda x, y: (x, -y),  # top-bottom mirror
    "transpose": lambda x, y: (-y, -x),  # main diagonal of a grid (top-left to bottom-right)
    "antitranspose": lambda x, y: (y, x),
}


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a shape: its name and the permutation of the shape's items.

    ``perm[i] = j`` means item i is carried onto item j.
    """

    name: str
    perm: tuple[int, ...]

    def act(self, values: Sequence[T]) -> list[T]:
        """g·X: the values moved along the permutation, (g·X)[perm[i]] = X[i]."""
        out: list[Any] = [None] * len(values)
        for i, j in enumerate(self.perm):
            out[j] = values[i]
        return out

    def source_indices(self) -> list[int]:
        """p with (g·X)[j] = X[p[j]]: the index each position of g·X reads from."""
        p = [0] * len(self.perm)
        for i, j in enumerate(self.perm):
            p[j] = i
        return p

    @property
    def is_identity(self) -> bool:
        """True for the identity."""
        return all(i == j for i, j in enumerate(self.perm))


def point_symmetries(points: Sequence[tuple[int, int]], labels: Sequence[Any] | None = None) -> list[Symmetry]:
    """The transformations of the square mapping a labelled point set onto itself.

    Parameters
    ----------
    points:
        Integer coordinates (x, y), one per item.
    labels:
        Optional label per item that a symmetry must preserve (a node kind, a cell colour).

    Returns
    -------
    The symmetries, identity first, each as a permutation of item indices.
    """
    if not points:
        return [Symmetry("identity", ())]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    sx, sy = min(xs) + max(xs), min(ys) + max(ys)  # twice the bounding-box centre
    doubled = [(2 * x - sx, 2 * y - sy) for x, y in points]
    where = {pt: i for i, pt in enumerate(doubled)}
    if len(where) != len(points):
        raise InputError("two items share the same position", field="at")
    found = []
    for name, transform in SQUARE_TRANSFORMS.items():
        perm = []
        for i, (x, y) in enumerate(doubled):
            j = where.get(transform(x, y))
            if j is None or (labels is not None and labels[i] != labels[j]):
                break
            perm.append(j)
        else:
            found.append(Symmetry(name, tuple(perm)))
    return found


def canonical_form(values: Sequence[T], group: Sequence[Symmetry]) -> tuple[T, ...]:
    """The lex-smallest image of ``values`` under the group: one representative per orbit."""
    return min(tuple(g.act(values)) for g in group)


def orbit_size(values: Sequence[T], group: Sequence[Symmetry]) -> int:
    """How many distinct arrangements the group makes of ``values``."""
    return len({tuple(g.act(values)) for g in group})


def is_lex_leader(values: Sequence[T], group: Sequence[Symmetry]) -> bool:
    """True when X ≤lex g·X for every g: ``values`` is its orbit's representative."""
    x = tuple(values)
    return all(x <= tuple(g.act(values)) for g in group)
