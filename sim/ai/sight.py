"""What one side can see: the battle as the AI's side knows it, the only battle the AI reads.

Issue #29, fair information. A player of a side sees every creature but those Unseen by all of
its side (R-X8, R-K1: Hide) and the divers the water hides from all of it (R-M8 Decision:
`diving.apart`); of such a creature the player knows where it was last seen, not where it is.
A player sees a foe Skip / Prepare, not the plan it waits with (R-P2). And no player knows the
rolls still to come. So the AI reads `known_world` (the evaluators, the chooser, its reactions)
and `known_battle` (`hard`'s look-ahead forks it), never the true world:

- a creature hidden from the whole side (`hidden`) stands where the side last saw it
  (`Sightings`, the battle's events followed as the side saw them), or, never seen (hidden
  from the start), where it began the battle; it keeps its Unseen condition, so the known
  battle refuses to single it out as the true one does. Moving it, rather than taking it out,
  keeps every creature the turn order names in the known battle, and a player who saw the
  goblin slip behind the crate does know roughly where it is;
- the plans other sides wait with (`Prepared` not yet triggered) are taken out: their turns
  were seen to end, no more; a triggered plan (`by` set) is being carried out in the open;
- the known battle rolls `SEALED`, dice that refuse to roll: a look-ahead forks it with its
  own seeded dice (`Battle.fork(dice)`), so nothing the AI reads holds the battle's dice.

What the acting creature may try still comes from the true battle (`legal_decisions`): it may
only submit what the rules accept. That listing, like a refused decision, can tell something
(a cell it cannot step into is taken), as a refusal would tell a player.
"""

from __future__ import annotations

from sim.core.components import Conditions, Position, Stats, Team
from sim.core.creature import creatures, incapacitated, team_of, unseen_by
from sim.core.world import World
from sim.play.apply import apply
from sim.play.engine import Battle
from sim.rules.combat.prepare import Prepared
from sim.rules.movement.diving import apart, submerged


class FutureDice(RuntimeError):
    """The AI rolled the dice of a battle it knows: only a fork with its own dice may roll."""


class _Sealed:
    """Dice that refuse to roll: the known battle's, whose rolls to come nobody may read."""

    def roll(self, sides: int) -> int:
        raise FutureDice("the known battle's dice are sealed: fork it with dice of your own")

    def describe(self) -> str:
        return "sealed"


SEALED = _Sealed()


def hidden(world: World, team: str) -> tuple[str, ...]:
    """The creatures of the other sides that no creature of `team` sees: each is Unseen by
    it (R-X8) or the water stands between them (R-M8). Only creatures in the fight look
    (R-K2); a side with none standing looks with all it has. Worked out once per state:
    `Sightings` asks after every event, and `hard`'s guide at every decision of its forks."""
    return world.memo(("hidden", team), lambda: _hidden(world, team), reads=_READS)


_READS = (Conditions, Position, Team, Stats)


def _hidden(world: World, team: str) -> tuple[str, ...]:
    side = [u for u in creatures(world) if team_of(world, u) == team]
    eyes = [u for u in side if not incapacitated(world, u)] or side
    diving = any(submerged(world, u) for u in eyes)
    out = []
    for other in creatures(world):
        if team_of(world, other) == team:
            continue
        unseen = unseen_by(world, other)
        # Nobody under water on either hand and Unseen by none: seen (the common case).
        if not unseen and not diving and not submerged(world, other):
            continue
        if all(u in unseen or apart(world, u, other) for u in eyes):
            out.append(other)
    return tuple(out)


class Sightings:
    """Where each side last saw each creature of the others. `follow` folds the battle's
    events, from the world as it began, one at a time, and after each the side notes where it
    sees the others, as a player watching the board would: a goblin that hides is remembered
    where it hid, not where it went after. A function of the battle's history alone, not of
    when the AI was asked: an AI given a side mid-battle, or a save loaded, knows the same."""

    def __init__(self) -> None:
        self._seen: dict[str, dict[str, Position]] = {}
        self._when: dict[str, dict[str, int]] = {}  # the round each was last seen in
        # Per side: the folded world, how many events of the log it has taken, the last one.
        self._fold: dict[str, tuple[World, int, object]] = {}
        self._start: World | None = None
        self._frozen = False

    def follow(self, battle: Battle, team: str) -> None:
        """Fold the events logged since the last call (all of them for a new battle)."""
        start = battle.start
        if start is None or self._frozen:
            return  # a snapshot, or a battle not begun with Battle.begin: no history to follow
        if start is not self._start:
            self._seen, self._when, self._fold, self._start = {}, {}, {}, start
        log = battle.log
        world, done, last = self._fold.get(team, (start, 0, None))
        if done and (done > len(log) or log[done - 1] is not last):
            # Another branch of the same battle (a fork): its history from the start.
            world, done = start, 0
            self._seen.pop(team, None)
            self._when.pop(team, None)
        if done == len(log):
            return
        if done == 0:
            world = start.copy()
            self._note(world, team)  # the deployment
        noted = world.stamp(_READS)
        for event in log[done:]:
            apply(world, event)
            # Most events (rolls, spending) move nobody and hide nobody: nothing to note.
            now = world.stamp(_READS)
            if now != noted:
                self._note(world, team)
                noted = now
        self._fold[team] = (world, len(log), log[-1])

    def _note(self, world: World, team: str) -> None:
        unseen = hidden(world, team)
        seen = self._seen.setdefault(team, {})
        when = self._when.setdefault(team, {})
        for other in creatures(world):
            if other not in unseen and team_of(world, other) != team:
                seen[other] = world.need(other, Position)
                when[other] = world.turn.round

    def last(self, team: str, unit: str) -> Position | None:
        return self._seen.get(team, {}).get(unit)

    def since(self, team: str, unit: str) -> int | None:
        """The round `team` last saw `unit` in (None: never seen since it was followed)."""
        return self._when.get(team, {}).get(unit)

    def snapshot(self) -> Sightings:
        """What is known now, that follows no battle: for `hard`'s guide, whose forks are
        already the battle as its side knows it."""
        clone = Sightings()
        clone._seen = {team: dict(seen) for team, seen in self._seen.items()}
        clone._when = {team: dict(when) for team, when in self._when.items()}
        clone._frozen = True
        return clone


def known_world(world: World, team: str, sightings: Sightings, start: World | None = None) -> World:
    """`world` as `team` knows it (see the module's docstring): a copy with the creatures
    hidden from it where it last saw them (`sightings`, else their place in `start`, the
    world as the battle began) and the other sides' waiting plans taken out; `world` itself
    when nothing is kept from the side."""
    unseen = hidden(world, team)
    plans = [u for u, plan in world.each(Prepared) if not plan.by and team_of(world, u) != team]
    if not unseen and not plans:
        return world
    known = world.copy()
    for unit in plans:
        known.remove(unit, Prepared)
    for unit in unseen:
        place = sightings.last(team, unit)
        if place is None and start is not None and start.exists(unit):
            place = start.get(unit, Position)
        if place is not None:
            known.set(unit, place)
        # else: a creature neither seen nor deployed (one summoned out of sight) cannot be
        # placed anywhere it was seen; it stays, the one thing this view does not hide.
    return known


def known_battle(battle: Battle, team: str, sightings: Sightings) -> Battle:
    """A fork of `battle` as `team` knows it (`known_world`), with `SEALED` dice: what
    `hard`'s look-ahead forks, never the true battle. Only while no resolution is paused
    (an AI's own turn): a paused one is rebuilt by playing the battle again, which the
    known world is not."""
    assert battle.resolving is None, "a battle paused at a reaction window is not forked here"
    fork = battle.fork(SEALED)
    fork.world = known_world(fork.world, team, sightings, battle.start)
    return fork
