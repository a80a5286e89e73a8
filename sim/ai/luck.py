"""What the dice gave a look-ahead's attacks beyond their odds, taken out as a control variate."""

from __future__ import annotations

from dataclasses import dataclass

from sim.ai.context import KILL
from sim.ai.prospect import WIN, burns, defended, lasting
from sim.core import actions as a
from sim.core import events as ev
from sim.core.abilities import Condition as Given
from sim.core.abilities import Damage
from sim.core.actions import Refusal
from sim.core.condition import Condition
from sim.core.creature import conditions, creatures, incapacitated, team_of
from sim.core.world import World
from sim.play.engine import (
    AwaitingAction,
    AwaitingReaction,
    Battle,
    Decision,
    Outcome,
    ReactionChoice,
)
from sim.play.odds import (
    attack_odds,
)
from sim.rules.combat.attack import plan_attack
from sim.rules.combat.reactions import (
    NONE,
    bonus_left,
    held_weapon,
    reaction_price,
)


@dataclass(slots=True)
class OpenAttack:
    """An attack submitted in a look-ahead whose Hit Roll has not been resolved yet."""

    attacker: str
    target: str
    damage: float  # expected, the target defending as well as it can
    kill: float  # the chance it takes the target down
    mark: int  # the length of the log when it was submitted
    sign: float  # +1 for an attack of the side that looks ahead, -1 for a foe's
    stake: float  # beyond KILL, what taking the target down wins: WIN when it ends the battle
    left: int  # the target's hit points as `standing` counts them (`lasting`) when submitted
    spell: bool  # a spell's worth is read from the target's `lasting` after it, not its Damaged


class Luck:
    """What the dice gave the attacks of a look-ahead beyond what they were expected to,
    in hit points' worth for `team` (as `standing` counts them)."""

    def __init__(self, battle: Battle, team: str) -> None:
        self.battle = battle
        self.team = team
        self.total = 0.0
        self.open: list[OpenAttack] = []
        self.submitted = 0  # decisions submitted through it: the effort of a look-ahead

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
            # The one interrupted may only Dodge (R-R7): counted against a Parry it cannot
            # make, nearly every Interrupt that hit was taken out as luck, and an Interrupt
            # looked worth almost nothing to the side that makes it and to the one that meets it.
            only = ("dodge",) if pending.kind == "interrupt" else None
            self._expect(decision.unit, battle.resolving.actor, None, only=only)
        elif isinstance(decision, a.AbilityAction) and isinstance(pending, AwaitingAction):
            self._expect_spell(decision)
        outcome = battle.submit(decision)
        self.submitted += 1
        if self.open:
            self._settle()
        return outcome

    def expect_resolving(self, answer: ReactionChoice) -> None:
        """A fork made at a reaction window, before `answer` is submitted: the Attack whose
        resolution waits there is expected as one submitted in the fork is, its target
        defending with what it has left once `answer` is paid for (an Interrupt by the
        target itself leaves it 2 Bonus Actions fewer for its defence, R-R7), so its luck is
        taken out alike whatever the window is answered with."""
        battle = self.battle
        acting, pending = battle.resolving, battle.pending
        if not isinstance(acting, a.Attack) or not isinstance(pending, AwaitingReaction):
            return
        spent = 0
        if answer.unit == acting.target and answer.choice != NONE:
            price = reaction_price(
                battle.world, answer.unit, pending.kind, answer.choice, slow=False
            )
            spent = price.bonus
        self._expect(acting.actor, acting.target, acting, spent)

    def _expect(
        self,
        attacker: str,
        target: str,
        attack: a.Attack | None,
        spent: int = 0,
        only: tuple[str, ...] | None = None,
    ) -> None:
        """Note what a strike of `attacker` on `target` is expected to deal: `attack`, the
        Attack decision, or None for a reaction's strike with the melee weapon in hand;
        `spent`: the target's Bonus Actions paid for something else before it defends;
        `only`: the defences the strike allows, where not every one (none is always allowed)."""
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
        bonus = bonus_left(world, target) - spent

        def allowed(defence: str) -> bool:
            if defence == NONE:
                return True
            if only is not None and defence not in only:
                return False
            return not spent or (
                reaction_price(world, target, "defence", defence, slow=False).bonus <= bonus
            )

        odds = attack_odds(world, attacker, target, weapon=weapon, melee=melee)
        odds = tuple(o for o in odds if allowed(o.defence)) or odds
        worst = min(odds, key=lambda o: o.damage)
        left = lasting(world, target)
        kill = worst.hit if worst.per_hit >= left else 0.0
        self._open(attacker, target, worst.hit * min(worst.per_hit, left), kill, left, spell=False)

    def _open(
        self, attacker: str, target: str, damage: float, kill: float, left: int, *, spell: bool
    ) -> None:
        """Note a strike of `attacker` on `target`, which keeps `left` (`lasting`), expected
        to take `damage` of it and to take it down with the chance `kill`."""
        world = self.battle.world
        sign = 1.0 if team_of(world, attacker) == self.team else -1.0
        stake = WIN if _last_standing(world, target) else 0.0
        mark = len(self.battle.log)
        self.open.append(
            OpenAttack(attacker, target, damage, kill, mark, sign, stake, left, spell=spell)
        )

    def _expect_spell(self, cast: a.AbilityAction) -> None:
        """Note what a spell or ability that makes a Hit Roll at one creature (a firebolt,
        R-X20) is expected to take from it, as `standing` counts it: its Damage, which armour
        does not reduce, and what the Burning it sets will burn (R-K4, `smoulder`), with its
        chance to hit the target defending as well as it can, and its chance to take it down.
        On the spells scenario most of what a turn deals is cast: with a firebolt's luck left
        in, its forks were told apart by a few hits."""
        world = self.battle.world
        spell = world.catalog.abilities.get(cast.ability)
        target = cast.target
        if spell is None or not spell.attack or target not in creatures(world):
            return
        if incapacitated(world, target):
            return
        totals = {0: 1.0}  # the chance of each total of its Damage
        for effect in spell.effects:
            if isinstance(effect, Damage):
                added: dict[int, float] = {}
                for before, chance in totals.items():
                    for points, more in effect.amount.chances().items():
                        added[before + points] = added.get(before + points, 0.0) + chance * more
                totals = added
        odds = attack_odds(world, cast.actor, target, weapon=None, melee=False)
        if not odds or totals == {0: 1.0}:
            return
        hit = defended(odds)[0].hit
        left = lasting(world, target)
        # What its Burning adds to what the target's stacks will burn.
        had = conditions(world, target).count(Condition.BURNING)
        given = sum(
            e.value for e in spell.effects if isinstance(e, Given) and e.name is Condition.BURNING
        )
        burn = burns(had + given) - burns(had)
        damage = hit * sum(p * min(total + burn, left) for total, p in totals.items())
        kill = hit * sum(p for total, p in totals.items() if total + burn >= left) if left else 0.0
        self._open(cast.actor, target, damage, kill, left, spell=True)

    def _settle(self) -> None:
        log = self.battle.log
        still: list[OpenAttack] = []
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
            resolved = log[found]
            if isinstance(resolved, ev.AttackResolved) and resolved.hit:
                if attack.spell:  # its Damage and its Burning, as `standing` counts them
                    dealt = float(attack.left - lasting(self.battle.world, attack.target))
                else:  # a weapon's Damaged follows its Hit Roll at once
                    after = log[found + 1] if found + 1 < len(log) else None
                    if isinstance(after, ev.Damaged) and after.unit == attack.target:
                        dealt = float(min(after.amount, attack.left))
                down = 1.0 if attack.left > 0 and dealt >= attack.left else 0.0
            stake = KILL + attack.stake
            self.total += attack.sign * (dealt - attack.damage + stake * (down - attack.kill))
        self.open = still


def _last_standing(world: World, target: str) -> bool:
    """Whether taking `target` down ends the battle (R-C6): it is the last of its side still
    in the fight, and one other side alone has creatures standing. A fork whose kill ended the
    battle counted the battle won or lost whole (WIN) where one whose blow missed counted only
    its chance (`prospect`): on four seeds one lucky blow swung a candidate by a quarter of a
    battle, far more than anything it did."""
    team = team_of(world, target)
    others: set[str] = set()
    for unit in creatures(world):
        if unit == target or incapacitated(world, unit):
            continue
        side = team_of(world, unit)
        if side == team:
            return False
        others.add(side)
    return len(others) == 1
