"""Issue #29: one small map per evaluator where one decision is clearly right, and the AI at
`tactical` takes it. A failure prints what it chose and why, and the best of the rest."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from sim.ai.choice import Choice
from sim.ai.chooser import AI
from sim.ai.context import KILL, Context
from sim.ai.ranking import rank
from sim.ai.weights import book
from sim.core import actions as a
from sim.core.components import Hands
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction, AwaitingReaction, Battle, ReactionChoice
from sim.play.legal import legal_decisions
from sim.rules.combat.attack import weapon_kind
from sim.rules.combat.reactions import NONE
from tests.helpers import accepted, end_turns, give, scenario_text, seeded_battle, unit

Chosen = TypeVar("Chosen", bound=a.Action)


def turn_of(text: str, uid: str, seed: int = 1) -> Battle:
    """A battle on `text` at the start of `uid`'s turn, everyone before it having waited."""
    b = seeded_battle(text, seed)
    while b.world.turn.current != uid:
        end_turns(b, b.world.turn.current or "")
    return b


def chosen(b: Battle) -> Choice:
    """What `tactical` chooses now."""
    return AI("tactical").choose(b)


def why_not(b: Battle, choice: Choice) -> str:
    """What the AI chose and why, and its best few decisions with their scores."""
    pending = b.pending
    assert isinstance(pending, AwaitingAction)
    weights = book().levels["tactical"].weights
    ranked = rank(b.world, pending.unit, tuple(legal_decisions(b, slowed=False)), weights=weights)
    lines = [f"chose {choice.decision} ({choice.score:.2f}): {choice.why}", "ranked:"]
    lines += [f"  {c.score:6.2f} {c.why}" for c in ranked[:8]]
    return "\n".join(lines)


def expect(b: Battle, kind: type[Chosen]) -> tuple[Chosen, str]:
    """`tactical`'s choice now, which must be of `kind`: the decision and its reason."""
    choice = chosen(b)
    assert isinstance(choice.decision, kind), why_not(b, choice)
    return choice.decision, choice.why


def test_aim_before_a_long_shot() -> None:
    """An archer with a brute far off across an empty hall: nothing threatens it this turn,
    so +2 on the shot (R-X1) is worth more than the Bonus Action kept for a Dodge. The brute's
    hands are empty: with his greataxe he would Parry the arrow too (R-R2)."""
    b = turn_of(
        scenario_text(
            """
            ############
            #a.........#
            #.........g#
            ############
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "g", policy="ask", held=[]),
        ),
        "ana",
    )
    _, why = expect(b, a.Aim)
    assert why.startswith("aims at grok: +2 to hit worth ")


def test_feint_against_a_high_defence() -> None:
    """A bare-handed dwarf whose Dodge lets few blows through (AGI d10+8): a fighter with
    Deception sets up a blow at +5 (R-X10) rather than swing at 4 %."""
    b = turn_of(
        scenario_text(
            """
            #####
            #ad.#
            #####
            """,
            unit("ana", "blue", "human_fighter", "a", policy="ask", skills={"deception": 8})
            + "\n"
            + unit("dain", "red", "dwarf_guard", "d", policy="ask", held=[], agi="d10+8"),
        ),
        "ana",
    )
    assert expect(b, a.Feint)[0] == a.Feint("ana", target="dain")


def test_disengage_before_leaving_two_enemies() -> None:
    """A hurt archer between two brutes, its hit points short of their blows: slipping away
    (R-R5) spares it two Attacks of Opportunity, worth more than a blow of its bow at either.
    (At full health tactical stays and shoots, as classic does: leaving whenever two foes
    held it lost it the cliff fort's games.)"""
    b = turn_of(
        scenario_text(
            """
            ########
            #g.....#
            #ao....#
            ########
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask", hp=4, carried=[])
            + "\n"
            + unit("grok", "red", "orc_brute", "g", policy="ask")
            + "\n"
            + unit("olg", "red", "orc_brute", "o", policy="ask"),
        ),
        "ana",
    )
    expect(b, a.Disengage)


# The shipped goblin and shaman (sim/data/templates.toml), as the balance report's duel has them.
GOBLIN = {"str": "d4+1", "agi": "d10+3", "fcs": "d8+6", "res": "d8+5"}
SHAMAN = {"str": "d8+3", "agi": "d8+2", "fcs": "d8+7", "res": "d10+4"}


def goblin_before_shaman(rows: str) -> Battle:
    """The goblin's turn on `rows`, the shipped goblin at g and orc shaman at s."""
    return turn_of(
        scenario_text(
            rows,
            unit("gob", "blue", "goblin_sneak", "g", policy="ask", **GOBLIN)
            + "\n"
            + unit("urz", "red", "orc_shaman", "s", policy="ask", **SHAMAN),
        ),
        "gob",
    )


def test_walk_in_rather_than_step_in_before_the_foes_blows() -> None:
    """A goblin three cells from the orc shaman: a Walk (R-M1) or a Step brings it beside him.
    The Step keeps both its half-actions for a second blow at 25 % (0.8 damage expected), but
    its Bonus Action is the Dodge it needs there against his two blows (R-B2; undefended his
    first hits 98 %, 5 a hit, dodged 33 %): it walks in and keeps both. Priced by the threat
    where it started (three cells off, one blow at most), the Step came first (1.31 to 1.28)
    and the balance report's duel was over in 2.1 rounds (R-A2: 3-6)."""
    b = goblin_before_shaman(
        """
        ##########
        #........#
        #..g..s..#
        #........#
        ##########
        """
    )
    walk, why = expect(b, a.Walk)
    assert walk.to == Pos(5, 2), why
    assert why == "walks to 5,2 to attack urz"


def test_no_step_nearer_with_no_half_action_left() -> None:
    """The goblin has run (R-M1: 1 Action) and has no half-action left; the orc shaman is five
    cells off. A Step two cells nearer strikes nothing this turn and ends where his Walk brings
    his two blows, without the Dodge its Bonus Action would buy there (R-B2): it ends its turn
    with both. Priced by the threat where it started (none: no move but a Step was left to get
    there, so the Step bought the way in, not a half-action) it stepped in, as the dwarf after
    its Sprint stepped deeper into the ogre ford's beast and bats."""
    b = goblin_before_shaman(
        """
        ############
        #..........#
        #g.......s.#
        #..........#
        ############
        """
    )
    accepted(b, unit="gob", action="run", to=[4, 2])
    expect(b, a.EndTurn)


def test_hurt_it_weighs_the_threat_it_leaves_by_trade_hurt() -> None:
    """The same archer: `tactical` weighs a move's trade lightly (`trade`: coming forward to
    strike wins games), but a creature whose hit points are short of the blows where it
    stands by `trade_hurt`. With its whole trade that light the Disengage's escape is worth
    less than a Brace, and it stays between the brutes."""
    b = _held_archer()
    weights = book().levels["tactical"].weights
    assert weights.trade < weights.trade_hurt
    pending = b.pending
    assert isinstance(pending, AwaitingAction)
    listed = tuple(legal_decisions(b, slowed=False))
    light = replace(weights, trade_hurt=weights.trade)
    assert isinstance(rank(b.world, "ana", listed, weights=weights)[0].decision, a.Disengage)
    assert isinstance(rank(b.world, "ana", listed, weights=light)[0].decision, a.Brace)


def _held_archer() -> Battle:
    """The hurt archer between two brutes of `test_disengage_before_leaving_two_enemies`, the
    brutes never reacting (the tests play on past the archer's first decision)."""
    return turn_of(
        scenario_text(
            """
            ########
            #g.....#
            #ao....#
            ########
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask", hp=4, carried=[])
            + "\n"
            + unit("grok", "red", "orc_brute", "g", policy="never")
            + "\n"
            + unit("olg", "red", "orc_brute", "o", policy="never"),
        ),
        "ana",
    )


def test_disengaged_it_slips_away() -> None:
    """The Disengage spares only the Movement Action directly after it (R-R5): having paid its
    Bonus Action for it, the hurt archer moves off rather than stay to strike (tactical's
    creatures disengaged and then tripped or guarded where they stood)."""
    b = _held_archer()
    accepted(b, unit="ana", action="disengage")
    move, _ = expect(b, a.Movement)
    assert move.to is not None and move.to.x > 3, move


def test_no_disengage_without_a_move_after_it() -> None:
    """The hurt archer's ½ Actions spent on two shots: no Movement Action is left for the
    Disengage to cover (R-R5), so its Bonus Action is kept for a Dodge."""
    b = _held_archer()
    accepted(b, unit="ana", action="attack", target="olg")
    accepted(b, unit="ana", action="attack", target="olg")
    choice = chosen(b)
    assert not isinstance(choice.decision, a.Disengage), why_not(b, choice)


def test_grapple_a_caster() -> None:
    """Bare hands beside a mage: holding the caster (R-G1) is worth more than a punch."""
    b = turn_of(
        scenario_text(
            """
            #####
            #am.#
            #####
            """,
            unit("ana", "blue", "human_fighter", "a", policy="ask", held=[])
            + "\n"
            + unit("mage", "red", "human_mage", "m", policy="ask"),
        ),
        "ana",
    )
    _, why = expect(b, a.Grapple)
    assert why.endswith(", a caster")


def test_break_free() -> None:
    """A fighter held by a goblin in plate, two cells from its side's objective: its sword
    barely dents the plate, and breaking free (R-G2) frees the way."""
    b = turn_of(
        scenario_text(
            """
            #######
            #.mg.X#
            #######
            """,
            unit("mira", "blue", "human_fighter", "m", policy="ask")
            + "\n"
            + unit("grok", "red", "goblin_sneak", "g", policy="ask", armour="plate"),
            extra='\n[[objectives]]\nkind = "reach"\nteam = "blue"\nat = "X"\n'
            '[legend]\nX = { kind = "open" }\n',
        ),
        "mira",
    )
    give(b, "mira", "grappled", "grok")
    give(b, "grok", "grappling", "mira")
    expect(b, a.BreakFree)


def test_trip_a_dodger() -> None:
    """An orc raider with a club (a trip weapon, R-X19) beside an elf whose Dodge turns most
    blows, with another raider beside her: Prone, she cannot Dodge their blows and spends her
    next 1 Action getting up."""
    b = turn_of(
        scenario_text(
            """
            #####
            #re.#
            #.k.#
            #####
            """,
            unit("rok", "red", "orc_raider", "r", policy="ask")
            + "\n"
            + unit("kor", "red", "orc_raider", "k", policy="ask")
            + "\n"
            + unit("elle", "blue", "elf_skirmisher", "e", policy="ask"),
        ),
        "rok",
    )
    assert expect(b, a.Trip)[0].target == "elle"


def test_disarm_a_duellist() -> None:
    """A fighter whose longsword parries nearly every blow (STR d10+8, R-R2), between two
    orcs: disarmed (R-X5), she cannot Parry the other orc's blows, and spends half her turn
    picking the sword up (R-X7)."""
    b = turn_of(
        scenario_text(
            """
            #####
            #bfo#
            #####
            """,
            unit("grok", "red", "orc_brute", "b", policy="ask")
            + "\n"
            + unit("olg", "red", "orc_brute", "o", policy="ask")
            + "\n"
            + unit(
                "ana", "blue", "human_fighter", "f", policy="ask", held=["longsword"], str="d10+8"
            ),
        ),
        "grok",
    )
    assert expect(b, a.Disarm)[0].target == "ana"


def test_disarming_a_duellist_counts_the_shots_she_can_no_longer_parry() -> None:
    """R-R2: a Parry answers any attack, an arrow too, so disarming the fighter (R-X5) is worth
    more when an archer of grok's side can shoot her from across the hall: she could parry
    those shots as well as grok's blows."""
    rows = """
        ##########
        #bf......#
        #.......x#
        ##########
        """
    fighter = unit(
        "ana", "blue", "human_fighter", "f", policy="ask", held=["longsword"], str="d10+8"
    )

    def disarm_score(*others: str) -> float:
        grok = unit("grok", "red", "orc_brute", "b", policy="ask")
        shown = rows if others else rows.replace("x", ".")
        b = turn_of(scenario_text(shown, "\n".join((grok, fighter, *others))), "grok")
        pending = b.pending
        assert isinstance(pending, AwaitingAction)
        weights = book().levels["tactical"].weights
        ranked = rank(b.world, "grok", tuple(legal_decisions(b, slowed=False)), weights=weights)
        return next(c.score for c in ranked if isinstance(c.decision, a.Disarm))

    archer = unit("xan", "red", "human_archer", "x", policy="ask")
    alone, shot_at = disarm_score(), disarm_score(archer)
    assert shot_at > alone, (alone, shot_at)


def test_hide_behind_cover() -> None:
    """A goblin in cover with a brute coming (R-X8): unseen, the brute cannot aim at it and its
    knife's next blow meets no defence."""
    b = _in_cover(
        """
        #########
        #.......#
        #s...o..#
        #.......#
        #########
        """,
        "snik",
        "goblin_sneak",
    )
    expect(b, a.Hide)


def _in_cover(rows: str, hider: str, template: str) -> Battle:
    """`hider` (blue, `template`) on the cover cell `s` of `rows`, an orc brute at `o`: its
    turn."""
    return turn_of(
        scenario_text(
            rows,
            unit(hider, "blue", template, "s", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
            extra='[legend]\ns = { kind = "cover" }\n',
        ),
        hider,
    )


def test_throw_the_dagger_at_a_fleeing_archer() -> None:
    """An archer across a pit no jump of the fighter clears: the dagger (R-X17, not its only
    blade) is the one blow it can land this turn."""
    b = turn_of(
        scenario_text(
            """
            ##########
            #f.PPPP.a#
            #..PPPP..#
            ##########
            """,
            unit("ana", "blue", "human_fighter", "f", policy="ask", held=["longsword", "dagger"])
            + "\n"
            + unit("arch", "red", "human_archer", "a", policy="ask"),
            extra='[legend]\nP = { kind = "pit" }\n',
        ),
        "ana",
    )
    assert expect(b, a.Throw)[0] == a.Throw("ana", target="arch", item="ana.dagger")


def test_brace_against_a_charge() -> None:
    """A hurt halfling at the end of a hall, two brutes charging: nothing to strike, nowhere to
    go, no potion left and its last hit points at stake, it doubles its RES for their blows
    (R-X3)."""
    b = turn_of(
        scenario_text(
            """
            #########
            #.......#
            #m..og..#
            #.......#
            #########
            """,
            unit("mira", "blue", "halfling_medic", "m", policy="ask", hp=2, carried=[])
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask")
            + "\n"
            + unit("olg", "red", "orc_brute", "g", policy="ask"),
        ),
        "mira",
    )
    expect(b, a.Brace)


def test_prepare_an_attack_on_a_door() -> None:
    """A fighter in a doorway, a raider five cells off: rather than walk out to it, it
    prepares an attack for when the raider comes through (R-P1)."""
    b = turn_of(
        scenario_text(
            """
            ############
            #...#......#
            #...f.....r#
            #...#......#
            ############
            """,
            unit("ana", "blue", "human_fighter", "f", policy="ask")
            + "\n"
            + unit("rok", "red", "orc_raider", "r", policy="ask"),
        ),
        "ana",
    )
    assert expect(b, a.Prepare)[0].then == a.Attack("ana", target="rok")


def test_climb_to_high_ground() -> None:
    """An archer beside a climbable rock 3 m high, a brute coming: on top, the brute cannot
    strike it without climbing (R-A4, R-M7)."""
    b = turn_of(
        scenario_text(
            """
            ########
            #.TT...#
            #aTT.o.#
            #......#
            ########
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
            "[legend.T]\nheight = 6\nclimbable = true\n",
        ),
        "ana",
    )
    _, why = expect(b, a.Climb)
    assert ", to high ground" in why


def test_aid_a_downed_ally() -> None:
    """An ally down beside it, the foe far off: Aid (R-X11) puts it back in the fight."""
    b = turn_of(
        scenario_text(
            """
            ########
            #ab....#
            #.....o#
            ########
            """,
            unit("ana", "blue", "human_fighter", "a", policy="ask")
            + "\n"
            + unit("bram", "blue", "human_fighter", "b", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
        ),
        "ana",
    )
    give(b, "bram", "incapacitated")
    assert expect(b, a.Aid)[0] == a.Aid("ana", target="bram")


def test_stand_up_before_fighting() -> None:
    """Prone, with the foe four cells off: up first (R-M10), rather than crawl to it."""
    b = turn_of(
        scenario_text(
            """
            ########
            #a.....#
            #....o.#
            ########
            """,
            unit("ana", "blue", "human_fighter", "a", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
        ),
        "ana",
    )
    give(b, "ana", "prone")
    expect(b, a.StandUp)


def test_administer_first_aid_to_a_hurt_ally() -> None:
    """A medic beside a fighter at 3 hit points, no foe in sight: First Aid (R-X12)."""
    b = turn_of(
        scenario_text(
            """
            ########
            #mb....#
            #......#
            ########
            """,
            unit("mira", "blue", "halfling_medic", "m", policy="ask")
            + "\n"
            + unit("bram", "blue", "human_fighter", "b", policy="ask", hp=3),
        ),
        "mira",
    )
    assert expect(b, a.Administer)[0].target == "bram"


def test_classic_takes_none_of_them() -> None:
    """`classic` (sim/data/ai.toml) keeps the AI of before issue #29: it never aims."""
    b = turn_of(
        scenario_text(
            """
            ############
            #a.........#
            #.........g#
            ############
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "g", policy="ask", held=[]),
        ),
        "ana",
    )
    assert not isinstance(AI("classic").choose(b).decision, a.Aim)
    assert isinstance(AI("tactical").choose(b).decision, a.Aim)


def test_focus_before_the_fight() -> None:
    """A fighter that knows battle focus, the brute two cells off and coming: it Quickens
    itself (R-K3, R-B6; the ability's condition is what it is worth) rather than wait."""
    b = turn_of(
        scenario_text(
            """
            ########
            #.f..o.#
            ########
            """,
            unit("ana", "blue", "human_fighter", "f", policy="ask", abilities=["battle_focus"])
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
        ),
        "ana",
    )
    used, why = expect(b, a.Use)
    assert used.ability == "battle_focus", why


def test_pick_up_the_bow_at_its_feet() -> None:
    """An archer whose bow lies at its feet, a goblin far off across the hall: the bow taken up
    (R-X7) shoots the goblin from here, where the dagger in its belt, drawn for free, would
    have to walk to it first."""
    b = turn_of(
        scenario_text(
            """
            ############
            #a.........#
            #.........g#
            ############
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask", held=[], carried=["dagger"])
            + "\n"
            + unit("snik", "red", "goblin_sneak", "g", policy="ask"),
            extra='[[items]]\nkind = "shortbow"\nat = [1, 1]\n',
        ),
        "ana",
    )
    decision, why = expect(b, a.PickUp)
    assert "shortbow" in decision.item and why.startswith("picks up shortbow: ")


def test_aid_stops_an_allys_bleeding() -> None:
    """A fighter bleeding from a swarm's bites (3 stacks, R-K5: one hit point a turn until
    Aid stops it) beside the medic, the foe far off: her First Aid roll stops it (R-X11)."""
    b = turn_of(
        scenario_text(
            """
            ############
            #mb........#
            #.........o#
            ############
            """,
            unit("mira", "blue", "halfling_medic", "m", policy="ask")
            + "\n"
            + unit("bram", "blue", "human_fighter", "b", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
        ),
        "mira",
    )
    give(b, "bram", "bleeding", 3)
    decision, why = expect(b, a.Aid)
    assert decision.target == "bram" and "Bleeding stacks put out" in why


def test_an_archer_in_cover_hides_for_its_next_shot() -> None:
    """An archer in cover with a brute far off (R-X8): unseen, its next arrow meets no defence,
    worth more than a shot at 4 % now. Its fists' ambush alone made the Hide worth less than
    that shot."""
    b = _in_cover(
        """
        ##############
        #s...........#
        #..........o.#
        #............#
        ##############
        """,
        "ana",
        "human_archer",
    )
    expect(b, a.Hide)


def test_an_archer_keeps_its_only_bow() -> None:
    """An archer held in melee by a raider: throwing its only shortbow (R-X17) loses every shot
    it would take after, worth less than doing nothing (it was ranked above ending the turn)."""
    b = turn_of(
        scenario_text(
            """
            ########
            #.ao...#
            ########
            """,
            unit("ana", "blue", "human_archer", "a", policy="ask", carried=[])
            + "\n"
            + unit("grok", "red", "orc_raider", "o", policy="ask"),
        ),
        "ana",
    )
    weights = book().levels["tactical"].weights
    ranked = rank(b.world, "ana", tuple(legal_decisions(b, slowed=False)), weights=weights)
    thrown = [c for c in ranked if isinstance(c.decision, a.Throw)]
    assert thrown, "the shortbow can be thrown"
    assert all(c.score < 0 for c in thrown), [(c.score, c.why) for c in thrown]
    assert not isinstance(chosen(b).decision, a.Throw)


def test_mend_the_ally_a_blow_would_take_down() -> None:
    """A shaman beside a hurt archer that a brute's next blow would take down (R-K2): Mend
    lifts it past that blow, worth a creature kept in the fight, more than Quickening itself
    (it had been worth its hit points alone, less than Battle Focus)."""
    b = turn_of(
        scenario_text(
            """
            ##########
            #..zko...#
            #........#
            ##########
            """,
            unit("zul", "blue", "orc_shaman", "z", policy="ask")
            + "\n"
            + unit("kara", "blue", "human_archer", "k", policy="ask", hp=3)
            + "\n"
            + unit("grok", "red", "orc_brute", "o", policy="ask"),
        ),
        "zul",
    )
    cast, _ = expect(b, a.AbilityAction)
    assert cast.ability == "mend" and cast.target == "kara", cast


def test_no_interrupt_of_a_brace_for_a_long_shot() -> None:
    """A raider beside an archer that starts a Brace, a fighter of hers coming: an Interrupt
    (R-R7) at 23 % would spend both Bonus Actions, the Parry against the fighter's blow, to
    stop an action that costs the raider nothing. Tactical answers as the policy "auto" does
    (`classic` interrupts: the foes that reach it now alone were counted)."""
    b = turn_of(
        scenario_text(
            """
            #######
            #.ao..#
            #....g#
            #######
            """,
            unit("ana", "blue", "orc_raider", "a", policy="ask")
            + "\n"
            + unit("olg", "red", "human_archer", "o", policy="ask")
            + "\n"
            + unit("grok", "red", "human_fighter", "g", policy="ask"),
        ),
        "olg",
    )
    accepted(b, unit="olg", action="brace")
    assert b.pending == AwaitingReaction(
        "ana", "olg starts a Brace next to ana", ("interrupt", NONE)
    )
    choice = chosen(b)
    assert choice.decision == ReactionChoice("ana", NONE), choice.why
    assert "keeps its Bonus Actions" in choice.why
    assert AI("classic").choose(b).decision == ReactionChoice("ana", "interrupt")


def test_it_does_not_run_up_beside_a_far_stronger_foe_with_nothing_left() -> None:
    """A halfling medic and an orc brute across a small room: a Run brings her beside him with
    no Action left to strike, where his blows outweigh hers many times over. Weighed lightly
    (`trade`) that trade is worth the cells it closes; a lopsided one (`trade_lopsided`) is
    weighed by `trade_hurt`, and she walks up to a cell he does not reach."""
    b = turn_of(
        scenario_text(
            """
            #######
            #p...g#
            #.....#
            #######
            """,
            unit("pip", "blue", "halfling_medic", "p", policy="ask")
            + "\n"
            + unit("grok", "red", "orc_brute", "g", policy="ask"),
        ),
        "pip",
        seed=2,
    )
    weights = book().levels["tactical"].weights
    assert weights.trade < weights.trade_hurt and weights.trade_lopsided > 0
    pending = b.pending
    assert isinstance(pending, AwaitingAction)
    listed = tuple(legal_decisions(b, slowed=False))
    for given, near in ((weights, False), (replace(weights, trade_lopsided=0.0), True)):
        best = rank(b.world, "pip", listed, weights=given)[0]
        assert isinstance(best.decision, a.Movement) and best.decision.to is not None, best
        assert best.why.endswith(", closing in"), best.why
        assert (max(abs(best.decision.to.x - 5), abs(best.decision.to.y - 1)) <= 1) == near, best


def test_an_archer_beside_a_brute_gives_up_its_bow_shot_for_another_action() -> None:
    """An archer, bow in hand, beside an orc brute: what a ½ Action spent on something else
    gives up (`best_strike`, which a Trip, a Disarm or a Brace is weighed against) is the bow's
    shot, not the fists an unnamed attack in reach makes, 0 through the brute's hide: weighed
    so, the archer tripped him every turn and he stood up every turn, half of their duels
    capped at the round cap."""
    b = turn_of(
        scenario_text(
            "#####\n#ab.#\n#####",
            unit("ari", "blue", "human_archer", "a") + "\n" + unit("grok", "red", "orc_brute", "b"),
        ),
        "ari",
    )
    context = Context(b.world, "ari")
    fists = context.strike(context.here, 1)[0]
    bow = next(i for i in b.world.need("ari", Hands).items() if weapon_kind(b.world, i))
    _, shot, kill = context.hit_value("grok", bow, False)
    assert fists == 0.0 < shot
    assert context.best_strike() == shot + KILL * kill
