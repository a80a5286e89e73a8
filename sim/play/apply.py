"""The only writer of state: `apply(world, event)` turns one event into component changes."""

from __future__ import annotations

from dataclasses import replace

from sim.core import events as ev
from sim.core.components import (
    AttackWindow,
    Budget,
    Conditions,
    ExtendedAction,
    Gear,
    Hands,
    Health,
    Initiative,
    Item,
    Policy,
    Position,
)
from sim.core.world import World
from sim.rules.budget import refilled
from sim.rules.combat.prepare import Prepared, TurnDue, plan_of, triggered_plan


def apply(world: World, event: ev.Event) -> None:
    """Write what `event` says happened. Events are facts: this never refuses."""
    # Each event class is its own (no event subclasses another), so the order of the cases
    # only decides how soon one is found: the most frequent come first (issue #11).
    match event:
        case ev.Moved(unit=unit, end=end) | ev.Jumped(unit=unit, end=end):
            world.set(unit, Position(end))
        case ev.BattleStarted() | ev.Rolled():
            pass
        case ev.TurnSkipped(unit=unit):
            world.turn = replace(world.turn, index=world.turn.order.index(unit))
            world.remove(unit, TurnDue)
        case ev.InitiativeRolled(unit=unit, score=score):
            world.set(unit, Initiative(score))
        case ev.InitiativeOrder(order=order):
            world.turn = replace(world.turn, order=order, index=0)
        case ev.RoundStarted(round=number):
            world.turn = replace(world.turn, round=number, index=0)
        case ev.TurnStarted(unit=unit):
            world.turn = replace(world.turn, index=world.turn.order.index(unit))
            world.remove(unit, TurnDue)  # R-P3: the turn a preparer was owed, if any
        case ev.BudgetRefilled(unit=unit):
            world.set(unit, refilled(world.rules))
        case ev.Spent(unit=unit, half=half, bonus=bonus, free_kind=kind, counts_as_action=acts):
            budget = world.need(unit, Budget)
            used = budget.free_used
            if kind is not None and kind not in used:
                used = (*used, kind)
            world.set(
                unit,
                Budget(
                    half=budget.half - half,
                    bonus=budget.bonus - bonus,
                    free_used=used,
                    acted=budget.acted or acts,
                ),
            )
        case ev.TurnEnded():
            pass
        case ev.AttackCounted(unit=unit, count=count):
            world.set(unit, AttackWindow(count))
        case ev.ReactionAnswered() | ev.AttackResolved() | ev.ActionLost():
            pass
        case ev.ConditionGained(unit=unit, condition=name, value=value):
            conditions = world.get(unit, Conditions) or Conditions()
            world.set(unit, conditions.set(name, value))
        case ev.ConditionLost(unit=unit, condition=name):
            conditions = world.get(unit, Conditions) or Conditions()
            world.set(unit, conditions.clear(name))
        case ev.Damaged(unit=unit, hp=hp) | ev.Healed(unit=unit, hp=hp):
            health = world.need(unit, Health)
            world.set(unit, replace(health, hp=hp))
        case ev.ItemDrawn(unit=unit, item=item, hands=hands):
            world.set(unit, world.need(unit, Gear).without(item))
            world.set(unit, world.need(unit, Hands).put(item, hands))
        case ev.ItemStowed(unit=unit, item=item):
            world.set(unit, world.need(unit, Hands).take(item))
            world.set(unit, world.need(unit, Gear).with_item(item))
        case ev.ItemDropped(unit=unit, item=item, at=cell):
            world.set(unit, world.need(unit, Hands).take(item))
            world.set(item, Position(cell))
        case ev.ItemPickedUp(unit=unit, item=item, hands=hands):
            world.remove(item, Position)
            world.set(unit, world.need(unit, Hands).put(item, hands))
        case ev.ItemConsumed(unit=unit, item=item):
            holding = world.need(unit, Hands)
            if holding.holding(item):
                world.set(unit, holding.take(item))
            else:
                world.set(unit, world.need(unit, Gear).without(item))
            world.remove(item, Item)
        case ev.ExtendedBegun(unit=unit, action=action, item=item, turns=turns):
            world.set(unit, ExtendedAction(action, item, turns, 1))
        case ev.ExtendedContinued(unit=unit, turns_done=done):
            world.set(unit, replace(world.need(unit, ExtendedAction), turns_done=done))
        case ev.ExtendedBroken(unit=unit):
            world.remove(unit, ExtendedAction)
        case ev.ArmourDonned(unit=unit, item=item):
            gear = world.need(unit, Gear).without(item)
            world.set(unit, replace(gear, armour=item))
            world.remove(unit, ExtendedAction)
        case ev.ArmourDoffed(unit=unit, item=item):
            gear = world.need(unit, Gear)
            world.set(unit, replace(gear, armour=None, carried=(*gear.carried, item)))
            world.remove(unit, ExtendedAction)
        case ev.PolicySet(unit=unit, reactions=reactions, defence=defence):
            world.set(unit, Policy(reactions, defence))
        case ev.Pushed(unit=unit, end=end):
            world.set(unit, Position(end))
        case ev.Climbed(unit=unit, end=end, elevation=elevation):
            world.set(unit, Position(end, elevation))
        case ev.Fell(unit=unit, at=at):
            world.set(unit, Position(at))  # on the ground of `at`, off any face (R-M4)
        case ev.MoveCutShort():
            pass
        case ev.AttackWindowReset(unit=unit):
            world.remove(unit, AttackWindow)
        case ev.AbilityUsed():
            pass
        case ev.ContestResolved() | ev.CheckResolved():
            pass
        case ev.ItemThrown(unit=unit, item=item, to=cell):
            world.set(unit, world.need(unit, Hands).take(item))
            world.set(item, Position(cell))
        case ev.ItemCaught(unit=unit, item=item):
            world.remove(item, Position)
            world.set(unit, world.need(unit, Hands).put(item))
        case ev.PlanMade(unit=unit):
            world.set(unit, plan_of(event))
        case ev.PlanTriggered(unit=unit, by=by):
            world.set(unit, triggered_plan(world.need(unit, Prepared), by))
        case ev.PlanDropped(unit=unit):
            world.remove(unit, Prepared)
        case ev.InitiativeReordered(order=order):
            current = world.turn.current
            index = order.index(current) if current in order else 0
            world.turn = replace(world.turn, order=order, index=index)
        case ev.TurnResumed(unit=unit, round=number):
            if world.need(unit, Prepared).round < number:
                world.set(unit, TurnDue(number))  # R-P3: this round's turn is still to come
            world.remove(unit, Prepared)
            world.turn = replace(world.turn, index=world.turn.order.index(unit))
        case ev.PlanRefused():
            pass
        case ev.BattleEnded(winners=winners):
            world.turn = replace(world.turn, over=True, winners=winners)
        case _:
            raise TypeError(f"apply() does not know {type(event).__name__}")
