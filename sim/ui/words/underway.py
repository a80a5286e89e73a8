"""What is under way while a reaction window waits for a player (no pygame): the action being
resolved — a move's cells still ahead and where it ends, or the creature or cell it is aimed
at — and the attack a defence window is about. The prompt asks "react to this?"; the board
shows "this". Read from the public record only: the log, the decisions and the world."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sim.core import actions as a
from sim.core import events as ev
from sim.core.actions import Action, Refusal
from sim.core.components import Position
from sim.core.geometry import Pos
from sim.core.purpose import RollKind
from sim.play.engine import AwaitingReaction, Battle
from sim.rules.combat.prepare import REACTION_SPENDS
from sim.rules.movement.movement import allowance, last_stop, plan_move


@dataclass(frozen=True, slots=True)
class Moving:
    """A move being made: who, with which Movement Action, where it stands now, and the cells
    still ahead (the last is where the move ends); `jumps` are indices into `ahead`."""

    unit: str
    action: str
    here: Pos
    ahead: tuple[Pos, ...]
    jumps: tuple[int, ...] = ()

    @property
    def end(self) -> Pos:
        return self.ahead[-1] if self.ahead else self.here


@dataclass(frozen=True, slots=True)
class Aimed:
    """An action aimed from `actor` at a creature (`target`) or at a `cell`."""

    actor: str
    what: str  # "attack", "attack of opportunity", "cast firebolt", ...
    target: str | None = None
    cell: Pos | None = None


@dataclass(frozen=True, slots=True)
class Underway:
    move: Moving | None
    aims: tuple[Aimed, ...]

    def words(self) -> list[str]:
        """What the board shows, in words, for the prompt."""
        out = []
        if self.move is not None:
            m = self.move
            n = len(m.ahead)
            out.append(
                f"On the board: {m.unit} {m.action.replace('_', ' ')}s from {m.here} to {m.end}, "
                f"{n} cell{'s' if n != 1 else ''} to go (white path, boxed cell)"
            )
        for aim in self.aims:
            at = aim.target if aim.target is not None else str(aim.cell)
            out.append(f"On the board: {aim.actor}'s {aim.what} on {at} (dashed arrow)")
        return out


def _action_name(action: Action) -> str:
    if isinstance(action, a.AbilityAction):
        return f"{action.name} {action.ability.replace('_', ' ')}"
    return action.name.replace("_", " ")


def in_progress(battle: Battle) -> tuple[Action, int] | None:
    """The action being resolved at the open reaction window, and the index in the log of the
    cost it paid (where its events begin)."""
    action = battle.resolving
    if action is None:
        return None
    log = battle.log
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if (
            isinstance(event, ev.Spent)
            and event.unit == action.actor
            and event.action == action.name
            and event.action not in REACTION_SPENDS
        ):
            return action, index
    return action, len(log)


def _moving(battle: Battle, action: a.Movement, since: int) -> Moving | None:
    """The move under way: the engine's own legs still ahead, cut where a Sprint's rolled
    metres run out (R-M1)."""
    world = battle.world
    unit = action.actor
    if not world.has(unit, Position):
        return None
    here = world.need(unit, Position).cell
    made = [e for e in battle.log[since:] if isinstance(e, ev.Moved | ev.Jumped) and e.unit == unit]
    origin = made[0].start if made else here
    # The engine planned the move from where it began, with the run-up its jumps need; plan it
    # again from there, on a private copy with the mover put back (nothing else moves while
    # a move resolves), so the legs are the engine's. The game's world is not touched.
    before = world.copy()
    before.set(unit, replace(world.need(unit, Position), cell=origin))
    try:
        plan = plan_move(before, action)
    except Exception:  # a core bug must not take the client down: show what was asked
        plan = Refusal("")
    if isinstance(plan, Refusal):
        asked = action.path[len(made) :] if action.path else (action.to,) if action.to else ()
        return Moving(unit, action.name, here, asked) if asked else None
    stop = len(plan.legs)
    if isinstance(action, a.Sprint):
        for e in battle.log[since:]:
            if isinstance(e, ev.Rolled) and e.unit == unit and e.tag is RollKind.SPRINT:
                limit = allowance(world, unit, a.Sprint, e.result)
                stop = last_stop(world, unit, plan.legs, limit)
                break
    legs = plan.legs[len(made) : stop]
    jumps = tuple(i for i, leg in enumerate(legs) if leg.how == "jump")
    return Moving(unit, action.name, here, tuple(leg.end for leg in legs), jumps)


def underway(battle: Battle) -> Underway | None:
    """What the open reaction window is about, for the board; None when no window is open."""
    pending = battle.pending
    if not isinstance(pending, AwaitingReaction):
        return None
    found = in_progress(battle)
    move: Moving | None = None
    aims: list[Aimed] = []
    since = len(battle.log)
    if found is not None:
        action, since = found
        if isinstance(action, a.Movement):
            move = _moving(battle, action, since)
        else:
            target = getattr(action, "target", None)
            cell = getattr(action, "to", None)
            if isinstance(target, str) and target:
                aims.append(Aimed(action.actor, _action_name(action), target))
            elif isinstance(cell, Pos):
                aims.append(Aimed(action.actor, _action_name(action), cell=cell))
    if pending.kind == "defence":
        # A defence window: the attack on the asked creature is the one whose Hit Roll was
        # just counted; a reaction's spend after the action's own names it (an attack of
        # opportunity, an interrupt).
        attacker: str | None = None
        what = "attack"
        if found is not None and not isinstance(found[0], a.Movement):
            what = _action_name(found[0])
        for event in reversed(battle.log[since:]):
            if attacker is None and isinstance(event, ev.AttackCounted):
                attacker = event.unit
            elif (
                attacker is not None
                and isinstance(event, ev.Spent)
                and event.unit == attacker
                and event.action in REACTION_SPENDS
            ):
                what = event.action.replace("_", " ")
                break
        known = any(x.actor == attacker and x.target == pending.unit for x in aims)
        if attacker is not None and attacker != pending.unit and not known:
            aims.append(Aimed(attacker, what, pending.unit))
    if move is None and not aims:
        return None
    return Underway(move, tuple(aims))
