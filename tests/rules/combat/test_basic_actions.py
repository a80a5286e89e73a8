"""The Attack action itself (R-X2) and Draw / Stow (R-X6) as transcripts: what each costs,
what it does, and every refusal with its reason.

Creatures are tests/movers.BASE (FCS d8+6, RES d10+5, 15 HP, nothing held, policy "never").
"""

from __future__ import annotations

from sim.core.components import Gear, Hands
from sim.play.engine import Battle
from tests.helpers import accepted, battle, budget, hp, refused, scenario_text, types, wd
from tests.movers import creature

ROOM = """
.......
.ab..c.
.......
"""


def begin(*dice: int, **ana: object) -> Battle:
    """ana (1,1) next to bob (2,1); cy (5,1) out of reach. ana acts first."""
    units = (creature("ana", "blue", "a", **ana), creature("bob", "red", "b"),
             creature("cy", "red", "c"))  # fmt: skip
    return battle(scenario_text(ROOM, "\n".join(units)), [8, 7, 6, *dice])


def test_R_X2_an_attack_is_a_half_action_and_may_be_made_again() -> None:
    """R-X2: "Attack, ½: melee or ranged attack, repeatable" — two attacks spend both
    half-actions; a third has nothing left to pay with."""
    b = begin(8, 1, 8, 1, held=["shortsword"])
    first = accepted(b, unit="ana", action="attack", target="bob")
    assert first[0]["tier"] == "half"
    # R-R7: bob, next to ana, is offered an Interrupt first; his policy ("never") declines it.
    assert types(first)[:3] == ["spent", "reaction_answered", "attack_counted"]
    assert (first[1]["window"], first[1]["choice"]) == ("interrupt", "none")
    second = accepted(b, unit="ana", action="attack", target="bob", weapon="shortsword")
    assert [e["count"] for e in second if e["type"] == "attack_counted"] == [2]
    assert budget(b, "ana") == (0, 2)
    assert hp(b, "bob") == 15 - 2 * wd("shortsword")  # no armour (R-A3)
    reason = refused(b, unit="ana", action="attack", target="bob")
    assert "only 0 half-actions left; Attack (½ Action) costs 1 half-action (R-B4)" in reason


def test_R_X2_attack_refusals() -> None:
    """R-X2: an attack needs a creature to attack, in reach, with something held to attack
    with when a weapon is named."""
    b = begin()
    assert "cannot attack itself" in refused(b, unit="ana", action="attack", target="ana")
    assert "no creature 'zed'" in refused(b, unit="ana", action="attack", target="zed")
    assert "out of ana's reach (R-A4)" in refused(b, unit="ana", action="attack", target="cy")
    assert "holds no 'dagger'" in refused(
        b, unit="ana", action="attack", target="bob", weapon="dagger"
    )


def test_R_X6_draw_and_stow_are_free_the_first_time_then_a_bonus_action() -> None:
    """R-X6: "Draw / Stow, Free / Bonus" — the first draw or stow of a turn is free, the next
    one costs a Bonus Action (R-B3: one kind of Free Action)."""
    b = begin(carried=["dagger", "shortsword"])
    first = accepted(b, unit="ana", action="draw", item="dagger")
    assert (first[0]["tier"], first[0]["bonus"], first[0]["free_kind"]) == ("free", 0, "draw_stow")
    assert b.world.need("ana", Hands).holding("ana.dagger")
    second = accepted(b, unit="ana", action="stow", item="dagger")
    assert (second[0]["tier"], second[0]["bonus"]) == ("free", 1)
    assert budget(b, "ana") == (2, 1)
    assert b.world.need("ana", Gear).carried == ("ana.shortsword", "ana.dagger")


def test_R_X6_draw_and_stow_refusals() -> None:
    """R-X6: only what is carried can be drawn, into a free hand; only what is held, stowed."""
    b = begin(carried=["dagger"], held=["shortsword", "buckler"])
    assert "carries no 'longsword' to draw" in refused(
        b, unit="ana", action="draw", item="longsword"
    )
    assert "needs a free hand for ana.dagger" in refused(
        b, unit="ana", action="draw", item="dagger"
    )
    assert "holds no 'dagger' to stow" in refused(b, unit="ana", action="stow", item="dagger")
