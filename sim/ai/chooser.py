"""The chooser: the AI's policy, which ranks the evaluators' candidates and takes the best."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sim.ai import weights
from sim.ai.choice import Choice
from sim.ai.context import Context
from sim.ai.evaluators import evaluator_of
from sim.ai.greedy import greedy
from sim.ai.guess import guessed
from sim.ai.lookahead import look_ahead
from sim.ai.reactions import react
from sim.ai.sight import Sightings, hidden, known_battle, known_world
from sim.ai.weights import Search, Weights
from sim.core import actions as a
from sim.core.actions import Action
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.dice import SeededDice
from sim.core.geometry import Pos
from sim.core.world import World
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    Decision,
    ReactionChoice,
)
from sim.play.legal import Legal, legal_decisions, listing
from sim.play.rulebook import RULEBOOK
from sim.rules.combat.reactions import (
    NONE,
)
from sim.rules.objectives import Objective


class AI:
    """One policy for one or more sides: `decide(battle)` gives the next decision of whoever
    the battle waits for."""

    def __init__(self, level: str = "normal", seed: int = 0) -> None:
        self.settings = weights.level(level)  # ValueError: no such level
        self.level = level
        self.seed = seed
        self._dice = SeededDice(seed)
        # Where its sides last saw the creatures they no longer see (sim/ai/sight.py); a
        # guide's (a snapshot) follows no battle.
        self.sightings = Sightings()

    def decide(self, battle: Battle) -> Decision:
        return self.choose(battle).decision

    def choose(self, battle: Battle, avoid: Collection[Decision] = ()) -> Choice:
        """The decision to submit now; `avoid`: decisions `submit` refused in this state (a
        fault in legal_decisions), which are not offered again."""
        settings = self.settings
        if settings.policy == "random":
            # One draw from the whole list, made without making every move of it.
            found: Sequence[Legal] = listing(battle)
            if avoid:
                found = tuple(legal for legal in found if legal.decision not in avoid)
            if not found:
                raise ValueError(f"nothing is legal while the battle waits for {battle.pending}")
            pick = found[self._dice.roll(len(found)) - 1]
            return Choice(pick.decision, 0.0, "a random legal decision")
        pending = battle.pending
        assert isinstance(pending, AwaitingAction | AwaitingReaction), pending
        # Everything below reads the battle as the side knows it, never the true world; what
        # it may try is still the true battle's (legal_decisions, battle.check).
        team = team_of(battle.world, pending.unit)
        # Where the side last saw a creature is read only while one is hidden from it, and a
        # look-ahead's guide starts from it; folding the history is put off until then (the
        # fold is the same whenever it is made: it follows the whole log).
        if settings.search is not None or hidden(battle.world, team):
            self.sightings.follow(battle, team)
        known = known_world(battle.world, team, self.sightings, battle.start)
        if settings.policy == "greedy":
            if isinstance(pending, AwaitingAction):
                return greedy(battle, known, pending.unit, avoid)
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
            return react(battle, known, pending, listed, known_roll=settings.read_roll)
        ranked = rank(
            known,
            pending.unit,
            listed,
            objectives=battle.objectives,
            weights=settings.weights,
        )
        if settings.search is not None and len(ranked) > 1:
            return self._look_ahead(battle, team, pending.unit, ranked, settings.search)
        return ranked[0]

    def _look_ahead(
        self, battle: Battle, team: str, unit: str, ranked: list[Choice], search: Search
    ) -> Choice:
        """`hard`'s choice: `look_ahead` with `normal` playing the forks, on seeds from the
        AI's own dice. It forks the battle as its side knows it (`known_battle`), never the
        true one: the hidden creatures where they were last seen, no foe's plan, and sealed
        dice that the forks replace with their own. The guide starts from what this AI has
        seen and follows nothing, so it leaves the hidden creatures where the forks have them.
        Each seed's forks place the hidden creatures anew where they may be (`guessed`)."""
        guide = AI(search.guide, self.seed)
        guide.sightings = self.sightings.snapshot()
        known = known_battle(battle, team, self.sightings)
        lost = hidden(battle.world, team)
        if not lost:
            return look_ahead(known, unit, ranked, self._dice, guide, search)
        sightings, walks = self.sightings, search.hidden_walks

        def setting(seed: int, kept: Collection[Pos]) -> Battle:
            return guessed(known, team, lost, sightings, seed, walks, kept)

        return look_ahead(known, unit, ranked, self._dice, guide, search, setting)


def rank(
    world: World,
    unit: str,
    listed: tuple[Legal, ...],
    *,
    objectives: tuple[Objective, ...] = (),
    weights: Weights | None = None,
) -> list[Choice]:
    """The legal decisions of `unit`'s turn, best first (stable: the legal order breaks ties)."""
    context = Context(world, unit, objectives, weights)
    scored = [score(context, legal) for legal in listed]
    order = sorted(range(len(scored)), key=lambda i: -scored[i].score)
    return [scored[i] for i in order]


def score(context: Context, legal: Legal) -> Choice:
    """One legal decision weighed by the evaluator its kind's registry entry names, less
    what its Bonus Actions and slowing cost."""
    decision = legal.decision
    assert isinstance(decision, Action)
    evaluate = evaluator_of(decision)
    if evaluate is None or RULEBOOK[type(decision)].evaluator in context.w.off:
        return Choice(decision, -1.0, f"{decision.name}: nothing to gain now")
    target = getattr(decision, "target", "")
    hostile = not isinstance(decision, a.Aid | a.Administer | a.Toss | a.AbilityAction)
    if hostile and target and incapacitated(context.world, target):
        # Beating a creature that is already down wins nothing (R-C6, R-K2).
        return Choice(decision, -1.0, f"{decision.name}: {target} is already down")
    if (
        hostile
        and target in creatures(context.world)
        and team_of(context.world, target) == context.team
    ):
        # The rules let a creature strike an ally; its damage and kill chance are a loss
        # to its own side, not a gain.
        return Choice(decision, -1.0, f"{decision.name}: {target} is on its own side")
    value, why = evaluate(context, decision, legal)
    # Bonus Actions left at the end of the turn pay for reactions until the next one
    # (R-B2): spending one on its own turn gives up a Dodge, Parry or Block.
    if legal.cost is not None and legal.cost.bonus:
        w = context.w
        threat = context.threat(context.here)
        if w.disengage_leaves and isinstance(decision, a.Disengage):
            threat = 0.0  # it leaves the threat it stands in; its move weighs where it goes
        # A move (a Step) weighs the threat at its end itself; the share here is the rest's.
        share = w.move_bonus_threat if isinstance(decision, a.Movement) else w.bonus_threat
        value -= legal.cost.bonus * (w.bonus_spent + share * threat)
    # A slowed action costs more for the same effect (R-B6): only worth it when nothing
    # else is, and never before the same action unslowed.
    if decision.slow:
        value -= context.w.slowed
    return Choice(decision, value, why)
