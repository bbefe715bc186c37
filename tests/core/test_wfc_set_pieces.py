"""Set pieces in the core: the variant of a tile placed by hand (its sockets checked with the labels turned by the
test's own rule), and the first clash between pieces or with the border, checked against the labels by hand."""

from __future__ import annotations

import numpy as np
import pytest
from wfc_kits import ALL_TURNS, QUADRANT_PAIRS, fits, quadrant_tiles, turn_sockets

from strew.core.wfc import SocketTile, rules_from_tiles
from strew.core.wfc.set_pieces import piece_clash, piece_variant


def test_every_allowed_turn_has_the_variant_whose_sockets_are_the_tile_turned() -> None:
    tiles = quadrant_tiles()
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    for tile in tiles:
        for turn in ALL_TURNS:
            variant = piece_variant(rules, tile, turn, False)
            assert variant is not None and rules.tiles[variant] == tile.name
            assert dict(rules.sockets[variant]) == turn_sockets(tile, turn)
        assert piece_variant(rules, tile, 0, True) is None  # no strew_mirror: no mirrored piece
    road = SocketTile("road", {"n": "r", "e": "g", "s": "r", "w": "g"}, rotations=(0, 90))
    rules = rules_from_tiles([road, SocketTile("g", {s: "g" for s in "nesw"})])
    assert piece_variant(rules, road, 180, False) is None  # a turn the tile does not allow


def test_a_mirrored_piece_and_a_big_piece_find_their_variants() -> None:
    hook = SocketTile("hook", {"n": "a", "e": "b", "s": "a", "w": "a"}, rotations=ALL_TURNS, mirror=True)
    hall = SocketTile("hall", {"n": "a", "e": "a", "s": "a", "w": "a"}, rotations=(0, 90), size=(2, 1, 1))
    rules = rules_from_tiles([hook, hall, SocketTile("fill", {s: "a" for s in "nesw"})])
    mirrored = piece_variant(rules, hook, 90, True)
    assert mirrored is not None and rules.reflected[mirrored]
    # mirrored, the b side faces west, then a quarter turn: south (a label in no pair reads the same mirrored)
    assert rules.sockets[mirrored]["s"] == "b" and rules.sockets[mirrored]["e"] == "a"
    anchor = piece_variant(rules, hall, 90, False)
    assert anchor is not None and rules.anchor_mask()[anchor] and tuple(rules.footprints.size[anchor]) == (1, 2, 1)


def test_the_first_clash_is_where_the_labels_do_not_fit() -> None:
    tiles = quadrant_tiles()
    rules = rules_from_tiles(tiles, compatible=QUADRANT_PAIRS)
    by_name = {t.name: t for t in tiles}
    rng = np.random.default_rng(3)
    for _ in range(200):  # two pieces side by side, any tiles and turns: a clash exactly when the labels do not fit
        a, b = rng.choice(sorted(by_name), 2)
        ta, tb = (int(t) for t in rng.choice(ALL_TURNS, 2))
        va, vb = piece_variant(rules, by_name[a], ta, False), piece_variant(rules, by_name[b], tb, False)
        clash = piece_clash(rules, (4, 4), [((1, 1), va), ((2, 1), vb)])
        ok = fits(turn_sockets(by_name[a], ta)["e"], turn_sockets(by_name[b], tb)["w"], QUADRANT_PAIRS)
        assert (clash is None) == ok
        if clash is not None:
            assert {clash.first, clash.second} == {0, 1} and clash.side in ("e", "w")
    floor = piece_variant(rules, by_name["floor"], 0, False)
    border = {side: np.array([s[side] == "xx" for s in rules.sockets]) for side in ("n", "e", "s", "w")}
    clash = piece_clash(rules, (4, 4), [((0, 2), floor)], border, border_labels={"w": "xx"})
    assert clash is not None and clash.second is None and clash.side == "w" and clash.other == "xx"
    assert piece_clash(rules, (4, 4), [((1, 2), floor)], border) is None
    with pytest.raises(ValueError, match="both cover"):
        piece_clash(rules, (4, 4), [((1, 2), floor), ((1, 2), floor)])
