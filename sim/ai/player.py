"""The AI: a policy that plays any side through `pending` and `submit`, as a person would.

It scores the legal decisions (sim/play/legal.py) as Wesnoth's candidate actions do: each kind of
decision has an evaluator that gives it a value in hit points' worth, from the exact odds
(sim/play/odds.py) rather than from sampling: damage expected to be dealt and taken, kills, focus on
the weakest foe, the threat at a move's end cell weighed against what the creature can deal
from there, the way to a cell it can strike a foe from, the Attacks of Opportunity its path
provokes, objectives, and the terrain (a shove into deep water or off a ledge). Levels:

- `random`: uniform over the legal decisions, a baseline for comparisons;
- `easy`: greedy on damage dealt, blind to threats and Attacks of Opportunity, and cheap: it
  weighs only the attack on each foe, getting up or free, and the reach map's cells by how near
  they bring it to its side's objective or a foe, not every legal decision (`_greedy`);
- `normal`: the full evaluation above;
- `hard`: `normal`'s best few distinct candidates (and the best of other kinds close behind,
  ending the turn where it stands, and a move onto an objective), each played out on forks
  of the battle to the end of the creature's turn and through the foes' turns after it
  (`normal` playing them, as in its games) with the same fresh dice seeds, its
  attacks counted by their odds rather than their dice, and weighed by `prospect`: what each
  side has left, the foes' reply before its next turn (their strikes on one creature added
  up as they would land, the first few meeting a defence while it has Bonus Actions left),
  and the objectives (a foe that can take one next turn); `normal`'s best stands unless
  another is better by LOOKAHEAD_SWITCH (more for a contest, whose luck stays in).
  In a defence window it weighs each defence against the Hit Roll already rolled.

Every choice carries a reason in words, for the log ("attacks grok: 72 % to hit, 5.1 damage
expected"). Deterministic for a given seed: its only dice are its own seeded ones.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from sim.core import actions as a
from sim.core import events as ev
from sim.core.abilities import Damage, Heal
from sim.core.actions import Action, Refusal
from sim.core.catalog import Gadget, Weapon
from sim.core.components import Body, Budget, Gear, Health, Position
from sim.core.condition import Condition
from sim.core.creature import creatures, has, hp, incapacitated, item_kind, team_of
from sim.core.dice import SeededDice
from sim.core.geometry import Pos
from sim.core.grid import Kind
from sim.core.purpose import RollKind
from sim.core.world import World
from sim.play.apply import apply
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    BattleOver,
    Decision,
    Outcome,
    ReactionChoice,
    SetPolicy,
)
from sim.play.legal import Legal, legal_decisions, listing
from sim.play.odds import (
    AttackOdds,
    attack_odds,
    defense_total,
    grapple_chance,
    hit_total,
    shove_odds,
    trip_odds,
)
from sim.play.rulebook import RULEBOOK
from sim.rules.budget import refilled
from sim.rules.combat.attack import plan_attack, weapon_kind
from sim.rules.combat.casting import affected, known
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    bonus_left,
    expected_defence,
    held_weapon,
    reaction_price,
)
from sim.rules.combat.shove import push
from sim.rules.movement.climb import ClimbPlan, plan_climb
from sim.rules.objectives import Objective, Reach
from sim.rules.reach.fields import INF, Field, window_around
from sim.rules.reach.opportunity import held_by, provocations, provoked_along, provoking_cells
from sim.rules.reach.reachmap import ORDER, reach_map
from sim.rules.reach.threat import (
    enemies,
    gaps,
    reach_cells,
    reached_plane,
    reaches,
    reaching_from,
    reaching_plane,
)

LEVELS = ("random", "easy", "normal", "hard")
ROUND_CAP = 30  # a game AIs play out stops here when no side has won (a "capped" game)
log = logging.getLogger(__name__)
KILL = 8.0  # a foe taken out of the fight is worth this many hit points beyond its damage
LOOKAHEAD_CANDIDATES = 3  # `hard` plays out normal's best few decisions
LOOKAHEAD_EXTRA = 2  # and the best of up to this many other kinds close behind them
LOOKAHEAD_MARGIN = 3.0  # "close behind": within this many hit points' worth of the best
LOOKAHEAD_SEEDS = 4  # dice seeds each candidate is played with
LOOKAHEAD_FIRST = 2  # after this many seeds, a candidate behind the best by more than
LOOKAHEAD_CUT = 4.0  # this many hit points' worth a seed is not played on
LOOKAHEAD_SWITCH = 0.5  # hard overrules normal's best only by this much on average
LOOKAHEAD_CONTEST_SWITCH = 2.0  # or by this much with a contest (Trip, Shove, Grapple)
LOOKAHEAD_STEPS = 80  # decisions a look-ahead plays at most (its turn and the foes' after it)
WIN = 100.0  # a battle won, in hit points' worth, as `hard` weighs a look-ahead
COUNTER = 0.5  # the share of its own next strike `hard` counts (the foes move first)
GOAL_STEP = 1.0  # a cell nearer an objective, in hit points' worth
GOAL_HELD = 8  # the cells more an objective whose every cell is barred counts as away
GOAL_NEXT = WIN / 2  # a foe that can take its objective in its next turn (it may not)
GOAL_SCAN = 16  # farther than this many cells, no move of one turn reaches an objective


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision and why it was taken, in words a player reads in the log."""

    decision: Decision
    score: float
    why: str


class AI:
    """One policy for one or more sides: `decide(battle)` gives the next decision of whoever
    the battle waits for."""

    def __init__(self, level: str = "normal", seed: int = 0) -> None:
        if level not in LEVELS:
            raise ValueError(f"AI level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.level = level
        self.seed = seed
        self._dice = SeededDice(seed)

    def decide(self, battle: Battle) -> Decision:
        return self.choose(battle).decision

    def choose(self, battle: Battle, avoid: Collection[Decision] = ()) -> Choice:
        """The decision to submit now; `avoid`: decisions `submit` refused in this state (a
        fault in legal_decisions), which are not offered again."""
        if self.level == "random":
            # One draw from the whole list, made without making every move of it.
            found: Sequence[Legal] = listing(battle)
            if avoid:
                found = tuple(legal for legal in found if legal.decision not in avoid)
            if not found:
                raise ValueError(f"nothing is legal while the battle waits for {battle.pending}")
            pick = found[self._dice.roll(len(found)) - 1]
            return Choice(pick.decision, 0.0, "a random legal decision")
        pending = battle.pending
        if self.level == "easy":
            if isinstance(pending, AwaitingAction):
                return _greedy(battle, pending.unit, avoid)
            if isinstance(pending, AwaitingReaction) and pending.kind == "interrupt":
                # Weighing an Interrupt (R-R7) costs more than all else easy weighs: it keeps
                # its Bonus Actions for defence.
                return Choice(ReactionChoice(pending.unit, NONE), 0.0, "keeps its Bonus Actions")
        listed = tuple(
            legal for legal in legal_decisions(battle, slowed=False) if legal.decision not in avoid
        )
        if not listed:
            raise ValueError(f"nothing is legal while the battle waits for {battle.pending}")
        if isinstance(pending, AwaitingReaction):
            return _react(battle, pending, listed, known_roll=self.level == "hard")
        assert isinstance(pending, AwaitingAction)
        ranked = rank(battle.world, pending.unit, listed, objectives=battle.objectives)
        if self.level == "hard" and len(ranked) > 1:
            return self._look_ahead(battle, pending.unit, ranked)
        return ranked[0]

    def _look_ahead(self, battle: Battle, unit: str, ranked: list[Choice]) -> Choice:
        """Play each of `normal`'s few best distinct candidates, then `normal` to the end of
        `unit`'s turn and through the foes' turns after it (`_play_out`), on forks of the
        battle with the same dice seeds for every candidate (so the candidates differ by what
        they do, not by their luck), and keep the one whose turns end best on average by
        `prospect`: what each side has left and how the foes' reply and the objectives stand.
        `normal`'s own best stands unless another does clearly better (by LOOKAHEAD_SWITCH):
        four seeds cannot tell a smaller gap from luck."""
        team = team_of(battle.world, unit)
        guide = AI("normal", self.seed)
        goals = {cell for o in battle.objectives if isinstance(o, Reach) for cell in o.cells}
        top = _candidates(ranked, goals)
        # Seeds drawn from the AI's own dice: a new set each decision, the same for a seed.
        seeds = [self._dice.roll(1_000_000) for _ in range(LOOKAHEAD_SEEDS)]
        totals = [0.0] * len(top)
        alive = list(range(len(top)))
        played = 0
        for seed in seeds:
            for i in alive:
                totals[i] += _played_out(battle, unit, top[i], seed, guide, team)
            played += 1
            if played == LOOKAHEAD_FIRST:
                # Racing: a candidate this far behind after the first seeds is not played on;
                # normal's best always is, as the measure the others must clearly beat.
                lead = max(totals[i] for i in alive)
                alive = [i for i in alive if i == 0 or totals[i] >= lead - LOOKAHEAD_CUT * played]
                if len(alive) == 1:
                    break
        pick = max(alive, key=lambda i: (totals[i], -i))
        # A contest's luck (a Trip's knock-down, a Shove's push) is not taken out: its few
        # seeds swing by a creature knocked Prone or not, so it must do clearly better.
        contest = isinstance(top[pick].decision, _CONTESTS)
        margin = LOOKAHEAD_CONTEST_SWITCH if contest else LOOKAHEAD_SWITCH
        if totals[pick] - totals[0] < margin * played:
            pick = 0  # a look-ahead barely better is within its noise: normal's choice stands
        best, best_value = top[pick], totals[pick] / played
        return Choice(best.decision, best_value, best.why + " (looked ahead)")


def _played_out(
    battle: Battle, unit: str, choice: Choice, seed: int, guide: AI, team: str
) -> float:
    """How well `team` stands, by `prospect`, on `_play_out`'s fork: `choice`, the rest of
    `unit`'s turn and the foes' turns after it, with the luck of their attacks taken out."""
    fork, luck = _play_out(battle, unit, choice, seed, guide, team)
    return prospect(fork, team) - luck.total


def _play_out(
    battle: Battle, unit: str, choice: Choice, seed: int, guide: AI, team: str
) -> tuple[Battle, _Luck]:
    """A fork of `battle` with dice `seed` once `choice` is submitted and `guide` has played
    the rest of `unit`'s turn, then the turns of the foes that come after it, up to the next
    turn of a creature of `team` (every reaction on the way too, as they come). The foes are
    played by `normal` because that is what `hard` meets in its games, and `normal` decides
    without dice: their real reply (a foe that runs to the wounded, one that disengages,
    one that interrupts) says more than `prospect`'s estimate of it, which stays for the
    turns after (on brawl, skirmish and spells `hard` won 87 of 120 games against `normal`
    with the foes' turns played, 78 with its own turn alone). The luck of every attack made
    on the way is taken out: each counts the damage and the kill it was expected to make,
    not what its dice gave, so the candidates are told apart by what they do rather than by
    a few rolls (a control variate: with it the spread of the difference between two
    candidates on one seed fell from about 4 hit points to 1.5 on the shipped scenarios; the
    seeds still decide all else)."""
    fork = battle.fork(SeededDice(seed))
    luck = _Luck(fork, team)
    luck.submit(choice.decision)
    turn_over = False  # `unit`'s turn has ended: another creature acts
    for _ in range(LOOKAHEAD_STEPS):  # bounds a bad loop
        pending = fork.pending
        if not isinstance(pending, AwaitingAction | AwaitingReaction):
            break
        if isinstance(pending, AwaitingAction):
            turn_over = turn_over or pending.unit != unit
            # Its own next turn too, when it is the last of its side standing.
            if turn_over and team_of(fork.world, pending.unit) == team:
                break
        if isinstance(luck.submit(guide.decide(fork)), Refusal):
            break
    return fork, luck


@dataclass(slots=True)
class _Open:
    """An attack submitted in a look-ahead whose Hit Roll has not been resolved yet."""

    attacker: str
    target: str
    damage: float  # expected, the target defending as well as it can
    kill: float  # the chance it takes the target down
    mark: int  # the length of the log when it was submitted
    sign: float  # +1 for an attack of the side that looks ahead, -1 for a foe's


class _Luck:
    """What the dice gave the attacks of a look-ahead beyond what they were expected to,
    in hit points' worth for `team` (as `standing` counts them)."""

    def __init__(self, battle: Battle, team: str) -> None:
        self.battle = battle
        self.team = team
        self.total = 0.0
        self.open: list[_Open] = []

    def submit(self, decision: Decision) -> Outcome:
        battle = self.battle
        pending = battle.pending
        if isinstance(decision, a.Attack) and isinstance(pending, AwaitingAction):
            self._expect(decision.actor, decision.target, decision)
        elif (
            isinstance(decision, ReactionChoice)
            and isinstance(pending, AwaitingReaction)
            and pending.kind in ("interrupt", "attack_of_opportunity")
            and decision.choice != NONE
            and battle.resolving is not None
        ):
            # An Interrupt or an Attack of Opportunity is a strike on the one acting (R-R4,
            # R-R7), with the melee weapon in hand: its luck is taken out as an attack's is.
            self._expect(decision.unit, battle.resolving.actor, None)
        outcome = battle.submit(decision)
        if self.open:
            self._settle()
        return outcome

    def _expect(self, attacker: str, target: str, attack: a.Attack | None) -> None:
        """Note what a strike of `attacker` on `target` is expected to deal: `attack`, the
        Attack decision, or None for a reaction's strike with the melee weapon in hand."""
        world = self.battle.world
        if target not in creatures(world) or incapacitated(world, target):
            return
        if attack is None:
            weapon, melee = held_weapon(world, attacker, melee=True), True
        else:
            plan = plan_attack(world, attack)
            if isinstance(plan, Refusal):
                return
            weapon, melee = plan.weapon, plan.melee
        odds = attack_odds(world, attacker, target, weapon=weapon, melee=melee)
        worst = min(odds, key=lambda o: o.damage)
        left = max(hp(world, target), 0)
        sign = 1.0 if team_of(world, attacker) == self.team else -1.0
        kill = worst.hit if worst.per_hit >= left else 0.0
        damage = worst.hit * min(worst.per_hit, left)
        self.open.append(_Open(attacker, target, damage, kill, len(self.battle.log), sign))

    def _settle(self) -> None:
        log = self.battle.log
        still: list[_Open] = []
        for attack in self.open:
            found = next(
                (
                    k
                    for k, e in enumerate(log[attack.mark :], attack.mark)
                    if isinstance(e, ev.AttackResolved)
                    and e.attacker == attack.attacker
                    and e.target == attack.target
                ),
                None,
            )
            if found is None:
                lost = any(
                    isinstance(e, ev.ActionLost) and e.unit == attack.attacker
                    for e in log[attack.mark :]
                )
                if not lost:  # an interrupted attack is what happened, not luck
                    still.append(attack)
                continue
            dealt, down = 0.0, 0.0
            after = log[found + 1] if found + 1 < len(log) else None
            if isinstance(after, ev.Damaged) and after.unit == attack.target:
                before = after.hp + after.amount
                dealt = float(max(before, 0) - max(after.hp, 0))
                down = 1.0 if before > 0 >= after.hp else 0.0
            self.total += attack.sign * (dealt - attack.damage + KILL * (down - attack.kill))
        self.open = still


_CONTESTS = (a.Trip, a.Shove, a.Grapple, a.Disarm)


def _candidates(ranked: list[Choice], goals: Collection[Pos] = ()) -> list[Choice]:
    """The decisions `hard` plays out: `normal`'s best few; the best of each other kind of
    decision close behind them (a move when the best are attacks, ending the turn), so the
    look-ahead can overrule `normal` where its scoring misjudges one kind against another;
    the best move onto an objective's cell, to take it or to bar it; and, with no foe to
    strike from where it stands, ending the turn there, keeping its Bonus Actions for
    defences and letting the foes come to it (`normal` closes in, and spends its move and a
    Bonus Action to). Beside a foe it strikes: idling there only lets the look-ahead's luck
    (an Interrupt that hits) pick a turn that wins nothing."""
    top = ranked[:LOOKAHEAD_CANDIDATES]
    kinds = {type(c.decision) for c in top}
    for choice in ranked[LOOKAHEAD_CANDIDATES:]:
        if len(top) >= LOOKAHEAD_CANDIDATES + LOOKAHEAD_EXTRA:
            break
        kind = type(choice.decision)
        # Only a kind normal weighs: one it has nothing to say of (a Drop) would be played
        # out as normal's turn after it, weighed against normal's best alone.
        close = choice.score >= ranked[0].score - LOOKAHEAD_MARGIN
        if kind not in kinds and _evaluator(choice.decision) is not None and close:
            kinds.add(kind)
            top.append(choice)
    onto = next(
        (c for c in ranked if isinstance(c.decision, a.Movement) and c.decision.to in goals),
        None,
    )
    if onto is not None and onto not in top:
        top.append(onto)
    hold = next((c for c in ranked if isinstance(c.decision, a.EndTurn)), None)
    striking = any(isinstance(c.decision, a.Attack) and c.score > 0 for c in ranked)
    if hold is not None and hold not in top and not striking:
        top.append(hold)
    return top


def players(levels: Mapping[str, str], seed: int) -> dict[str, AI]:
    """One AI per team at its level, each with its own dice derived from `seed`, so a game is
    the same for the same seed whatever else is played."""
    return {
        team: AI(levels[team], seed * 1_000_003 + index)
        for index, team in enumerate(sorted(levels))
    }


def seats(spec: str, teams: Collection[str], default: str = "normal") -> dict[str, str]:
    """The sides an `--ai` option hands to the AI, with their levels: "red", "red=hard" or
    "blue=normal,red=hard". ValueError says what is wrong in words."""
    out: dict[str, str] = {}
    for part in spec.split(","):
        team, _, level = part.strip().partition("=")
        team, level = team.strip(), level.strip() or default
        if not team:
            raise ValueError(f"--ai wants TEAM or TEAM=LEVEL, e.g. red=hard, not {spec!r}")
        if team not in teams:
            raise ValueError(f"--ai: no team {team!r} in this scenario (teams: {', '.join(teams)})")
        if level not in LEVELS:
            raise ValueError(f"--ai: level must be one of {', '.join(LEVELS)}, not {level!r}")
        if team in out:
            raise ValueError(f"--ai names team {team!r} twice")
        out[team] = level
    return out


def take_seats(battle: Battle, teams: Collection[str]) -> list[ev.Event]:
    """Hand `teams` to the AI: their creatures' reaction windows are asked of it rather than
    answered by a standing policy (SetPolicy "ask", recorded like any decision). The events."""
    events: list[ev.Event] = []
    for unit in creatures(battle.world):
        if team_of(battle.world, unit) in teams:
            outcome = battle.submit(SetPolicy(unit, "ask"))
            assert not isinstance(outcome, Refusal), outcome
            events += outcome.events
    return events


def play(
    battle: Battle,
    players: Mapping[str, AI],
    *,
    round_cap: int = ROUND_CAP,
    report: Callable[[str, Choice, Outcome], None] | None = None,
) -> str:
    """Submit the AIs' decisions for the teams in `players` until the battle ends ("over"),
    it waits for a team without a player ("waiting"), or a round past `round_cap` begins
    ("capped"). `report(unit, choice, outcome)` hears each decision submitted and what came of
    it. A decision `submit` refuses is logged and not chosen again in that state."""
    while True:
        pending = battle.pending
        if isinstance(pending, BattleOver):
            return "over"
        if battle.world.turn.round > round_cap:
            return "capped"
        player = players.get(team_of(battle.world, pending.unit))
        if player is None:
            return "waiting"
        refused: list[Decision] = []
        while True:
            choice = player.choose(battle, refused)
            outcome = battle.submit(choice.decision)
            if report is not None:
                report(pending.unit, choice, outcome)
            if not isinstance(outcome, Refusal):
                break
            log.warning("legal_decisions listed a refused decision %s: %s", choice, outcome)
            refused.append(choice.decision)


def prospect(battle: Battle, team: str) -> float:
    """How well `team` stands at the end of one of its creatures' turns, in hit points'
    worth, as `hard` weighs a look-ahead: WIN for a battle won (less for lost); else
    `standing`, less what the foes can be expected to deal in the reply they make before the
    creature's next turn, plus a share of what `team` can deal back, and the way to the
    objectives."""
    pending = battle.pending
    world = battle.world
    if isinstance(pending, BattleOver):
        return (WIN if team in pending.winners else -WIN) + standing(world, team)
    value = standing(world, team)
    ours: list[str] = []
    theirs: list[str] = []
    for unit in creatures(world):
        if not incapacitated(world, unit):
            (ours if team_of(world, unit) == team else theirs).append(unit)
    value -= _replies(world, theirs, ours, fresh=False)
    value += COUNTER * _replies(world, ours, theirs, fresh=True)
    for objective in battle.objectives:
        if isinstance(objective, Reach):
            sign = -1.0 if objective.team == team else 1.0
            value += sign * GOAL_STEP * _way(world, objective, ours if sign < 0 else theirs)
            if sign > 0 and _within_reach(world, objective, theirs):
                value -= GOAL_NEXT
    return value


def _within_reach(world: World, objective: Reach, side: list[str]) -> bool:
    """Whether one of `side` can end a move on a free cell of the objective in its next turn
    (R-M5: none ends where another creature stands), with a fresh turn's budget (R-B2)."""
    taken = {world.need(u, Position).cell for u in creatures(world)}
    free = [g for g in objective.cells if g not in taken]
    for unit in side:
        here = world.need(unit, Position).cell
        if not free or min(_gap(here, g) for g in free) > GOAL_SCAN:
            continue
        cells = reach_map(world, unit, budget=refilled(world.rules))
        if any(g in cells for g in free):
            return True
    return False


def _way(world: World, objective: Reach, side: list[str]) -> float:
    """How many cells the nearest of `side` stands from an objective cell it can end a move
    on: one a creature of another team stands on is barred (R-M5), and with every cell barred
    the way is GOAL_HELD cells longer."""
    if not side:
        return 0.0
    barred = {
        world.need(u, Position).cell
        for u in creatures(world)
        if team_of(world, u) != objective.team and not incapacitated(world, u)
    }
    open_cells = [g for g in objective.cells if g not in barred]
    cells = open_cells or list(objective.cells)
    gap = min(_gap(world.need(u, Position).cell, g) for u in side for g in cells)
    return float(gap + (0 if open_cells else GOAL_HELD))


def _replies(world: World, side: list[str], targets: list[str], *, fresh: bool) -> float:
    """What `side` can be expected to win in its next turns against `targets`: each creature
    strikes the one it hurts most (`_shots`), and the strikes on one target are added up as
    they would land: the first few meet a defence, as many as the target has Bonus Actions
    for (R-B2; `fresh`: the targets' turns come first and refill them), the rest none; then
    the damage expected, no more than the target's hit points, and KILL with the chance they
    take it down. Each foe counted alone, two foes beside a creature that had spent its
    Bonus Actions on a Sprint looked no worse than one far off, and `hard` ran up to them."""
    shots: dict[str, list[tuple[float, float, float, int]]] = {}
    for unit in side:
        found = _shots(world, unit, targets)
        if found is not None:
            target, weight, defended, bare, per_hit = found
            shots.setdefault(target, []).extend([(weight, defended, bare, per_hit)] * 2)
    total = 0.0
    for target, strikes in shots.items():
        left = max(hp(world, target), 0)
        guards = refilled(world.rules).bonus if fresh else bonus_left(world, target)
        # The chance of each total of damage dealt, up to what takes the target down.
        chances = np.zeros(left + 1)
        chances[0] = 1.0
        expected = 0.0
        for index, (weight, defended, bare, per_hit) in enumerate(strikes):
            hit = weight * (defended if index < guards else bare)
            expected += hit * per_hit
            moved = np.zeros(left + 1)
            for dealt, chance in enumerate(chances):
                moved[min(left, dealt + per_hit)] += chance * hit
                moved[dealt] += chance * (1.0 - hit)
            chances = moved
        down = float(chances[left]) if left > 0 else 0.0
        total += min(expected, float(left)) + KILL * down
    return total


def _shots(
    world: World, foe: str, targets: list[str]
) -> tuple[str, float, float, float, int] | None:
    """The one of `targets` that `foe` hurts most on its next turn, with two strikes where it
    can attack it from where it stands (in reach, or in range of the bow in its hands), each
    counted as `weight` of a strike where it must come to it (as `threat` counts them, with
    its melee weapon): (target, weight, chance to hit a target that defends as well as it
    can, chance to hit one that cannot, damage of a hit)."""
    here = world.need(foe, Position).cell
    best: tuple[str, float, float, float, int] | None = None
    worth = 0.0
    for target in targets:
        plan = plan_attack(world, a.Attack(foe, target=target))
        if isinstance(plan, Refusal):
            weight = _attacks(False, _gap(here, world.need(target, Position).cell))
            if not weight:
                continue
            odds = _foe_odds(world, foe, target)
        else:
            weight = 2.0
            odds = attack_odds(world, foe, target, weapon=plan.weapon, melee=plan.melee)
        worst = min(odds, key=lambda o: o.damage)
        bare = next((o for o in odds if o.defence == NONE), worst)
        value = weight * (worst.damage + bare.damage)
        if best is None or value > worth:
            best, worth = (target, weight / 2, worst.hit, bare.hit, worst.per_hit), value
    return best


def percent(chance: float) -> str:
    """A chance as a player reads it: "72 %"."""
    return f"{round(chance * 100)} %"


_VERBS = {"dodge": "dodges", "parry": "parries", "block": "blocks"}


def standing(world: World, team: str) -> float:
    """How well `team` stands: its creatures' hit points less its foes', with KILL for every
    creature out of the fight."""
    value = 0.0
    for unit in creatures(world):
        sign = 1.0 if team_of(world, unit) == team else -1.0
        down = incapacitated(world, unit)
        value += sign * (max(hp(world, unit), 0) - (KILL if down else 0.0))
    return value


# --- reactions --------------------------------------------------------------------------------


def _react(
    battle: Battle, pending: AwaitingReaction, listed: tuple[Legal, ...], known_roll: bool = False
) -> Choice:
    """Defend with the defence that adds most; take an Attack of Opportunity; Interrupt only
    when what it wins beats the defences its 2 Bonus Actions would otherwise pay for (R-R7);
    catch only with a free hand (dropping a weapon to catch costs more than it saves)."""
    world = battle.world
    names = [d.decision.choice for d in listed if isinstance(d.decision, ReactionChoice)]
    unit = pending.unit
    if pending.kind == "defence":
        usable = [n for n in names if n != NONE]
        if usable and known_roll:
            known = _defend_known(battle, unit, names)
            if known is not None:
                return known
        if usable:
            best = max(usable, key=lambda n: (expected_defence(world, unit, n), -usable.index(n)))
            why = f"{_VERBS.get(best, best)}: the best defence it has"
            return Choice(ReactionChoice(unit, best), 1.0, why)
    elif pending.kind == "catch":
        if "catch" in names:
            return Choice(ReactionChoice(unit, "catch"), 1.0, "catches with a free hand")
    elif pending.kind == "interrupt":
        acting = battle.resolving
        if "interrupt" in names and acting is not None:
            gain, why = _interrupt_value(world, unit, acting)
            if gain > 0:
                return Choice(ReactionChoice(unit, "interrupt"), gain, why)
            return Choice(ReactionChoice(unit, NONE), 0.0, why)
    else:
        chosen = next((n for n in names if n != NONE), None)
        if chosen is not None:
            return Choice(ReactionChoice(unit, chosen), 1.0, f"takes the {chosen}")
    return Choice(ReactionChoice(unit, NONE), 0.0, "lets it pass")


def _defend_known(battle: Battle, unit: str, names: list[str]) -> Choice | None:
    """`hard`'s defence: the attack's Hit Roll is known when the window opens (R-A2: the
    defence answers a rolled attack), so each defence is worth its chance to beat that total
    times the damage of a hit, less the defences its Bonus Actions would no longer pay for
    against the attacks still to come before this creature's next turn."""
    world = battle.world
    acting = battle.resolving
    rolled = next(
        (e for e in reversed(battle.log) if isinstance(e, ev.Rolled) and e.tag is RollKind.HIT),
        None,
    )
    if not isinstance(acting, a.Attack) or rolled is None:
        return None
    plan = plan_attack(world, acting)
    if isinstance(plan, Refusal):
        return None
    odds = attack_odds(world, acting.actor, unit, weapon=plan.weapon, melee=plan.melee)
    per_hit = odds[0].per_hit if odds else 0.0
    # A later attack, its roll unknown: what a defence saves against it on average.
    later = max((o.hit for o in odds), default=0.0) - min((o.hit for o in odds), default=0.0)
    coming = world.need(acting.actor, Budget).half  # each ½ Action another attack
    here = world.need(unit, Position).cell
    for foe in enemies(world, unit):
        there = world.need(foe, Position).cell
        standing_foe = foe != acting.actor and not incapacitated(world, foe)
        if standing_foe and reaches(world, foe, there, here):
            coming += 1
    left = bonus_left(world, unit)

    def worth(option: str) -> float:
        saved = 1.0 - defense_total(world, unit, option).cdf_below(rolled.total)
        price = reaction_price(world, unit, "defence", option, slow=False)
        cost = price.bonus if option != NONE else 0
        short = max(0, coming - (left - cost)) - max(0, coming - left)
        return saved * per_hit - short * later * per_hit

    best = max(names, key=lambda n: (worth(n), n == NONE))
    if best == NONE:
        why = f"lets the Hit Roll {rolled.total} be: a defence is worth more later"
    else:
        why = f"{_VERBS.get(best, best)} against a Hit Roll of {rolled.total}"
    return Choice(ReactionChoice(unit, best), worth(best), why)


def _interrupt_value(world: World, unit: str, acting: Action) -> tuple[float, str]:
    """What interrupting `acting` is worth to `unit` over letting it be, in hit points: its
    own strike (the actor may only Dodge it, R-R7) and, with the chance it hits, the action
    lost; less the defences the 2 Bonus Actions would have paid for before its next turn."""
    actor = acting.actor
    weapon = held_weapon(world, unit, melee=True)
    odds = [
        o
        for o in attack_odds(world, unit, actor, weapon=weapon, melee=True)
        if o.defence in ("none", "dodge")
    ]
    worst = min(odds, key=lambda o: o.hit)
    kill = worst.hit if worst.per_hit >= hp(world, actor) else 0.0
    target = getattr(acting, "target", "")
    prevented = 1.0
    if isinstance(acting, a.Attack | a.Trip | a.Disarm | a.Grapple | a.Shove | a.Throw):
        if target and not incapacitated(world, target):
            prevented = _foe_damage(world, actor, target)
    elif isinstance(acting, a.Aid):
        prevented = KILL  # a foe back in the fight
    elif isinstance(acting, a.AbilityAction):
        prevented = 4.0
    left = bonus_left(world, unit) - world.rules.reactions.interrupt_bonus
    exposed = 0.0
    if left < world.rules.reactions.defence_bonus:
        # No defence until its next turn: each foe that reaches it strikes harder.
        here = world.need(unit, Position).cell
        for foe in enemies(world, unit):
            if incapacitated(world, foe):
                continue
            there = world.need(foe, Position).cell
            if reaches(world, foe, there, here):
                exposed += _exposure(world, foe, unit)
    gain = worst.hit * (worst.per_hit + prevented) + KILL * kill - exposed
    why = (
        f"interrupts {actor}: {percent(worst.hit)} to hit and stop it"
        if gain > 0
        else f"lets {actor} act: an Interrupt would leave it without a defence"
    )
    return gain, why


def _exposure(world: World, foe: str, unit: str) -> float:
    """How much more one attack of `foe` deals when `unit` cannot defend."""
    odds = _foe_odds(world, foe, unit)
    undefended = next((o.damage for o in odds if o.defence == NONE), 0.0)
    return undefended - min(o.damage for o in odds)


# --- actions ------------------------------------------------------------------------------------


def rank(
    world: World,
    unit: str,
    listed: tuple[Legal, ...],
    *,
    objectives: tuple[Objective, ...] = (),
) -> list[Choice]:
    """The legal decisions of `unit`'s turn, best first (stable: the legal order breaks ties)."""
    context = _Context(world, unit, objectives)
    scored = [context.score(legal) for legal in listed]
    order = sorted(range(len(scored)), key=lambda i: -scored[i].score)
    return [scored[i] for i in order]


class _Context:
    """What every evaluation of one creature's decision needs, worked out once."""

    def __init__(self, world: World, unit: str, objectives: tuple[Objective, ...] = ()) -> None:
        self.world = world
        self.unit = unit
        self.team = team_of(world, unit)
        self.here = world.need(unit, Position).cell
        self.foes = [f for f in enemies(world, unit) if not incapacitated(world, f)]
        self.budget = world.need(unit, Budget)
        self._paths: dict[Pos, tuple[Pos, ...]] = {}
        self._threat: dict[Pos, float] = {}
        self._attack_value: dict[tuple[str, Pos, int], tuple[float, str]] = {}
        self.maps: dict[type[a.Movement], Mapping[Pos, Any]] = {}
        self._foe_damage: dict[str, float] = {}
        self._own_damage: dict[str, float] = {}
        self._menace: dict[Pos, float] = {}
        self._strike: dict[tuple[Pos, int], tuple[float, str]] = {}
        self._strike_cells: list[Pos] | None = None  # where it could strike a foe from
        self._reached: frozenset[Pos] | None = None
        self._from = np.zeros((0, 2), dtype=np.int64)  # what nearest_foe measures from
        self._nearest: dict[Pos, int] = {}  # nearest_foe's answers
        self._nearest_reached: dict[type[a.Movement], int] = {}
        self._provoked: dict[type[a.Movement], npt.NDArray[np.float64]] = {}
        self._nearest_plane: npt.NDArray[np.int64] | None = None
        # `threat` and `menace` of every cell around, worked out at once when first asked.
        self.window = window_around(world, self.here, PLANE_RADIUS)
        self._threats: npt.NDArray[np.float64] | None = None
        self._menaces: npt.NDArray[np.float64] | None = None
        self.goals = [
            cell
            for objective in objectives
            if isinstance(objective, Reach) and objective.team == self.team
            for cell in objective.cells
        ]
        # Cells the foes win by reaching: worth standing on or beside, and a foe near one is
        # the first to stop.
        self.guarded = [
            cell
            for objective in objectives
            if isinstance(objective, Reach) and objective.team != self.team
            for cell in objective.cells
        ]
        if self.guarded:
            # One warden is enough (standing on the cell bars it): the nearest of the side;
            # the others hunt.
            def near(u: str) -> int:
                return min(_gap(world.need(u, Position).cell, g) for g in self.guarded)

            side = [
                u
                for u in creatures(world)
                if team_of(world, u) == self.team and not incapacitated(world, u)
            ]
            self.warden = min(side, key=lambda u: (near(u), u)) == unit
        else:
            self.warden = False

    def score(self, legal: Legal) -> Choice:
        decision = legal.decision
        assert isinstance(decision, Action)
        evaluate = _evaluator(decision)
        if evaluate is None:
            return Choice(decision, -1.0, f"{decision.name}: nothing to gain now")
        target = getattr(decision, "target", "")
        hostile = not isinstance(decision, a.Aid | a.Administer | a.AbilityAction)
        if hostile and target and incapacitated(self.world, target):
            # Beating a creature that is already down wins nothing (R-C6, R-K2).
            return Choice(decision, -1.0, f"{decision.name}: {target} is already down")
        if hostile and target in creatures(self.world) and team_of(self.world, target) == self.team:
            # The rules let a creature strike an ally; its damage and kill chance are a loss
            # to its own side, not a gain.
            return Choice(decision, -1.0, f"{decision.name}: {target} is on its own side")
        value, why = evaluate(self, decision, legal)
        # Bonus Actions left at the end of the turn pay for reactions until the next one
        # (R-B2): spending one on its own turn gives up a Dodge, Parry or Block.
        if legal.cost is not None and legal.cost.bonus:
            value -= legal.cost.bonus * (0.5 + 0.25 * self.threat(self.here))
        # A slowed action costs more for the same effect (R-B6): only worth it when nothing
        # else is, and never before the same action unslowed.
        if decision.slow:
            value -= 0.5
        return Choice(decision, value, why)

    # --- shared measures ---
    def hit_value(self, target: str, weapon: str | None, melee: bool) -> tuple[float, float, float]:
        return _hit_value(self.world, self.unit, target, weapon, melee)

    def threat(self, cell: Pos) -> float:
        """Damage the foes can be expected to deal to this creature standing in `cell`: a foe
        that reaches it from where it stands counts two attacks, one that can come close
        counts one."""
        if self.window.holds(cell):
            if self._threats is None:
                self._threats = self._weighed(
                    lambda foe, there: reached_plane(self.world, foe, there, self.window),
                    self.foe_damage,
                )
            return float(self._threats[self.window.local(cell)])
        if cell not in self._threat:
            self._threat[cell] = self.threat_at(cell)
        return self._threat[cell]

    def threat_at(self, cell: Pos) -> float:
        """`threat` of one cell, worked out on its own (a cell beyond `window`)."""
        total = 0.0
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            weight = _attacks(reaches(self.world, foe, there, cell), _gap(cell, there))
            if weight:
                total += weight * self.foe_damage(foe)
        return total

    def _weighed(
        self,
        reaching: Callable[[str, Pos], npt.NDArray[np.bool_]],
        damage: Callable[[str], float],
    ) -> npt.NDArray[np.float64]:
        """`threat` or `menace` of every cell of `window` at once (issue #11): for each foe in
        turn, `_attacks` of its plane of reach (`reaching(foe, its cell)`) times its `damage`,
        added up in the same order as the sum of one cell (adding the 0 of a foe far off
        changes nothing)."""
        total = np.zeros(self.window.shape, dtype=np.float64)
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            near = gaps(self.window, there) <= CLOSE
            weight = np.where(
                reaching(foe, there), REACHING_ATTACKS, np.where(near, CLOSE_ATTACKS, 0.0)
            )
            total = total + weight * damage(foe)
        return total

    def strike(self, cell: Pos, half: int) -> tuple[float, str]:
        """The best that `half` ½ Actions of attacks from `cell` on one foe can deal it (each
        ½ Action an attack, at most two), and that foe ("" for none)."""
        key = (cell, half)
        if key in self._strike:
            return self._strike[key]
        best, target = 0.0, ""
        if half > 0:
            moved: World | None = None  # the world with the creature at `cell`, made once
            for foe in self.foes:
                there = self.world.need(foe, Position).cell
                if not reaches(self.world, self.unit, cell, there):
                    continue
                if moved is None:
                    moved = self.world
                    if cell != self.here:
                        moved = self.world.copy()
                        moved.set(self.unit, Position(cell))
                # The weapon the attack would use: valued unarmed (weapon None), a strike
                # from the end cell dealt nothing through armour, and no move set one up.
                plan = plan_attack(moved, a.Attack(self.unit, target=foe))
                if isinstance(plan, Refusal):
                    continue
                _, dealt, kill = _hit_value(moved, self.unit, foe, plan.weapon, plan.melee)
                value = dealt * min(half, 2) + KILL * kill
                if value > best:
                    best, target = value, foe
        self._strike[key] = (best, target)
        return best, target

    def menace(self, cell: Pos) -> float:
        """Damage this creature can be expected to deal the foes from `cell` in its next turn,
        weighed as `threat` weighs theirs: two attacks on a foe it reaches from there, one on
        a foe close by."""
        if self.window.holds(cell):
            if self._menaces is None:
                self._menaces = self._weighed(
                    lambda _, there: reaching_plane(self.world, self.unit, there, self.window),
                    self.own_damage,
                )
            return float(self._menaces[self.window.local(cell)])
        if cell not in self._menace:
            self._menace[cell] = self.menace_at(cell)
        return self._menace[cell]

    def menace_at(self, cell: Pos) -> float:
        """`menace` of one cell, worked out on its own (a cell beyond `window`)."""
        total = 0.0
        for foe in self.foes:
            there = self.world.need(foe, Position).cell
            weight = _attacks(reaches(self.world, self.unit, cell, there), _gap(cell, there))
            if weight:
                total += weight * self.own_damage(foe)
        return total

    def own_damage(self, foe: str) -> float:
        """What one melee attack of this creature on `foe` is expected to deal, `foe`
        defending as well as it can, worked out once."""
        if foe not in self._own_damage:
            self._own_damage[foe] = _foe_damage(self.world, self.unit, foe)
        return self._own_damage[foe]

    def reached(self) -> frozenset[Pos]:
        """`provoking_cells`, worked out once: only leaving one of these can provoke (R-R4)."""
        if self._reached is None:
            self._reached = provoking_cells(self.world, self.unit)
        return self._reached

    def nearest_reached(self, kind: type[a.Movement], field: Field) -> int:
        """The least cost, by `kind`'s search, of a cell some foe reaches (`reached`),
        worked out once per Movement Action; INF if it gets to none."""
        if kind not in self._nearest_reached:
            costs = (field.cost(q) for q in self.reached())
            self._nearest_reached[kind] = min((c for c in costs if c is not None), default=INF)
        return self._nearest_reached[kind]

    def foe_damage(self, foe: str) -> float:
        """`_foe_damage` of `foe` on this creature, worked out once."""
        if foe not in self._foe_damage:
            self._foe_damage[foe] = _foe_damage(self.world, foe, self.unit)
        return self._foe_damage[foe]

    def provoked_on(self, kind: type[a.Movement], field: Field, cell: Pos) -> float:
        """`provoked_along` by `kind`'s field to `cell` of a creature on the ground, each
        provocation weighed by `foe_damage` (whether the foe can pay for it or not), worked out
        for every cell of the field at once when first asked: the cells past the shortcut of
        `_provoked` (costing more than the nearest cell a foe reaches), or every cell when the
        creature stands in a foe's reach."""
        plane = self._provoked.get(kind)
        if plane is None:
            asked = field.ground.can_end.copy()
            if self.here not in self.reached():
                asked &= field.dist > self.nearest_reached(kind, field)
            plane = provoked_along(self.world, self.unit, field, self.foe_damage, asked)
            self._provoked[kind] = plane
        return float(plane[field.window.local(cell)])

    def nearest_foe(self, cell: Pos) -> int:
        """How many cells `cell` is from the nearest cell this creature could strike a foe
        from (R-A4, heights included). The foe's own cell is no measure: a swimmer beside a
        quay, or a climber below a ledge, stands next to a foe it cannot reach and would never
        move to get out or up."""
        known = self._nearest.get(cell)
        if known is not None:
            return known
        if self._strike_cells is None:
            self._strike_cells = self._strikes()
            # Where to measure from, as an array: every candidate move asks (issue #11).
            spots = self._strike_cells or [self.world.need(f, Position).cell for f in self.foes]
            self._from = np.array([(s.x, s.y) for s in spots], dtype=np.int64).reshape(-1, 2)
        if self.window.holds(cell):
            if self._nearest_plane is None:
                # Every cell around at once: the least gap to any spot, cell by cell.
                spots = [Pos(int(x), int(y)) for x, y in self._from]
                plane = np.zeros(self.window.shape, dtype=np.int64)
                if spots:
                    plane = gaps(self.window, spots[0])
                    for spot in spots[1:]:
                        np.minimum(plane, gaps(self.window, spot), out=plane)
                self._nearest_plane = plane
            return int(self._nearest_plane[self.window.local(cell)])
        found = self.nearest_foe_at(cell)
        self._nearest[cell] = found
        return found

    def nearest_foe_at(self, cell: Pos) -> int:
        """`nearest_foe` of one cell, worked out on its own (a cell beyond `window`)."""
        self.nearest_foe(self.here)  # where to measure from, made once
        apart = np.abs(self._from - (cell.x, cell.y)).max(axis=1)
        return int(apart.min()) if len(apart) else 0

    def _strikes(self) -> list[Pos]:
        """`_strike_spots` of this creature and its foes."""
        return _strike_spots(self.world, self.unit, self.foes)


def _hit_value(
    world: World, unit: str, target: str, weapon: str | None, melee: bool
) -> tuple[float, float, float]:
    """(chance to hit, expected damage, kill chance) of one attack of `unit` now, against the
    defence that serves the target best (it is assumed to choose well)."""
    odds = attack_odds(world, unit, target, weapon=weapon, melee=melee)
    worst = min(odds, key=lambda o: o.hit)
    kill = worst.hit if worst.per_hit >= hp(world, target) else 0.0
    return worst.hit, worst.damage, kill


REACHING_ATTACKS, CLOSE_ATTACKS, CLOSE = 2.0, 0.7, 4
# Cells around a creature whose threat and menace are worked out at once: further than any
# Movement Action of the shipped creatures goes; a cell beyond is weighed on its own.
PLANE_RADIUS = 32


def _attacks(reaching: bool, gap: int) -> float:
    """How many attacks `threat` and `menace` count between two creatures: two when one
    reaches the other where they stand, 0.7 when they are close (it can come in), else none."""
    if reaching:
        return REACHING_ATTACKS
    return CLOSE_ATTACKS if gap <= CLOSE else 0.0


def _gap(p: Pos, q: Pos) -> int:
    return max(abs(p.x - q.x), abs(p.y - q.y))


def _foe_odds(world: World, foe: str, unit: str) -> tuple[AttackOdds, ...]:
    """The odds of one melee attack of `foe` on `unit`, with the weapon it would use: the
    melee weapon in its hands when `unit` is out of its reach now (a threat from a cell it
    would come to was counted unarmed, nothing through armour)."""
    plan = plan_attack(world, a.Attack(foe, target=unit))
    if isinstance(plan, Refusal) or not plan.melee:
        weapon = held_weapon(world, foe, melee=True)
    else:
        weapon = plan.weapon
    return attack_odds(world, foe, unit, weapon=weapon, melee=True)


def _foe_damage(world: World, foe: str, unit: str) -> float:
    """What one attack of `foe` on `unit` is expected to deal, `unit` defending as well as it
    can."""
    return min(o.damage for o in _foe_odds(world, foe, unit))


def _attack(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Attack)
    plan = plan_attack(c.world, d)
    if isinstance(plan, Refusal):
        return -1.0, plan.reason
    hit, dealt, kill = c.hit_value(d.target, plan.weapon, plan.melee)
    focus = 3.0 * hit / max(hp(c.world, d.target), 1)
    if c.guarded:
        near = min(_gap(c.world.need(d.target, Position).cell, g) for g in c.guarded)
        focus += max(0, 4 - near) * hit  # a foe about to take the objective
    value = dealt + KILL * kill + focus
    return value, (
        f"attacks {d.target}: {percent(hit)} to hit, {dealt:.1f} damage expected"
        + (f", {percent(kill)} to take it down" if kill else "")
    )


def _move(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Movement) and d.to is not None and legal.cost is not None
    world, cell = c.world, d.to
    if isinstance(d, a.Climb):
        # R-M7: a climb that stops part-way leaves the climber hanging below the face it is
        # aimed at, not on top of it.
        climbed = plan_climb(world, d)
        if isinstance(climbed, ClimbPlan):
            cell = climbed.end
    half_left = c.budget.half - legal.cost.half
    # What it can strike from there with what the move leaves, over what it can strike
    # staying where it is: a step from one cell in reach to another wins no attack.
    strike, target = c.strike(cell, half_left)
    strike -= c.strike(c.here, c.budget.half)[0]
    if strike <= 0:
        target = ""
    closer = c.nearest_foe(c.here) - c.nearest_foe(cell)
    value = strike + 0.4 * closer - 0.05 * legal.cost.half
    why = f"{d.name}s to {cell.x},{cell.y}"
    if c.goals:
        before = min(_gap(c.here, g) for g in c.goals)
        after = min(_gap(cell, g) for g in c.goals)
        value += 1.0 * (before - after) + (KILL * 2 if after == 0 else 0.0)
        if after < before:
            why += ", toward the objective"
    if c.warden:
        # Standing on the cell itself bars it: no foe can end a move there (R-M5).
        before = min(_gap(c.here, g) for g in c.guarded)
        after = min(_gap(cell, g) for g in c.guarded)
        value += 0.8 * (before - after) + 3.0 * ((after == 0) - (before == 0))
        if after < before:
            why += ", to guard the objective"
    # Weighed as a trade: the damage the foes can deal it at the end cell against what it can
    # deal them from there. Counting only the first, two sides that each hold back out of
    # reach end every turn and the battle never ends.
    danger = c.threat(cell) - c.threat(c.here)
    pressure = c.menace(cell) - c.menace(c.here)
    provoked = _provoked(c, d)
    value -= 0.5 * (danger - pressure) + provoked
    if provoked:
        why += f", provoking {provoked:.1f} damage expected"
    if target:
        why += f" to attack {target}"
    elif closer > 0:
        why += ", closing in"
    return value, why


def _provoked(c: _Context, d: a.Movement) -> float:
    """Expected damage of the Attacks of Opportunity the move's path provokes (R-R4, after a
    Disengage none: `provoked`)."""
    assert d.to is not None
    # Only a cell some foe reaches can be left to provoke (R-R4): most paths pass none. A
    # creature hanging on a face leaves its first cell from a height: no shortcut for it.
    near = c.reached()
    lifted = c.world.need(c.unit, Position).elevation != 0
    if not near and not lifted:
        return 0.0
    kind = type(d)
    if kind not in c.maps:  # one reach map per Movement Action, not one per candidate cell
        c.maps[kind] = reach_map(c.world, c.unit, only=(kind,))
    found = c.maps[kind].get(d.to)
    if found is None:
        return 0.0
    # Every cell a path passes before its end costs less to get to than the end: a move that
    # costs no more than the cheapest cell some foe reaches passes none of them.
    if (
        not lifted
        and c.here not in near
        and isinstance(found.route, Field)
        and found.cost <= c.nearest_reached(kind, found.route)
    ):
        return 0.0
    if not lifted and isinstance(found.route, Field):
        # The same sum as below, without building the path, for every cell at once (issue #11).
        return c.provoked_on(kind, found.route, d.to)
    path = tuple(p for p, _ in found.path)
    if not lifted and c.here not in near and not any(q in near for q in path[:-1]):
        return 0.0
    return sum(c.foe_damage(p.enemy) for p in provocations(c.world, c.unit, path))


def _disengage(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-R5: worth the Attacks of Opportunity the best move away would provoke, when staying
    is worse than leaving (the creature is hurt and outnumbered where it stands)."""
    if not c.foes:
        return -1.0, "disengage: no one to slip away from"
    hurt = hp(c.world, c.unit) <= c.threat(c.here)
    if not held_by(c.world, c.unit) or not hurt:
        return -1.0, "disengage: not worth leaving"
    return 0.5 * c.threat(c.here), "disengages to step out of reach"


def _shove(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Shove)
    odds = shove_odds(c.world, c.unit, d.target)
    landing = _landing(c.world, c.unit, d.target)
    already = has(c.world, d.target, Condition.PRONE)
    value = odds.win * landing + (0.0 if already else odds.prone * 1.5)
    return value - 0.3, f"shoves {d.target}: {percent(odds.win)} to win the contest"


def _landing(world: World, shover: str, target: str) -> float:
    """What the push itself is worth: a fall or deep water takes a foe out of the fight for a
    while (a shove into them is the terrain trick the AI looks for)."""
    copy = world.copy()
    worth = 0.0
    for event in push(copy, shover, target, 1):
        if not isinstance(event, Ask):
            apply(copy, event)
    if has(copy, target, Condition.SWIMMING) and not has(world, target, Condition.SWIMMING):
        worth += 4.0
    worth += max(0, hp(world, target) - hp(copy, target)) + (
        3.0 if has(copy, target, Condition.PRONE) else 0
    )
    return worth


def _trip(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Trip)
    odds = min(trip_odds(c.world, c.unit, d.target), key=lambda o: o.hit)
    _, dealt, _ = c.hit_value(d.target, d.weapon, True)
    # A Trip is a 1 Action: two attacks' worth of budget for one attack and a chance of Prone.
    value = dealt + odds.prone * 2.0 - dealt
    return value, f"trips {d.target}: {percent(odds.prone)} to knock it down"


def _grapple(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Grapple)
    chance = grapple_chance(c.world, c.unit, d.target)
    caster = bool(known(c.world, d.target))
    value = chance * (6.0 if caster else 1.0) - 2.0
    why = f"grapples {d.target}: {percent(chance)} to hold it"
    return value, why + (", a caster" if caster else "")


def _aid(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Aid)
    if incapacitated(c.world, d.target):
        there = c.world.need(d.target, Position).cell
        menaced = any(reaches(c.world, f, c.world.need(f, Position).cell, there) for f in c.foes)
        if menaced:
            # Back at 1 HP within a foe's reach, it would only go down again (R-X11, R-K2).
            return 0.2, f"aids {d.target}, who is down but still menaced"
        return KILL + 2.0, f"aids {d.target}, who is down"
    return -1.0, f"aid: {d.target} is not down"


def _heal_amount(world: World, item: str) -> float:
    kind = world.catalog.get(item_kind(world, item))
    return float(kind.heal) if isinstance(kind, Gadget) and kind.drink else 0.0


def _consume(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Consume)
    health = c.world.need(c.unit, Health)
    heal = min(_heal_amount(c.world, d.item), health.max_hp - health.hp)
    if heal <= 0 or health.hp > health.max_hp // 2:
        return -1.0, "consume: not hurt enough"
    return heal, f"drinks {item_kind(c.world, d.item)}: about {heal:.0f} hit points back"


def _cast(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    """A spell or ability by the damage and healing it is expected to do to each creature it
    touches, foes counting for it and allies against it."""
    assert isinstance(d, a.AbilityAction)
    ability = c.world.catalog.abilities.get(d.ability)
    touched = affected(c.world, d)
    if ability is None or isinstance(touched, Refusal):
        return -1.0, f"{d.ability}: cannot be aimed"
    value = 0.0
    for unit in touched:
        sign = -1.0 if team_of(c.world, unit) == c.team else 1.0
        down = incapacitated(c.world, unit)
        for effect in ability.effects:
            if isinstance(effect, Damage):
                if down and sign > 0:
                    # Burning a foe that is already down wins nothing (R-K2, R-C6): casters
                    # that did spent every turn on the fallen while the standing foe waited.
                    continue
                amount = effect.amount
                value += sign * (amount.count * (amount.die + 1) / 2 + amount.flat)
            elif isinstance(effect, Heal):
                health = c.world.need(unit, Health)
                if health.hp < health.max_hp:
                    amount = effect.amount
                    mean = amount.count * (amount.die + 1) / 2 + amount.flat
                    value -= sign * min(mean, health.max_hp - health.hp)
    if ability.attack and touched:
        hit, _, _ = c.hit_value(touched[0], None, False)
        value *= hit
    elif ability.save:
        value *= 0.6
    return value - 0.5, f"{ability.verb} on {d.target or d.to or 'itself'}"


def _stand_up(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    return 3.0, "stands up"


def _draw(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    assert isinstance(d, a.Draw)
    kind = c.world.catalog.get(item_kind(c.world, d.item))
    if isinstance(kind, Weapon) and held_weapon(c.world, c.unit, melee=True) is None:
        return 2.0, f"draws its {kind.name}"
    return -1.0, "draw: nothing it needs"


def _guard(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    return 0.3 * c.threat(c.here) - 0.5, "guards: a free parry or block"


def _assist(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    """R-X21: +2 on the ally's next Hit Roll against the enemy, worth the extra chance to hit
    times what a hit deals, when the ally can strike it."""
    assert isinstance(d, a.Assist)
    world = c.world
    there = world.need(d.ally, Position).cell
    if incapacitated(world, d.ally) or not reaches(
        world, d.ally, there, world.need(d.enemy, Position).cell
    ):
        return -1.0, f"assist: {d.ally} cannot strike {d.enemy}"
    weapon = held_weapon(world, d.ally, melee=True)
    defence = min(
        attack_odds(world, d.ally, d.enemy, weapon=weapon, melee=True), key=lambda o: o.hit
    )
    hit = hit_total(world, d.ally, d.enemy, melee=True)
    helped = (hit + world.rules.actions.assist_bonus).beats(
        defense_total(world, d.enemy, defence.defence)
    )
    value = (helped - defence.hit) * defence.per_hit
    return (
        value,
        f"assists {d.ally} against {d.enemy}: "
        f"{percent(defence.hit)} to hit becomes {percent(helped)}",
    )


def _end_turn(c: _Context, d: Action, legal: Legal) -> tuple[float, str]:
    return 0.0, "ends its turn"


Evaluator = Callable[[_Context, Action, Legal], tuple[float, str]]


def _evaluator(decision: Decision) -> Evaluator | None:
    """The evaluator of an action: the one its type's registry entry names."""
    if not isinstance(decision, Action):
        return None
    named = RULEBOOK[type(decision)].evaluator
    return EVALUATORS.get(named) if named is not None else None


EVALUATORS: dict[str, Evaluator] = {
    "attack": _attack,
    "move": _move,
    "disengage": _disengage,
    "shove": _shove,
    "trip": _trip,
    "grapple": _grapple,
    "aid": _aid,
    "consume": _consume,
    "ability": _cast,
    "stand_up": _stand_up,
    "draw": _draw,
    "guard": _guard,
    "assist": _assist,
    "end_turn": _end_turn,
}
"""The evaluator of each kind of decision, by the name an action's registry entry gives it
(`Mechanic.evaluator`, sim/play/rulebook.py): its value in hit points' worth and why."""


# --- easy: greedy, and cheap enough for large batches (issue #13) ------------------------------

_MOVES = {kind.name: kind for kind in ORDER}


def _greedy(battle: Battle, unit: str, avoid: Collection[Decision]) -> Choice:
    """`easy`'s decision on its own turn: the attack that deals most now (R-A2, R-A3); else
    back on its feet (R-M10) or out of a grapple (R-G2); else the move that gets it nearest
    its side's objective or a foe, cheapest first; else the end of its turn. Greedy on damage,
    blind to threats and Attacks of Opportunity, and it asks the rules only of the few
    decisions it weighs, not of every legal one."""
    world = battle.world

    def allowed(decision: Action) -> bool:
        return decision not in avoid and not isinstance(battle.check(decision), Refusal)

    foes = [f for f in enemies(world, unit) if not incapacitated(world, f)]
    here = world.need(unit, Position).cell
    melee_only = held_weapon(world, unit, melee=False) is None
    if melee_only and held_weapon(world, unit, melee=True) is None:
        # Empty-handed (a Climb stows what it held, R-M7; a Disarm drops it): a carried weapon
        # first, rather than fists.
        gear = world.get(unit, Gear)
        for item in gear.carried if gear is not None else ():
            draw = a.Draw(unit, item=item)
            if weapon_kind(world, item) is not None and allowed(draw):
                return Choice(draw, 0.5, f"draws {item_kind(world, item)}")
    # Without a ranged weapon in hand, a foe beyond its melee reach cannot be attacked (R-A4):
    # the rules are not asked.
    reach = reach_cells(world, unit)
    best: Choice | None = None
    for foe in foes:
        if melee_only and _gap(here, world.need(foe, Position).cell) > reach:
            continue
        attack = a.Attack(unit, target=foe)
        if not allowed(attack):
            continue
        plan = plan_attack(world, attack)
        assert not isinstance(plan, Refusal)
        hit, dealt, kill = _hit_value(world, unit, foe, plan.weapon, plan.melee)
        value = dealt + KILL * kill
        if value <= 0:
            continue  # nothing to win: armour takes it all, or it cannot hit from here
        if best is None or value > best.score:
            why = f"attacks {foe}: {percent(hit)} to hit, {dealt:.1f} damage expected"
            best = Choice(attack, value, why)
    if best is not None:
        return best
    if has(world, unit, Condition.PRONE) and allowed(a.StandUp(unit)):
        return Choice(a.StandUp(unit), 0.5, "stands up")
    if has(world, unit, Condition.GRAPPLED) and allowed(a.BreakFree(unit)):
        return Choice(a.BreakFree(unit), 0.5, "tries to break free")
    move = _closing(battle, unit, foes, allowed)
    if move is not None:
        return move
    return Choice(a.EndTurn(unit), 0.0, "ends its turn")


def _strike_spots(world: World, unit: str, foes: Sequence[str]) -> list[Pos]:
    """Every open cell no other creature stands in from which `unit` reaches a foe where it
    stands (R-A4, heights included)."""
    grid = world.grid
    taken = {
        world.need(u, Position).cell
        for u in creatures(world)
        if u != unit and not incapacitated(world, u)
    }
    return [
        spot
        for foe in foes
        for spot in reaching_from(world, unit, world.need(foe, Position).cell)
        if spot not in taken and grid.kind(spot) != Kind.WALL
    ]


def _apart(
    xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], here: Pos, marks: Sequence[Pos]
) -> tuple[npt.NDArray[np.int64], int]:
    """How many cells (Chebyshev) each cell (xs, ys), and `here`, lies from the nearest of
    `marks`."""
    spots = np.array([(c.x, c.y) for c in marks], dtype=np.int64).reshape(-1, 2)
    near = np.maximum(
        np.abs(xs[:, None] - spots[None, :, 0]), np.abs(ys[:, None] - spots[None, :, 1])
    ).min(axis=1)
    return near, int(np.maximum(np.abs(spots[:, 0] - here.x), np.abs(spots[:, 1] - here.y)).min())


def _closing(
    battle: Battle, unit: str, foes: list[str], allowed: Callable[[Action], bool]
) -> Choice | None:
    """`easy`'s move: to the reachable cell nearest (in cells) its side's objective, or else
    a foe, and of those the cheapest; only if it gets nearer than it stands."""
    world = battle.world
    team = team_of(world, unit)
    goals = [
        c for o in battle.objectives if isinstance(o, Reach) and o.team == team for c in o.cells
    ]
    # Toward the cells it could strike a foe from (R-A4, heights included), not the foe's own
    # cell: beside a quay, or below a ledge, the foe's cell is near and out of reach.
    foe_cells = [world.need(f, Position).cell for f in foes]
    marks = goals or _strike_spots(world, unit, foes) or foe_cells
    cells = reach_map(world, unit)
    if not marks or not cells:
        return None
    xs, ys, costs, codes = cells.arrays()
    here = world.need(unit, Position)
    gaps, now = _apart(xs, ys, here.cell, marks)
    # Hanging on a face (R-M7), a climb up or back down that gets it no nearer on the map is
    # still on the way; a Jump from higher than it is tall is a fall (R-M4), never taken.
    hanging = here.elevation > 0
    if hanging:
        now += 1
        falls = here.elevation > world.need(unit, Body).height
        jump = [i for i, offer in enumerate(cells.offers) if offer.name == a.Jump.name]
        if falls and jump:
            gaps = np.where(np.isin(codes, jump), now, gaps)
    order = np.lexsort((costs, gaps))
    # With a bow in hand, near enough to shoot is near enough (R-C7): the cheapest cell within
    # its range of a foe (in cells that are in range whichever way they lie), if it is not
    # there already.
    bow = weapon_kind(world, held_weapon(world, unit, melee=False))
    if bow is not None and bow.ranged is not None and not goals and not hanging:
        far = bow.ranged * 2 // world.rules.grid.diagonal_half_metres
        apart, away = _apart(xs, ys, here.cell, foe_cells)
        if away > far and (apart <= far).any():
            order = np.lexsort((apart, costs, apart > far))
            gaps, now = apart, away
    for index in order[:3].tolist():  # the best few, should one be refused
        if int(gaps[index]) >= now:
            break
        name = cells.offers[int(codes[index])].name
        to = Pos(int(xs[index]), int(ys[index]))
        # Along the reach map's own path: a move by "to" would search again for its path.
        steps = cells[to].path
        jumps = tuple(i for i, (_, jumped) in enumerate(steps) if jumped)
        move = _MOVES[name](unit, path=tuple(c for c, _ in steps), jumps=jumps)
        if allowed(move):
            aim = "toward the objective" if goals else "closing in"
            return Choice(move, 0.4 * (now - int(gaps[index])), f"{name}s to {to.x},{to.y}, {aim}")
    return None
