"""The chooser: the AI's policy, which ranks the evaluators' candidates and takes the best."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sim.ai import weights
from sim.ai.choice import Choice
from sim.ai.greedy import greedy
from sim.ai.guess import guessed
from sim.ai.lookahead import look_ahead, weigh
from sim.ai.ranking import Ranking, rank, worthless
from sim.ai.reactions import react
from sim.ai.sight import Sightings, hidden, known_battle, known_world
from sim.ai.weights import Search
from sim.core.actions import Action
from sim.core.creature import team_of
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
from sim.play.legal import Legal, listing
from sim.rules.combat.reactions import (
    NONE,
)


class AI:
    """One policy for one or more sides: `decide(battle)` gives the next decision of whoever
    the battle waits for."""

    def __init__(self, level: str = "normal", seed: int = 0) -> None:
        self.settings = weights.level(level)  # ValueError: no such level
        self.level = level
        self.seed = seed
        self._dice = SeededDice(seed)
        # What a level that takes its ranking's first need not list (`worthless`); a search
        # weighs candidates behind the first too, so it lists all.
        found = self.settings.weights
        self._without = (
            worthless(found)
            if found is not None and self.settings.search is None
            else frozenset[type[Action]]()
        )
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
        # Each move made only if it is read (`Ranking`): a turn has hundreds.
        listed: Sequence[Legal] = listing(battle, slowed=False, without=self._without)
        if avoid:
            listed = tuple(legal for legal in listed if legal.decision not in avoid)
        if not listed:
            raise ValueError(f"nothing is legal while the battle waits for {battle.pending}")
        if isinstance(pending, AwaitingReaction):
            answer = react(
                battle,
                known,
                pending,
                tuple(listed),
                known_roll=settings.read_roll,
                weights=settings.weights,
            )
            search = settings.search
            if search is None or pending.kind not in search.windows:
                return answer
            return self._look_ahead_window(battle, known, pending.unit, listed, answer, search)
        ranked = rank(
            known,
            pending.unit,
            listed,
            objectives=battle.objectives,
            weights=settings.weights,
        )
        if settings.search is not None and len(ranked) > 1:
            return self._look_ahead(battle, team, pending.unit, listed, ranked, settings.search)
        return ranked[0]

    def _look_ahead_window(
        self,
        battle: Battle,
        known: World,
        unit: str,
        listed: Sequence[Legal],
        answer: Choice,
        search: Search,
    ) -> Choice:
        """`hard`'s answer at a reaction window of a kind its search names (an Interrupt, an
        Attack of Opportunity): each answer there played on forks as `look_ahead` plays its
        candidates (`weigh`), normal's `answer` first and standing unless another does clearly
        better. Only where a fork is cheap (the battle keeps checkpoints: one action is played
        again, not the whole battle) and fair: the battle as its side knows it is the battle
        itself (`known`), no foe hidden from it and no foe's plan waiting, for the forks
        start from the true battle; else `answer`."""
        if known is not battle.world or not battle.checkpointed:
            return answer
        top = [answer] + [
            Choice(legal.decision, 0.0, _answered(legal.decision.choice, battle.resolving))
            for legal in listed
            if isinstance(legal.decision, ReactionChoice) and legal.decision != answer.decision
        ]
        if len(top) < 2:
            return answer
        guide = AI(search.guide, self.seed)
        guide.sightings = self.sightings.snapshot()
        return weigh(battle, unit, top, self._dice, guide, search)

    def _look_ahead(
        self,
        battle: Battle,
        team: str,
        unit: str,
        listed: Sequence[Legal],
        ranked: Ranking,
        search: Search,
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
            return look_ahead(known, unit, listed, ranked, self._dice, guide, search)
        sightings, walks = self.sightings, search.hidden_walks

        def setting(seed: int, kept: Collection[Pos]) -> Battle:
            return guessed(known, team, lost, sightings, seed, walks, kept)

        return look_ahead(known, unit, listed, ranked, self._dice, guide, search, setting)


def _answered(choice: str, acting: Action | None) -> str:
    """Why an answer to a window was taken, in words, before the look-ahead says so: "lets
    grok's Stand Up be", "interrupts grok's Attack"."""
    what = f"{acting.actor}'s {acting.name.replace('_', ' ').title()}" if acting else "it"
    if choice == NONE:
        return f"lets {what} be"
    if choice == "interrupt":
        return f"interrupts {what}"
    return f"takes the {choice.replace('_', ' ')} on {what}"
