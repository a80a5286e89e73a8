"""R-X11 Aid and R-X12 Administer (with R-K2, R-K4, R-K5): tending an ally in reach.

mira (blue) is tests/movers.py's plain human with First Aid 6 (FCS d8+6: a First Aid check is
d8 + 12); ana (blue) stands next to her, bo (red) next to ana, and cy (red) far off so that red
stays in the battle. mira acts first, then ana, bo, cy.
"""

from __future__ import annotations

from typing import Any

from sim.core.components import Gear, Health
from sim.core.events import Damaged, to_json
from sim.core.purpose import RollKind
from sim.play.apply import apply
from sim.play.engine import Battle
from tests.helpers import (
    accepted,
    battle,
    conditions_of,
    end_turns,
    give,
    hp,
    refused,
    scenario_text,
    tagged,
    types,
)
from tests.movers import creature

ROWS = """
#########
#mab...c#
#########
"""


def begin(dice: tuple[int, ...] = (), ana: dict[str, Any] | None = None, **mira: Any) -> Battle:
    units = [
        creature(
            "mira",
            "blue",
            "m",
            **({"skills": {"first_aid": 6}, "carried": ["healing_potion"]} | mira),
        ),
        creature("ana", "blue", "a", **(ana or {})),
        creature("bo", "red", "b"),
        creature("cy", "red", "c"),
    ]
    return battle(scenario_text(ROWS, "\n".join(units)), [4, 3, 2, 1, *dice])


def down(b: Battle, uid: str, left: int) -> None:
    """Test setup: `uid` drops to `left` HP and is Incapacitated, as if something hit it."""
    health = b.world.need(uid, Health)
    apply(b.world, Damaged(uid, health.hp - left, "slashing", "a test blow", left, dealer=None))
    give(b, uid, "incapacitated")


def spent(events: list[dict[str, Any]]) -> tuple[str, int, int]:
    paid = [e for e in events if e["type"] == "spent"]
    return paid[0]["tier"], paid[0]["half"], paid[0]["bonus"]


# --- R-X11 Aid ---------------------------------------------------------------------------------


def test_R_X11_R_K2_aid_ends_incapacitated_and_brings_hp_up_to_1() -> None:
    """R-X11, R-K2: ana is down at -3 HP; mira's Aid (a 1½ Action) brings her to 1 HP and she
    is no longer Incapacitated; her next turn is hers again."""
    b = begin()
    down(b, "ana", -3)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert spent(events) == ("one_and_half", 2, 2)
    assert events[1:] == [
        {"type": "healed", "unit": "ana", "amount": 4, "source": "mira's aid (R-K2)", "hp": 1},
        {"type": "condition_lost", "unit": "ana", "condition": "incapacitated",
         "reason": "aided by mira (R-X11)"},
    ]  # fmt: skip
    end_turns(b, "mira")
    assert b.world.turn.current == "ana"


def test_R_K2_without_aid_an_incapacitated_ally_s_turn_is_passed_over() -> None:
    b = begin()
    down(b, "ana", 0)
    end_turns(b, "mira")
    assert b.world.turn.current == "bo"
    assert {"type": "turn_skipped", "unit": "ana", "reason": "incapacitated"} in [
        to_json(e) for e in b.log
    ]


def test_R_X11_R_K4_aid_takes_2_burning_stacks() -> None:
    """R-X11: "it loses 2 Burning stacks" — 3 become 1; 2 go out."""
    b = begin()
    give(b, "ana", "burning", 3)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert events[1:] == [
        {"type": "condition_gained", "unit": "ana", "condition": "burning", "value": 1}
    ]
    b = begin()
    give(b, "ana", "burning", 2)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert events[1:] == [
        {"type": "condition_lost", "unit": "ana", "condition": "burning",
         "reason": "mira put out the flames"},
    ]  # fmt: skip


def test_R_X11_R_K5_aid_rolls_first_aid_and_bleeding_loses_roll_minus_10_stacks() -> None:
    """R-X11: mira rolls First Aid, 1 + 6 + 6 = 13: ana's 5 Bleeding stacks lose 3."""
    b = begin(dice=(1,))
    give(b, "ana", "bleeding", 5)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert events[1:] == [
        {"type": "rolled", "unit": "mira", "purpose": "first aid for ana's bleeding", "die": 8,
         "result": 1, "bonus": 12, "total": 13},
        {"type": "condition_gained", "unit": "ana", "condition": "bleeding", "value": 2},
    ]  # fmt: skip


def test_R_X11_a_good_first_aid_roll_stops_the_bleeding() -> None:
    """8 + 12 = 20: 10 stacks off 4."""
    b = begin(dice=(8,))
    give(b, "ana", "bleeding", 4)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert events[-1] == {
        "type": "condition_lost", "unit": "ana", "condition": "bleeding",
        "reason": "mira stopped it",
    }  # fmt: skip


def test_R_X11_a_first_aid_roll_of_10_or_less_takes_no_stacks() -> None:
    """(roll − 10) is never negative: without First Aid mira rolls 3 + 6 = 9; ana keeps 2."""
    b = begin(dice=(3,), skills={})
    give(b, "ana", "bleeding", 2)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert types(events) == ["spent", "rolled"]
    assert conditions_of(b, "ana") == {"bleeding": 2}


def test_R_X11_an_ally_gets_every_part_that_applies() -> None:
    """R-X11 "every part that applies": Incapacitated, Burning 2 and Bleeding 3 at once."""
    b = begin(dice=(5,))
    down(b, "ana", 0)
    give(b, "ana", "burning", 2)
    give(b, "ana", "bleeding", 3)
    events = accepted(b, unit="mira", action="aid", target="ana")
    assert types(events) == [
        "spent", "healed", "condition_lost", "condition_lost", "rolled", "condition_lost",
    ]  # fmt: skip
    assert conditions_of(b, "ana") == {}
    assert hp(b, "ana") == 1


def test_R_X11_refusals() -> None:
    """R-X11: an ally, in reach, that needs something; and it is a 1½ Action."""
    b = begin()
    assert refused(b, unit="mira", action="aid", target="ana") == (
        "ana needs no aid: it is not Incapacitated, Burning or Bleeding (R-X11)"
    )
    assert refused(b, unit="mira", action="aid", target="mira") == "mira cannot aid itself (R-X11)"
    give(b, "bo", "burning", 2)
    assert refused(b, unit="mira", action="aid", target="bo") == (
        "bo at (3,1) is out of mira's reach (R-A4)"
    )
    end_turns(b, "mira")
    assert refused(b, unit="ana", action="aid", target="bo") == (
        "bo is not ana's ally; only an ally can be tended (R-X11)"
    )
    give(b, "mira", "burning", 2)
    accepted(b, unit="ana", action="aim")
    assert refused(b, unit="ana", action="aid", target="mira") == (
        "ana has only 1 Bonus Action left; Aid (1½ Action) costs 2 Bonus Actions (R-B4)"
    )


# --- R-X12 Administer --------------------------------------------------------------------------


def test_R_X12_administer_heals_an_ally_by_the_first_aid_level() -> None:
    """R-X12: a 1 Action; ana at 5 of 15 HP gains mira's First Aid 6."""
    b = begin(ana={"hp": 5})
    events = accepted(b, unit="mira", action="administer", target="ana")
    assert spent(events) == ("one", 2, 0)
    assert events[1:] == [
        {"type": "healed", "unit": "ana", "amount": 6, "source": "mira's first aid (R-X12)",
         "hp": 11},
    ]  # fmt: skip


def test_R_X12_healing_stops_at_the_maximum() -> None:
    b = begin(ana={"hp": 12})
    events = accepted(b, unit="mira", action="administer", target="ana")
    assert (events[-1]["amount"], events[-1]["hp"]) == (3, 15)


def test_R_X12_R_K2_first_aid_heals_a_downed_ally_but_only_aid_ends_incapacitated() -> None:
    """R-K2 (Decision): healing does not end Incapacitated."""
    b = begin()
    down(b, "ana", -2)
    accepted(b, unit="mira", action="administer", target="ana")
    assert hp(b, "ana") == 4
    assert "incapacitated" in conditions_of(b, "ana")


def test_R_X12_first_aid_refusals() -> None:
    b = begin(skills={})
    assert refused(b, unit="mira", action="administer", target="ana") == (
        "mira has no First Aid to heal with (R-X12)"
    )
    b = begin()
    assert refused(b, unit="mira", action="administer", target="ana") == (
        "ana is unhurt (15/15 HP); nothing to heal (R-X12)"
    )
    end_turns(b, "mira")
    assert refused(b, unit="ana", action="administer", target="bo") == (
        "bo is not ana's ally; only an ally can be tended (R-X12)"
    )


def test_R_X12_administer_a_carried_potion_to_a_willing_ally_with_immediate_effect() -> None:
    """R-X12: mira gives ana her healing potion (heal 6): it is gone from mira's belt and ana
    heals at once."""
    b = begin(ana={"hp": 4})
    events = accepted(b, unit="mira", action="administer", target="ana", item="healing_potion")
    assert spent(events) == ("one", 2, 0)
    assert events[1:] == [
        {"type": "item_consumed", "unit": "mira", "item": "mira.healing_potion"},
        {"type": "healed", "unit": "ana", "amount": 6, "source": "mira.healing_potion", "hp": 10},
    ]
    assert b.world.need("mira", Gear).carried == ()


def test_R_X12_a_held_draught_quickens_the_ally() -> None:
    b = begin(held=["quickening_draught"], carried=[])
    accepted(b, unit="mira", action="administer", target="ana", item="quickening_draught")
    assert conditions_of(b, "ana") == {"quickened": 1}
    assert b.world.need("mira", Gear).carried == ()


def test_R_X12_a_potion_for_a_downed_ally_heals_it_and_it_stays_down() -> None:
    """R-X12 with R-K2 (Decision): the potion heals; only Aid ends Incapacitated."""
    b = begin()
    down(b, "ana", 0)
    accepted(b, unit="mira", action="administer", target="ana", item="healing_potion")
    assert hp(b, "ana") == 6
    assert "incapacitated" in conditions_of(b, "ana")


def test_R_X12_potion_refusals() -> None:
    """R-X12: a potion or remedy the administrator has, for a willing creature in reach."""
    b = begin(held=["dagger"])
    assert refused(
        b, unit="mira", action="administer", target="ana", item="quickening_draught"
    ) == ("mira has no 'quickening_draught' to administer (R-X12)")
    assert refused(b, unit="mira", action="administer", target="ana", item="dagger") == (
        "mira.dagger is not a potion, remedy or food (R-X12)"
    )
    assert refused(b, unit="mira", action="administer", target="mira", item="healing_potion") == (
        "mira cannot administer itself (R-X12)"
    )
    end_turns(b, "mira")
    assert refused(b, unit="ana", action="administer", target="bo", item="healing_potion") == (
        "bo is not willing: only an ally drinks what ana gives (R-X12)"
    )


def test_tags_the_first_aid_roll_is_tagged_first_aid() -> None:
    b = begin(dice=(1,))
    give(b, "ana", "bleeding", 5)
    since = len(b.log)
    accepted(b, unit="mira", action="aid", target="ana")
    assert tagged(b, since) == [("rolled", RollKind.FIRST_AID)]
