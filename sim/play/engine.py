"""The battle as a state machine: it says what it waits for and advances on `submit`.

It never blocks and never calls a UI: the hotseat client, a script, the AI and a test all drive
it the same way (DESIGN "How an action flows").
"""

from __future__ import annotations

import copy
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

from sim.core import events as ev
from sim.core.actions import Action, Cost, Disengage, EndTurn, Prepare, Refusal
from sim.core.components import (
    Body,
    Conditions,
    ExtendedAction,
    Policy,
    Position,
    Stats,
    Team,
    TurnState,
)
from sim.core.condition import Condition
from sim.core.creature import conditions, has, incapacitated, is_creature
from sim.core.dice import Dice, DiceExhausted, LoadedDice
from sim.core.world import World
from sim.play.apply import apply
from sim.play.auto import AUTO, auto_answer
from sim.play.rulebook import RULEBOOK
from sim.rules.budget import given_back, price
from sim.rules.combat.grapple import loosened
from sim.rules.combat.hide import revealed_by_move
from sim.rules.combat.interrupt import guarded
from sim.rules.combat.prepare import Prepared, due_turns, moved_after, ready, triggered
from sim.rules.combat.reactions import (
    NONE,
    Ask,
    Reply,
    disengage_lapses,
    policy_answer,
    reaction_refusal,
)
from sim.rules.movement.flight import grounded
from sim.rules.objectives import Objective, outcome
from sim.rules.turns import END_OF_TURN, START_OF_TURN, next_in_order, roll_initiative, skip_reason


@dataclass(frozen=True, slots=True)
class AwaitingAction:
    """The engine waits for `unit`, whose turn it is, to act."""

    unit: str


@dataclass(frozen=True, slots=True)
class AwaitingReaction:
    """The engine waits for `unit` to choose among `options` (or "none"). `kind` names the
    window (reactions.Ask.kind: "defence", "attack_of_opportunity", ...); it follows from the
    trigger, so it takes no part in comparisons."""

    unit: str
    trigger: str
    options: tuple[str, ...]
    kind: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class BattleOver:
    winners: tuple[str, ...]
    reason: str


Pending = AwaitingAction | AwaitingReaction | BattleOver

# The standing answers to reaction windows (docs/commands.md): "auto" weighs each by the odds
# (sim/play/auto.py) and is every creature's default; "ask" waits for its player; "always" takes
# the first option (the best defence by its average), "never" none. In the order P cycles them.
REACTION_POLICIES = (AUTO, "ask", "always", "never")
# The default of saves from before "auto" (sim/formats/replay.py): they replay under it.
OLD_DEFAULT_POLICY = "always"
DEFENCES = ("best", "dodge", "parry", "block", "none")


@dataclass(frozen=True, slots=True)
class SetPolicy:
    """A side's standing answer for one creature's reactions; allowed at any time."""

    unit: str
    reactions: str = AUTO
    defence: str = "best"


@dataclass(frozen=True, slots=True)
class ReactionChoice:
    """The answer to an open reaction window: one of its options, or "none"; `slow`: the
    reaction is paid one step slower (R-B7)."""

    unit: str
    choice: str
    slow: bool = False


Decision = Action | SetPolicy | ReactionChoice


@dataclass(frozen=True, slots=True)
class Accepted:
    events: tuple[ev.Event, ...]


Outcome = Accepted | Refusal
Resolution = Generator[ev.Event | Ask, Reply | None, None]


# Conditions that break an Extended Action in progress (R-B5).
BREAKS_EXTENDED = (Condition.INCAPACITATED, Condition.GRAPPLED, Condition.PRONE)
# What the follow-ups after events read: grapples and conditions, places and reach (bodies), who
# is a creature on which side, Extended Actions in progress, and the round (Survive objectives).
FOLLOWUP_READS = (Conditions, Position, Body, Team, Stats, ExtendedAction, TurnState)


class _Relay:
    """Dice that roll with `inner`, which `Battle.fork` turns over to the fork's own dice."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner

    def roll(self, sides: int) -> int:
        return self.inner.roll(sides)

    def describe(self) -> str:
        return self.inner.describe()


class _Taped:
    """Dice that roll with `inner` and keep what they rolled since `rolls` was last emptied."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.rolls: list[int] = []

    def roll(self, sides: int) -> int:
        result = self.inner.roll(sides)
        self.rolls.append(result)
        return result

    def describe(self) -> str:
        return self.inner.describe()


class Battle:
    """One battle: a world, its dice, its log, and what it waits for."""

    def __init__(
        self,
        world: World,
        dice: Dice,
        *,
        scenario: str = "",
        seed: int | None = None,
        objectives: tuple[Objective, ...] = (),
        default_policy: str = AUTO,
    ) -> None:
        self.world = world
        # The reaction policy the creatures that name none began with: "auto", or a save's
        # older default it replays under (`OLD_DEFAULT_POLICY`); a save records it.
        self.default_policy = default_policy
        # Set in `keep_checkpoints`: the rolls since the last checkpoint.
        self._tape: _Taped | None = None
        self.dice = dice
        self.scenario = scenario
        self.seed = seed
        self.objectives = objectives
        self.log: list[ev.Event] = []
        self.decisions: list[Decision] = []
        self._paused: tuple[Resolution, Ask] | None = None
        self._acting: Action | None = None
        # The world and dice as the battle began, to rebuild it for a fork (see `fork`).
        self._origin: tuple[World, Dice] | None = None
        # The world's stamp (FOLLOWUP_READS) when the follow-ups last found nothing to do.
        self._settled: tuple[int, ...] | None = None
        # The world's mark (anything written) when they were last found settled.
        self._settled_mark: tuple[int, int, int] | None = None
        # The last AwaitingAction `pending` gave (frozen; it holds only the unit to act), given
        # again while that unit is to act: a policy asks it for every check.
        self._awaiting: AwaitingAction | None = None
        # With `keep_checkpoints`: the world before the last action submitted, where that action
        # stands in `decisions` and the length of the log then (`Battle.fork` at a window).
        self._checkpoint: tuple[World, int, int] | None = None

    @property
    def dice(self) -> Dice:
        """The battle's dice."""
        return self._dice

    @dice.setter
    def dice(self, dice: Dice) -> None:
        self._dice = dice
        self._tape = None if self._tape is None else _Taped(dice)
        # What the rules roll: the dice, through the tape while checkpoints are kept (an
        # attribute, not a property: every action and every turn's steps read it).
        self._rolls: Dice = dice if self._tape is None else self._tape
        self._checkpoint = None

    def keep_checkpoints(self) -> None:
        """From the next action on, keep the world as it stood before each action and the
        rolls made since, so that a fork at a reaction window plays that one action again
        instead of the whole battle (`fork`; `hard` looks ahead at its windows). A copy of the
        world and a list of rolls an action: cheap beside a mind's decision, so the AI's seats
        keep them and the bare engine does not."""
        if self._tape is None:
            self._tape = self._rolls = _Taped(self._dice)

    @property
    def checkpointed(self) -> bool:
        """Whether a fork at the open window plays one action again, not the whole battle."""
        return self._paused is not None and self._checkpoint is not None

    @classmethod
    def begin(
        cls,
        world: World,
        dice: Dice,
        *,
        scenario: str = "",
        seed: int | None = None,
        objectives: tuple[Objective, ...] = (),
        default_policy: str = AUTO,
    ) -> Battle:
        """Roll initiative (R-T1) and start the first turn."""
        battle = cls(
            world,
            dice,
            scenario=scenario,
            seed=seed,
            objectives=objectives,
            default_policy=default_policy,
        )
        battle._origin = (world.copy(), copy.deepcopy(dice))
        battle._commit([ev.BattleStarted(scenario, seed, dice.describe())])
        battle._commit(roll_initiative(world, dice))
        battle._commit([ev.RoundStarted(1)])
        battle._start_turn(world.turn.order[0])
        return battle

    def fork(self, dice: Dice) -> Battle:
        """A copy of this battle that rolls `dice` from now on, to look ahead in (the AI);
        this battle is untouched. A resolution paused at a reaction window cannot be copied,
        so while one is open the copy is rebuilt by playing decisions again on the rolls they
        made, which gives the same state (DESIGN: determinism): from the last checkpoint
        (`keep_checkpoints`) the action that opened the window, else the whole battle from its
        start with the battle's own dice."""
        if self._paused is None:
            clone = self._kin(self.world.copy(), dice, begun=False)
            clone.log = list(self.log)
            clone.decisions = list(self.decisions)
            clone._origin = self._origin
            return clone
        quick = self._replayed(dice)
        if quick is not None:
            return quick
        if self._origin is None:
            raise ValueError("this battle was not begun with Battle.begin; it cannot be forked")
        world, origin_dice = self._origin
        # The paused resolution holds the dice it began with (an Interrupt window's, its
        # strike): a relay, turned over to `dice` once the decisions are played again, so
        # that the rest of it rolls the fork's dice too, not the battle's own; else a
        # look-ahead from the window reads the rolls the battle is about to make.
        relay = _Relay(copy.deepcopy(origin_dice))
        clone = self._kin(world.copy(), relay, begun=True)
        for decision in self.decisions:
            clone.submit(decision)
        relay.inner = dice
        clone.dice = dice
        return clone

    def _kin(self, world: World, dice: Dice, *, begun: bool) -> Battle:
        """A battle of this one's scenario, seed, objectives and default policy on `world`
        (`begun`: begun there, its initiative rolled and its first turn started)."""
        make = Battle.begin if begun else Battle
        return make(
            world,
            dice,
            scenario=self.scenario,
            seed=self.seed,
            objectives=self.objectives,
            default_policy=self.default_policy,
        )

    def _replayed(self, dice: Dice) -> Battle | None:
        """`fork` at an open window from the last checkpoint (`keep_checkpoints`): the world
        before the action whose resolution waits, that action and the answers since played
        again on the rolls they made, then `dice`; None without a checkpoint, or where the
        replay does not reach the same window (it always should: the same world, decisions
        and rolls give the same events; the whole battle is played again then)."""
        if self._checkpoint is None or self._tape is None:
            return None
        world, index, logged = self._checkpoint
        relay = _Relay(LoadedDice(self._tape.rolls))
        clone = self._kin(world.copy(), relay, begun=False)
        clone.log = self.log[:logged]
        clone.decisions = self.decisions[:index]
        clone._origin = self._origin
        try:
            for decision in self.decisions[index:]:
                if isinstance(clone.submit(decision), Refusal):
                    return None
        except DiceExhausted:
            return None
        if len(clone.log) != len(self.log) or clone.pending != self.pending:
            return None
        relay.inner = dice
        clone.dice = dice
        return clone

    @property
    def start(self) -> World | None:
        """The world as the battle began, before initiative (None for a battle not begun with
        `begin`): where each creature was deployed, which every side saw. Not to be changed."""
        return self._origin[0] if self._origin is not None else None

    # --- what the engine waits for ---------------------------------------------------------
    @property
    def pending(self) -> Pending:
        turn = self.world.turn
        if turn.over:
            return BattleOver(turn.winners, self._end_reason())
        if self._paused is not None:
            ask = self._paused[1]
            return AwaitingReaction(ask.unit, ask.trigger, ask.options, ask.kind)
        current = turn.current
        assert current is not None
        awaiting = self._awaiting
        if awaiting is None or awaiting.unit != current:
            awaiting = self._awaiting = AwaitingAction(current)
        return awaiting

    @property
    def resolving(self) -> Action | None:
        """The action whose resolution waits at the open reaction window (a prepared action
        the engine took itself included, R-P3), or None when no window is open."""
        return self._acting if self._paused is not None else None

    def _end_reason(self) -> str:
        for event in reversed(self.log):
            if isinstance(event, ev.BattleEnded):
                return event.reason
        return ""

    # --- checking --------------------------------------------------------------------------
    def check(self, action: Action) -> Cost | Refusal:
        """The cost of `action` now, or why it is refused. Pure: changes nothing."""
        world = self.world
        actor = action.actor
        if world.turn.over:
            return Refusal("the battle is over: a side has won (R-C6)")
        if not world.exists(actor) or not is_creature(world, actor):
            return Refusal(f"there is no unit {actor!r} (R-C1)")
        pending = self.pending
        if isinstance(pending, AwaitingReaction):
            return Refusal(f"waiting for {pending.unit} to answer: {pending.trigger} (R-R8)")
        if isinstance(pending, AwaitingAction) and pending.unit != actor and not action.reaction:
            return Refusal(f"it is {pending.unit}'s turn, not {actor}'s (R-T3)")
        if incapacitated(world, actor):
            return Refusal(f"{actor} is incapacitated and can take no actions (R-K2)")
        mechanic = RULEBOOK.get(type(action))
        if mechanic is None:
            return Refusal(f"{action.name!r} is not an action of the rules (R-B1)")
        cost = self.priced(action)
        if isinstance(cost, Refusal):
            return cost
        refusal = mechanic.check(world, action)
        return refusal if refusal is not None else cost

    def priced(self, action: Action) -> Cost | Refusal:
        """The budget's part of `check`: what `action` costs its actor now, or why the budget
        cannot pay it (R-B3, R-B4, R-B5). Pure; it asks nothing of the action's own rules."""
        # R-B5: an action that breaks an Extended Action in progress is paid from the turn's
        # Full Action given back.
        return price(self.world, action, given_back(self.world, action))

    # --- advancing -------------------------------------------------------------------------
    def submit(self, decision: Decision) -> Outcome:
        """Take one decision; a refusal changes nothing (R-B4)."""
        if isinstance(decision, SetPolicy):
            return self._set_policy(decision)
        if isinstance(decision, ReactionChoice):
            return self._answer(decision)
        if self._tape is not None:
            self._checkpoint = (self.world.copy(), len(self.decisions), len(self.log))
            self._tape.rolls = []
        self.decisions.append(decision)
        return self._take(decision)

    def _take(self, decision: Action) -> Outcome:
        """Check and resolve one action (a player's, or a prepared one the engine takes)."""
        cost = self.check(decision)
        if isinstance(cost, Refusal):
            return cost
        world = self.world
        actor = decision.actor
        events: list[ev.Event] = disengage_lapses(
            world, actor, decision.movement or isinstance(decision, Disengage)
        )
        extended = world.get(actor, ExtendedAction)
        if extended is not None and cost.counts_as_action:
            events.append(ev.ExtendedBroken(actor, extended.action, f"{actor} took another action"))
            rules = world.rules
            events.append(
                ev.BudgetRefilled(actor, rules.budget.half_actions, rules.budget.bonus_actions)
            )
        if not isinstance(decision, EndTurn):
            events.append(
                ev.Spent(
                    actor,
                    decision.name,
                    cost.tier.value,
                    cost.half,
                    cost.bonus,
                    cost.free_kind if cost.bonus == 0 else None,
                    cost.counts_as_action,
                )
            )
        start = len(self.log)
        self._commit(events)
        self._acting = decision
        mechanic = RULEBOOK[type(decision)]
        self._drive(  # R-R7: the Interrupt windows open first
            guarded(
                world, self._rolls, decision, lambda: mechanic.resolve(world, decision, self._rolls)
            )
        )
        return Accepted(tuple(self.log[start:]))

    def _answer(self, choice: ReactionChoice) -> Outcome:
        """Answer the open reaction window and carry on resolving (R-R8)."""
        if self._paused is None:
            return Refusal("no reaction window is open (R-R8)")
        resolution, ask = self._paused
        refusal = self.check_answer(choice)
        if refusal is not None:
            return refusal
        self.decisions.append(choice)
        start = len(self.log)
        self._commit(
            [
                ev.ReactionAnswered(
                    ask.unit, ask.kind, ask.trigger, ask.options, choice.choice, "player"
                )
            ]
        )
        self._paused = None
        self._drive(resolution, Reply(choice.choice, choice.slow))
        return Accepted(tuple(self.log[start:]))

    def check_answer(self, choice: ReactionChoice) -> Refusal | None:
        """Why `choice` cannot answer the open window, or None. Pure: changes nothing. A slowed
        reaction (R-B7) is always asked for; where its cost cannot be paid the refusal names
        the slowed cost and what is missing."""
        if self._paused is None:
            return Refusal("no reaction window is open (R-R8)")
        ask = self._paused[1]
        if choice.unit != ask.unit:
            return Refusal(f"the open window is {ask.unit}'s to answer, not {choice.unit}'s (R-R8)")
        if choice.choice not in ask.options:
            return Refusal(
                f"{choice.choice!r} is not an option; {ask.unit} may choose "
                f"{', '.join(ask.options)} (R-R8)"
            )
        if choice.slow:
            if choice.choice == NONE:
                return Refusal('"none" cannot be slowed: declining costs nothing (R-B7)')
            return reaction_refusal(self.world, ask.unit, ask.kind, choice.choice, slow=True)
        return None

    def _drive(self, resolution: Resolution, answer: Reply | None = None) -> None:
        """Apply what a resolution yields until it ends, or until a window needs a player."""
        while True:
            if self.world.turn.over:
                resolution.close()
                return
            try:
                item = resolution.send(answer)
            except StopIteration:
                break
            answer = None
            if isinstance(item, Ask):
                policy = self.world.get(item.unit, Policy) or Policy()
                reason = ""
                if policy.reactions == AUTO:
                    chosen = auto_answer(self.world, item, self._acting, self.objectives)
                    auto: str | None = chosen.choice
                    reason = chosen.reason
                else:
                    auto = policy_answer(self.world, item)
                if auto is None:
                    self._paused = (resolution, item)
                    return
                self._commit(
                    [
                        ev.ReactionAnswered(
                            item.unit,
                            item.kind,
                            item.trigger,
                            item.options,
                            auto,
                            "policy",
                            reason,
                        )
                    ]
                )
                answer = Reply(auto)
            else:
                self._commit([item])
        self._finish(self._acting)

    def _finish(self, decision: Action | None) -> None:
        """What follows an action's resolution: Disengage is used up by a move (R-R5); a move
        that ends in plain sight ends Unseen (R-X8); ending the turn starts the next one, and so
        does the actor being downed on its own turn (R-K2: it can no longer end it itself)."""
        world = self.world
        if decision is None or world.turn.over:
            return
        actor = decision.actor
        if decision.movement and has(world, actor, Condition.DISENGAGED):
            self._commit([ev.ConditionLost(actor, Condition.DISENGAGED, "used by this move")])
        if decision.movement:
            self._commit(revealed_by_move(world, actor))
        if world.turn.over:
            return
        if isinstance(decision, EndTurn | Prepare):
            self._end_turn(actor)  # R-P1: a preparer does nothing else this turn
        elif world.turn.current == actor and incapacitated(world, actor):
            self._end_turn(actor)

    def _set_policy(self, decision: SetPolicy) -> Outcome:
        world = self.world
        if not world.exists(decision.unit) or not is_creature(world, decision.unit):
            return Refusal(f"there is no unit {decision.unit!r} (R-C1)")
        if decision.reactions not in REACTION_POLICIES:
            return Refusal(
                f"reaction policy must be one of {', '.join(REACTION_POLICIES)}, "
                f"not {decision.reactions!r} (R-R8)"
            )
        if decision.defence not in DEFENCES:
            return Refusal(
                f"preferred defence must be one of {', '.join(DEFENCES)}, not "
                f"{decision.defence!r} (R-R1, R-R2, R-R3)"
            )
        self.decisions.append(decision)
        start = len(self.log)
        self._commit([ev.PolicySet(decision.unit, decision.reactions, decision.defence)])
        return Accepted(tuple(self.log[start:]))

    def _commit(self, events: list[ev.Event]) -> None:
        """Apply events in order, then what follows from them (R-B5 breaks, the battle's end)."""
        self._record(events)
        if events and not self.world.turn.over:
            self._record(grounded(self.world, events))  # R-Z5: a downed flier falls
            self._followups()
        if events and not self.world.turn.over:
            self._record(triggered(self.world, events))  # R-P3

    def _record(self, events: Iterable[ev.Event]) -> None:
        """Apply events in order and log them; nothing follows from them here."""
        for event in events:
            apply(self.world, event)
            self.log.append(event)

    def _followups(self) -> None:
        """R-G4's loosened grapples, R-B5's broken Extended Actions and the battle's end, which
        depend only on FOLLOWUP_READS: when none of those was written since a look that found
        nothing, looking again would find nothing either (issue #11: most event batches are
        rolls and spending)."""
        world = self.world
        mark = world.mark
        if mark == self._settled_mark:
            return  # nothing at all written since they were last found settled
        stamp = world.stamp(FOLLOWUP_READS)
        if stamp == self._settled:
            self._settled_mark = mark
            return
        before = len(self.log)
        self._record(loosened(world))  # R-G4: moved apart, or the grappler is Incapacitated
        broken: list[ev.Event] = []
        for unit, extended in world.each(ExtendedAction):
            held = conditions(world, unit)
            condition = next((c for c in BREAKS_EXTENDED if held.has(c)), None)
            if condition is not None:
                broken.append(ev.ExtendedBroken(unit, extended.action, f"{unit} is {condition}"))
        self._record(broken)
        decided = outcome(world, self.objectives)
        if decided is not None:
            self._record([ev.BattleEnded(*decided)])
        if len(self.log) == before:
            self._settled = stamp
            self._settled_mark = mark

    def _start_turn(self, unit: str) -> None:
        """Start `unit`'s turn (R-T2), passing over creatures that cannot act."""
        world = self.world
        for _ in range(len(world.turn.order) + 1):
            if world.turn.over:
                return
            reason = skip_reason(world, unit)
            if reason is None:
                self._commit([ev.TurnStarted(unit, world.turn.round)])
                for step in START_OF_TURN:
                    self._commit(step(world, unit, self._rolls))
                    if world.turn.over:
                        return
                if skip_reason(world, unit) is None:
                    return
                self._commit([ev.TurnEnded(unit)])
            else:
                self._commit([ev.TurnSkipped(unit, reason)])
            unit = self._next_unit()
        self._commit([ev.BattleEnded((), "no creature can act")])

    def _next_unit(self) -> str:
        unit, new_round = next_in_order(self.world)
        if new_round:
            self._commit([ev.RoundStarted(self.world.turn.round + 1)])
        return unit

    def _end_turn(self, unit: str) -> None:
        """R-T2's counterpart: the end-of-turn steps, then the next creature's turn."""
        world = self.world
        self._commit([ev.TurnEnded(unit)])
        for step in END_OF_TURN:
            if world.turn.over:
                return
            self._commit(step(world, unit, self._rolls))
        if world.turn.over:
            return
        # R-K2: a preparer downed since its trigger takes no actions; its plan is dropped.
        self._commit(
            [
                ev.PlanDropped(preparer, "incapacitated before it could act (R-K2)")
                for preparer in ready(world)
                if incapacitated(world, preparer)
            ]
        )
        waiting = ready(world)
        if waiting:
            self._resume(waiting[0], after=unit)
            return
        # R-P3: every preparer set off by that turn has taken the rest of its prepared turn;
        # one whose plan was made in an earlier round now takes this round's turn at its place.
        due = due_turns(world)
        self._start_turn(due[0] if due else self._next_unit())

    def _resume(self, unit: str, after: str) -> None:
        """R-P3: the preparer takes the rest of its turn after the triggering creature's, with
        its prepared action first, and keeps that place in the initiative order."""
        world = self.world
        plan = world.need(unit, Prepared)
        self._commit([ev.InitiativeReordered(moved_after(world.turn.order, unit, after))])
        self._commit([ev.TurnResumed(unit, world.turn.round)])
        outcome = self._take(plan.then)
        if isinstance(outcome, Refusal):
            self._commit([ev.PlanRefused(unit, outcome.reason)])
