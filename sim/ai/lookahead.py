"""`hard`'s look-ahead: normal's best candidates played out on forks of the battle."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol

from sim.ai.choice import Choice
from sim.ai.evaluators import evaluator_of
from sim.ai.luck import Luck
from sim.ai.prospect import prospect
from sim.ai.weights import Search, level
from sim.core import actions as a
from sim.core.actions import Refusal
from sim.core.creature import team_of
from sim.core.dice import Dice, SeededDice
from sim.core.geometry import Pos
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    Decision,
)
from sim.rules.objectives import Reach


def played_out(
    battle: Battle, unit: str, choice: Choice, seed: int, guide: Guide, team: str, steps: int
) -> float:
    """How well `team` stands, by `prospect`, on `play_out`'s fork: `choice`, the rest of
    `unit`'s turn and the foes' turns after it, with the luck of their attacks taken out."""
    fork, luck = play_out(battle, unit, choice, seed, guide, team, steps)
    return prospect(fork, team) - luck.total


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
    seeds still decide all else)."""
    fork = battle.fork(SeededDice(seed))
    luck = Luck(fork, team)
    luck.submit(choice.decision)
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
        if isinstance(luck.submit(guide.decide(fork)), Refusal):
            break
    return fork, luck


CONTESTS = (a.Trip, a.Shove, a.Grapple, a.Disarm)


def candidates(
    ranked: Sequence[Choice], search: Search, goals: Collection[Pos] = ()
) -> list[Choice]:
    """The decisions `hard` plays out: `normal`'s best few; the best of each other kind of
    decision close behind them (a move when the best are attacks, ending the turn), so the
    look-ahead can overrule `normal` where its scoring misjudges one kind against another;
    the best move onto an objective's cell, to take it or to bar it; and, with no foe to
    strike from where it stands, ending the turn there, keeping its Bonus Actions for
    defences and letting the foes come to it (`normal` closes in, and spends its move and a
    Bonus Action to). Beside a foe it strikes: idling there only lets the look-ahead's luck
    (an Interrupt that hits) pick a turn that wins nothing."""
    # A kind the AI never takes (NEVER: no evaluator, every such decision "nothing to gain")
    # is not played out: on a few seeds its luck could make a Drop look better than a blow.
    weighed = [c for c in ranked if evaluator_of(c.decision) is not None] or list(ranked[:1])
    top = weighed[: search.candidates]
    kinds = {type(c.decision) for c in top}
    for choice in weighed[search.candidates :]:
        if len(top) >= search.candidates + search.extra:
            break
        kind = type(choice.decision)
        close = choice.score >= ranked[0].score - search.margin
        if kind not in kinds and close:
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


class Guide(Protocol):
    """The policy that plays a fork after the candidate: `normal`."""

    def decide(self, battle: Battle) -> Decision: ...


def look_ahead(
    battle: Battle,
    unit: str,
    ranked: Sequence[Choice],
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
    `guide` plays the forks; the seeds are drawn from `dice`. `setting(seed, kept)` gives the
    battle a seed's forks start from (the hidden creatures placed for that seed, none on a
    cell of `kept`, where the candidates move to; sim/ai/guess.py); `battle` without it."""
    team = team_of(battle.world, unit)
    goals = {cell for o in battle.objectives if isinstance(o, Reach) for cell in o.cells}
    top = candidates(ranked, search, goals)
    # Seeds drawn from the AI's own dice: a new set each decision, the same for a seed.
    seeds = [dice.roll(1_000_000) for _ in range(search.seeds)]
    totals = [0.0] * len(top)
    alive = list(range(len(top)))
    played = 0
    kept: set[Pos] = set()
    for c in top:
        if isinstance(c.decision, a.Movement):
            end = c.decision.path[-1] if c.decision.path else c.decision.to
            kept.update(() if end is None else (end,))
    for seed in seeds:
        start = battle if setting is None else setting(seed, kept)
        for i in alive:
            totals[i] += played_out(start, unit, top[i], seed, guide, team, search.steps)
        played += 1
        if played == search.first:
            # Racing: a candidate this far behind after the first seeds is not played on;
            # normal's best always is, as the measure the others must clearly beat.
            lead = max(totals[i] for i in alive)
            alive = [i for i in alive if i == 0 or totals[i] >= lead - search.cut * played]
            if len(alive) == 1:
                break
    pick = max(alive, key=lambda i: (totals[i], -i))
    # A contest's luck (a Trip's knock-down, a Shove's push) is not taken out: its few
    # seeds swing by a creature knocked Prone or not, so it must do clearly better.
    contest = isinstance(top[pick].decision, CONTESTS)
    margin = search.contest_switch if contest else search.switch
    if totals[pick] - totals[0] < margin * played:
        pick = 0  # a look-ahead barely better is within its noise: normal's choice stands
    best, best_value = top[pick], totals[pick] / played
    return Choice(best.decision, best_value, best.why + " (looked ahead)")
