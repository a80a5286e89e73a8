"""`hard`'s look-ahead: normal's best candidates played out on forks of the battle."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from sim.ai.choice import Choice
from sim.ai.evaluators import EVALUATORS
from sim.ai.luck import Luck
from sim.ai.prospect import prospect
from sim.ai.ranking import Ranking
from sim.ai.weights import Search, level
from sim.core import actions as a
from sim.core.actions import Action, Refusal
from sim.core.creature import team_of
from sim.core.dice import Dice, SeededDice
from sim.core.geometry import Pos
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    Decision,
    ReactionChoice,
)
from sim.play.legal import Legal, Listing
from sim.play.rulebook import RULEBOOK
from sim.rules.objectives import Reach


def played_out(
    battle: Battle, unit: str, choice: Choice, seed: int, guide: Recall, team: str, steps: int
) -> tuple[float, int]:
    """How well `team` stands, by `prospect`, on `play_out`'s fork: `choice`, the rest of
    `unit`'s turn and the foes' turns after it, with the luck of their attacks taken out;
    and how many actions the guide worked out for it (`Recall.worked`: the fork's cost)."""
    before = guide.worked
    fork, luck = play_out(battle, unit, choice, seed, guide, team, steps)
    return prospect(fork, team) - luck.total, guide.worked - before


def play_out(
    battle: Battle,
    unit: str,
    choice: Choice,
    seed: int,
    guide: Guide,
    team: str,
    steps: int | None = None,
) -> tuple[Battle, Luck]:
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
    seeds still decide all else). A `Recall` guide is told the way each fork goes."""
    fork = battle.fork(SeededDice(seed))
    luck = Luck(fork, team)
    recall = guide if isinstance(guide, Recall) else None
    mark = len(fork.log)
    if isinstance(choice.decision, ReactionChoice):
        luck.expect_resolving(choice.decision)  # a fork from a window (hard at its windows)
    luck.submit(choice.decision)
    if recall is not None:
        recall.went(choice.decision, fork.log[mark:], start=True)
    turn_over = False  # `unit`'s turn has ended: another creature acts
    if steps is None:  # as `hard` plays it
        search = level("hard").search
        assert search is not None
        steps = search.steps
    for _ in range(steps):  # bounds a bad loop
        pending = fork.pending
        if not isinstance(pending, AwaitingAction | AwaitingReaction):
            break
        if isinstance(pending, AwaitingAction):
            turn_over = turn_over or pending.unit != unit
            # Its own next turn too, when it is the last of its side standing.
            if turn_over and team_of(fork.world, pending.unit) == team:
                break
        decision = guide.decide(fork)
        mark = len(fork.log)
        if isinstance(luck.submit(decision), Refusal):
            break
        if recall is not None:
            recall.went(decision, fork.log[mark:])
    return fork, luck


class Recall:
    """A guide that decides each state of one start's forks once. Forks of the same battle
    that took the same decisions with the same outcomes (the same events, every roll among
    them) stand in the same state, and `normal`, which decides without dice, decides the same
    there: a fork asks the guide only where no fork went before it. Forks of one candidate
    on several seeds share their way up to the first roll that differs (a move, the foe's
    first decisions): about a fifth of the guide's decisions on ogre_ford and brawl.
    `worked`: the actions the guide worked out (a reaction's answer costs far less)."""

    def __init__(self, guide: Guide) -> None:
        self.guide = guide
        self.worked = 0
        # Each state a fork reached, as the state it came from, the decision and its events.
        self._states: dict[tuple[int, Decision, tuple[object, ...]], int] = {}
        self._decided: dict[int, Decision] = {}
        self._at = 0  # the state the fork being played stands in; 0: the start

    def went(self, decision: Decision, events: Sequence[object], *, start: bool = False) -> None:
        """The fork being played took `decision`, which logged `events` (`start`: its first,
        from the start battle)."""
        key = (0 if start else self._at, decision, tuple(events))
        self._at = self._states.setdefault(key, len(self._states) + 1)

    def decide(self, battle: Battle) -> Decision:
        decision = self._decided.get(self._at)
        if decision is None:
            decision = self.guide.decide(battle)
            self._decided[self._at] = decision
            self.worked += isinstance(battle.pending, AwaitingAction)
        return decision


def affordable(
    alive: list[int], totals: list[float], cost: list[int], played: int, left: float
) -> list[int]:
    """The candidates of `alive` that play another seed within the `left` of the budget, each
    expected to cost what its forks cost a seed so far: all when they fit, else normal's
    best (the measure) and the best placed of the others that fit with it. A turn whose forks
    are long (many foes, long fights) plays its contenders on as many seeds as it can rather
    than every candidate on fewer, which bounds the slowest decisions."""
    if sum(cost[i] for i in alive) <= left * played:
        return alive
    kept = [alive[0]]
    spend = cost[alive[0]]
    for i in sorted(alive[1:], key=lambda i: (-totals[i], i)):
        if spend + cost[i] <= left * played:
            kept.append(i)
            spend += cost[i]
    return sorted(kept)


CONTESTS = (a.Trip, a.Shove, a.Grapple, a.Disarm)


@dataclass(frozen=True, slots=True)
class Outline:
    """A ranking read without making its Choices: each decision's kind and score, best first,
    and the cell each move goes to; `candidates` makes the Choices of only those it keeps (a
    turn has hundreds of moves, each Choice made by the scalar path)."""

    kinds: tuple[type[Decision], ...]
    scores: tuple[float, ...]
    cell: Callable[[int], Pos | None]  # the cell the move at this place goes to, else None


def outline(listed: Sequence[Legal], ranked: Ranking) -> Outline:
    """`ranked` (`rank` of `listed`) outlined: its order is the listing's, best first by the
    scores of its listing order (stable: the listing's order breaks ties), as `rank` sorts."""
    if isinstance(listed, Listing):
        head, groups = listed.head, listed.groups
    else:
        head, groups = tuple(listed), ()
    # A group's kind as its moves are made: a dive is a Swim whatever the group's kind.
    kinds = [type(legal.decision) for legal in head] + [
        kind for group in groups for kind in [type(group.at(0).decision)] * len(group)
    ]
    scores = np.array(ranked.scores, dtype=np.float64)
    order = np.argsort(-scores, kind="stable").tolist()
    starts = [len(head)]
    for group in groups:
        starts.append(starts[-1] + len(group))

    def cell(place: int) -> Pos | None:
        i = order[place]
        if i < len(head):
            decision = head[i].decision
            return decision.to if isinstance(decision, a.Movement) else None
        g = bisect_right(starts, i) - 1
        return Pos(groups[g].xs[i - starts[g]], groups[g].ys[i - starts[g]])

    return Outline(
        tuple(kinds[i] for i in order), tuple(scores[order].tolist()) if order else (), cell
    )


def candidates(
    ranked: Sequence[Choice], shape: Outline, search: Search, goals: Collection[Pos] = ()
) -> list[Choice]:
    """The decisions `hard` plays out: `normal`'s best few; the best of each other kind of
    decision close behind them (a move when the best are attacks, ending the turn), so the
    look-ahead can overrule `normal` where its scoring misjudges one kind against another;
    the best move onto an objective's cell, to take it or to bar it; and, with no foe to
    strike from where it stands, ending the turn there, keeping its Bonus Actions for
    defences and letting the foes come to it (`normal` closes in, and spends its move and a
    Bonus Action to). Beside a foe it strikes: idling there only lets the look-ahead's luck
    (an Interrupt that hits) pick a turn that wins nothing. Chosen by `shape`, the kinds and
    scores of `ranked`; only the Choices kept are made."""
    kinds, scores = shape.kinds, shape.scores
    # A kind the AI never takes (NEVER: no evaluator, every such decision "nothing to gain")
    # is not played out: on a few seeds its luck could make a Drop look better than a blow.
    weighs = {kind: _weighed(kind) for kind in set(kinds)}
    weighed = [place for place, kind in enumerate(kinds) if weighs[kind]] or [0]
    top = weighed[: search.candidates]
    taken = {kinds[place] for place in top}
    for place in weighed[search.candidates :]:
        if len(top) >= search.candidates + search.extra:
            break
        kind = kinds[place]
        if kind not in taken and scores[place] >= scores[0] - search.margin:
            taken.add(kind)
            top.append(place)
    onto = next(
        (
            place
            for place, kind in enumerate(kinds)
            if goals and issubclass(kind, a.Movement) and shape.cell(place) in goals
        ),
        None,
    )
    if onto is not None and onto not in top:
        top.append(onto)
    hold = next((place for place, kind in enumerate(kinds) if kind is a.EndTurn), None)
    striking = any(
        issubclass(kind, a.Attack) and score > 0 for kind, score in zip(kinds, scores, strict=True)
    )
    if hold is not None and hold not in top and not striking:
        top.append(hold)
    return [ranked[place] for place in top]


def _weighed(kind: type[Decision]) -> bool:
    """Whether the AI weighs decisions of `kind` (its registry entry names an evaluator)."""
    if not issubclass(kind, Action):
        return False
    named = RULEBOOK[kind].evaluator
    return named is not None and named in EVALUATORS


class Guide(Protocol):
    """The policy that plays a fork after the candidate: `normal`."""

    def decide(self, battle: Battle) -> Decision: ...


def look_ahead(
    battle: Battle,
    unit: str,
    listed: Sequence[Legal],
    ranked: Ranking,
    dice: Dice,
    guide: Guide,
    search: Search,
    setting: Callable[[int, Collection[Pos]], Battle] | None = None,
) -> Choice:
    """Play each of `normal`'s few best distinct candidates, then `normal` to the end of
    `unit`'s turn and through the foes' turns after it (`play_out`), on forks of the
    battle with the same dice seeds for every candidate (so the candidates differ by what
    they do, not by their luck), and keep the one whose turns end best on average by
    `prospect`: what each side has left and how the foes' reply and the objectives stand.
    `normal`'s own best stands unless another does clearly better (by search.switch):
    four seeds cannot tell a smaller gap from luck.
    `ranked` is `rank` of `listed`, whose kinds `outline` reads to pick the candidates.
    `guide` plays the forks; the seeds are drawn from `dice`. `setting(seed, kept)` gives the
    battle a seed's forks start from (the hidden creatures placed for that seed, none on a
    cell of `kept`, where the candidates move to; sim/ai/guess.py); `battle` without it."""
    goals = {cell for o in battle.objectives if isinstance(o, Reach) for cell in o.cells}
    top = candidates(ranked, outline(listed, ranked), search, goals)
    kept: set[Pos] = set()
    for c in top:
        if isinstance(c.decision, a.Movement):
            end = c.decision.path[-1] if c.decision.path else c.decision.to
            kept.update(() if end is None else (end,))
    if setting is None:
        return weigh(battle, unit, top, dice, guide, search)
    placed = setting

    def start(seed: int) -> Battle:
        return placed(seed, kept)

    return weigh(battle, unit, top, dice, guide, search, start)


def weigh(
    battle: Battle,
    unit: str,
    top: Sequence[Choice],
    dice: Dice,
    guide: Guide,
    search: Search,
    start: Callable[[int], Battle] | None = None,
) -> Choice:
    """Of `top` (normal's choice first), the one whose forks of `battle` end best on average
    by `prospect` (`played_out` on each seed drawn from `dice`, `guide` playing them), as
    `look_ahead` weighs its candidates: raced after `search.first` seeds, within
    `search.budget`, and normal's choice kept unless another beats it by `search.switch`.
    `start(seed)`: the battle a seed's forks start from, else `battle` itself."""
    team = team_of(battle.world, unit)
    # Seeds drawn from the AI's own dice: a new set each decision, the same for a seed.
    seeds = [dice.roll(1_000_000) for _ in range(search.seeds)]
    values: list[list[float]] = [[] for _ in top]  # each seed's, in the order played
    alive = list(range(len(top)))
    cost = [0] * len(top)  # actions the guide worked out on each candidate's forks
    recall = Recall(guide)  # one for the forks of one start battle
    for played, seed in enumerate(seeds):  # `played`: the seeds played before this one
        if played:
            totals = [sum(v) for v in values]
            alive = affordable(alive, totals, cost, played, search.budget - sum(cost))
            if len(alive) == 1:
                break  # normal's best alone: nothing left to compare it with
        if start is None:
            begun = battle
        else:  # each seed's forks start from their own battle
            begun, recall = start(seed), Recall(guide)
        for i in alive:
            value, worked = played_out(begun, unit, top[i], seed, recall, team, search.steps)
            values[i].append(value)
            cost[i] += worked
        if played + 1 == search.first:
            # Racing: a candidate this far behind after the first seeds is not played on;
            # normal's best always is, as the measure the others must clearly beat.
            lead = max(sum(values[i]) for i in alive)
            behind = search.cut * search.first
            alive = [i for i in alive if i == 0 or sum(values[i]) >= lead - behind]
            if len(alive) == 1:
                break
    pick = max(alive, key=lambda i: (sum(values[i]), -i))
    # A contest's luck (a Trip's knock-down, a Shove's push) is not taken out: its few
    # seeds swing by a creature knocked Prone or not, so it must do clearly better.
    contest = isinstance(top[pick].decision, CONTESTS)
    margin = search.contest_switch if contest else search.switch
    if pick and gain(values[pick], values[0], search.noise) < margin:
        pick = 0  # a look-ahead barely better is within its noise: normal's choice stands
    best, best_value = top[pick], sum(values[pick]) / len(values[pick])
    return Choice(best.decision, best_value, best.why + " (looked ahead)")


def gain(better: list[float], measure: list[float], noise: float) -> float:
    """What `better` gains over `measure`, both played on the same seeds: the mean of the
    seeds' differences less `noise` standard errors of it. Where the forks' dice still
    decide much (a spell's hit, a kill that ends the battle), the best of a few candidates on
    four seeds is the luckiest more often than the best, and overruling normal with it lost
    games (hard as red on spells won 4 of 16 where normal, as red, wins about 45 %)."""
    diffs = [b - m for b, m in zip(better, measure, strict=True)]
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return mean
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    return mean - noise * spread / math.sqrt(len(diffs))
