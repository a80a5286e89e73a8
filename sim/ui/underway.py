"""What is under way while a reaction window waits for a player (no pygame): the action being
resolved — a move's cells still ahead and where it ends, or the creature or cell it is aimed
at — and the attack a defence window is about. The prompt asks "react to this?"; the board
shows "this". Read from the public record only: the log, the decisions and the world."""

from __future__ import annotations

from dataclasses import dataclass

from sim import actions as a
from sim import events as ev
from sim.actions import Action, Refusal
from sim.components import Position
from sim.engine import AwaitingReaction, Battle
from sim.geometry import Pos
from sim.movement import allowance, last_stop, plan_move
from sim.prepare import REACTION_SPENDS


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
    world = battle.world
    unit = action.actor
    if not world.has(unit, Position):
        return None
    here = world.need(unit, Position).cell
    done = sum(
        1 for e in battle.log[since:] if isinstance(e, ev.Moved | ev.Jumped) and e.unit == unit
    )
    path = action.path
    if path:
        if done and (done > len(path) or path[done - 1] != here):
            done = path.index(here) + 1 if here in path else 0
        ahead = path[done:]
        jumps = tuple(j - done for j in action.jumps if j >= done)
    elif action.to is not None:
        try:  # a script's move with only "to": the engine's path from where the mover is now
            plan = plan_move(world, action)
        except Exception:  # a core bug must not take the client down: the destination alone
            plan = Refusal("")
        if isinstance(plan, Refusal):
            return Moving(unit, action.name, here, (action.to,))
        ahead = tuple(leg.end for leg in plan.legs)
        jumps = tuple(i for i, leg in enumerate(plan.legs) if leg.how == "jump")
    else:
        return None
    if isinstance(action, a.Sprint):
        keep = _sprint_reach(battle, action, ahead, jumps, since)
        ahead, jumps = ahead[:keep], tuple(j for j in jumps if j < keep)
    return Moving(unit, action.name, here, ahead, jumps)


def _sprint_reach(
    battle: Battle, action: a.Sprint, ahead: tuple[Pos, ...], jumps: tuple[int, ...], since: int
) -> int:
    """How many of the cells ahead a Sprint still makes: its metres were rolled when it was
    declared (R-M1), and it stops where they run out, as the engine does (`last_stop`)."""
    unit = action.actor
    rolled = next(
        (
            e
            for e in battle.log[since:]
            if isinstance(e, ev.Rolled) and e.unit == unit and e.purpose.startswith("sprint")
        ),
        None,
    )
    if rolled is None or not ahead:
        return len(ahead)
    world = battle.world
    spent = sum(
        e.cost for e in battle.log[since:] if isinstance(e, ev.Moved | ev.Jumped) and e.unit == unit
    )
    rest = plan_move(world, a.Sprint(unit, ahead, None, jumps))
    if isinstance(rest, Refusal):
        return len(ahead)
    limit = allowance(world, unit, a.Sprint, rolled.result) - spent
    return last_stop(world, unit, rest.legs, limit)


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
