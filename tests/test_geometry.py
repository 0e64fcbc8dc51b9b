"""Shapes and their symmetry groups, computed from coordinates."""

from __future__ import annotations

import itertools

import pytest

from cpwords import geometry
from cpwords.errors import InputError


def test_okwddm_board_facts() -> None:
    board = geometry.load_board("okwddm")
    assert len(board.nodes_of("prefix")) == 9 and len(board.nodes_of("suffix")) == 4
    assert len(board.edges) == 24
    assert board.degree(board.index("c")) == 4
    assert all(board.degree(i) == 6 for i in board.nodes_of("suffix"))
    prefix_degrees = sorted(board.degree(i) for i in board.nodes_of("prefix") if board.nodes[i] != "c")
    assert prefix_degrees == [2] * 4 + [3] * 4
    group = geometry.board_symmetries(board)
    assert len(group) == 8 and group[0].is_identity


def test_group_is_closed_and_preserves_edges() -> None:
    board = geometry.load_board("okwddm")
    group = geometry.board_symmetries(board)
    perms = {g.perm for g in group}
    for g, h in itertools.product(group, group):
        assert tuple(h.perm[g.perm[i]] for i in range(len(board.nodes))) in perms


def test_asymmetric_board_has_only_identity() -> None:
    data = {"nodes": {"a": {"kind": "prefix", "at": [0, 0]}, "b": {"kind": "suffix", "at": [1, 0]},
                      "c": {"kind": "prefix", "at": [3, 1]}},
            "edges": [["a", "b"], ["c", "b"]]}
    board = geometry.parse_board(data, name="t", source="t")
    assert [g.name for g in geometry.board_symmetries(board)] == ["identity"]


def test_kinds_break_symmetry() -> None:
    nodes = {"a": {"kind": "prefix", "at": [0, 0]}, "b": {"kind": "suffix", "at": [1, 0]}}
    board = geometry.parse_board({"nodes": nodes, "edges": [["a", "b"]]}, name="t", source="t")
    # Only the maps that keep each node in place survive: identity and the top-bottom mirror.
    assert [g.name for g in geometry.board_symmetries(board)] == ["identity", "mirror_y"]
    nodes["b"]["kind"] = "prefix"
    board = geometry.parse_board({"nodes": nodes, "edges": [["a", "b"]]}, name="t", source="t")
    assert len(geometry.board_symmetries(board)) == 4  # identity, rot180 and the two mirrors


@pytest.mark.parametrize("values", [3, 2])
def test_lex_leaders_are_one_per_orbit(values: int) -> None:
    """Burnside's check: lex-leaders = distinct canonical forms = Σ 1/orbit sizes."""
    data = {"nodes": {f"n{i}": {"kind": "x", "at": list(p)} for i, p in
                      enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)])},
            "edges": [["n0", "n1"]]}
    board = geometry.parse_board(data, name="t", source="t")
    group = geometry.point_symmetries(board.positions, board.kinds)
    assert len(group) == 4  # a 2x3 rectangle: identity, rot180, two mirrors
    assignments = list(itertools.product(range(values), repeat=6))
    leaders = [a for a in assignments if geometry.is_lex_leader(a, group)]
    forms = {geometry.canonical_form(a, group) for a in assignments}
    assert len(leaders) == len(forms)
    assert set(leaders) == forms
    assert sum(geometry.orbit_size(f, group) for f in forms) == len(assignments)


def test_gridle_shapes_and_word_symmetry() -> None:
    five = geometry.load_grid("gridle-5x5")
    slots = five.slots()
    assert len(slots) == 6 and all(len(cells) == 5 for _, cells in slots)
    assert five.fixed == ((1, 1), (1, 5), (3, 3), (5, 1), (5, 5))
    assert len(geometry.grid_cell_symmetries(five)) == 8
    assert [g.name for g in geometry.grid_word_symmetries(five)] == ["identity", "transpose"]
    seven = geometry.load_grid("gridle-7x7")
    assert len(seven.slots()) == 8 and [g.name for g in geometry.grid_word_symmetries(seven)] == ["identity", "transpose"]


def test_rectangular_grid_has_no_word_symmetry() -> None:
    grid = geometry.parse_grid({"rows": ["....", "....", "...."]}, name="r", source="r")
    assert [g.name for g in geometry.grid_word_symmetries(grid)] == ["identity"]


def test_transpose_maps_across_slots_onto_down_slots() -> None:
    grid = geometry.load_grid("gridle-5x5")
    cells = grid.open_cells()
    transpose = next(g for g in geometry.grid_word_symmetries(grid) if g.name == "transpose")
    for i, (r, c) in enumerate(cells):
        assert cells[transpose.perm[i]] == (c, r)


@pytest.mark.parametrize("data, field", [
    ({"rows": ["..", "..."]}, "rows"),
    ({"rows": ["..", ".x"]}, "rows[1]"),
    ({"rows": [".#", ".."], "fixed": [[1, 2]]}, "fixed[0]"),
    ({}, "rows"),
])
def test_bad_grid_shapes(data: dict, field: str) -> None:
    with pytest.raises(InputError) as info:
        geometry.parse_grid(data, name="g", source="g.yaml")
    assert info.value.field == field


def test_unknown_shipped_shape_lists_known_ones() -> None:
    with pytest.raises(InputError, match="okwddm"):
        geometry.load_board("nosuch")
