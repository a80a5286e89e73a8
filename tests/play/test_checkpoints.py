"""Checkpoints (issue #29): a battle that keeps the world before each action forks at an open
reaction window by playing that one action again on the rolls it made, and the fork is the
battle that playing the whole battle again gives, on and on."""

from __future__ import annotations

from pathlib import Path

from sim.ai.seats import players, take_seats
from sim.content.scenario import load
from sim.core import actions as a
from sim.core.creature import team_of
from sim.core.dice import SeededDice
from sim.core.events import Rolled, to_json
from sim.formats.replay import begin
from sim.play.engine import AwaitingReaction, Battle, BattleOver, ReactionChoice
from tests.helpers import scenario_text, seeded_battle, unit

ROOT = Path(__file__).resolve().parents[2]

ROW = scenario_text(
    """
    ######
    #ab..#
    ######
    """,
    unit("ana", "blue", "human_fighter", "a", policy="ask")
    + "\n"
    + unit("grok", "red", "orc_brute", "b", policy="ask"),
)


def logged(b: Battle) -> list[object]:
    return [to_json(e) for e in b.log]


def at_interrupt(keep: bool) -> Battle:
    """ROW with seed 5: whoever acts first attacks; the other's Interrupt window is open
    (R-R7). `keep`: the battle keeps checkpoints from the start."""
    b = seeded_battle(ROW, 5)
    if keep:
        b.keep_checkpoints()
    attacker = b.world.turn.current or ""
    b.submit(a.Attack(attacker, target="grok" if attacker == "ana" else "ana"))
    assert isinstance(b.pending, AwaitingReaction) and b.pending.kind == "interrupt"
    return b


def test_a_fork_at_a_window_plays_the_action_again_from_its_checkpoint() -> None:
    """With checkpoints the fork at the window is the one the whole replay gives (the same
    log and window), it rolls its own dice from there on as that one does, and the battle is
    untouched: answering the window alike in both forks gives the same events."""
    kept, bare = at_interrupt(True), at_interrupt(False)
    assert kept.checkpointed and not bare.checkpointed
    before = logged(kept)
    quick, whole = kept.fork(SeededDice(99)), bare.fork(SeededDice(99))
    assert logged(quick) == logged(whole) == before
    assert quick.pending == whole.pending == kept.pending
    assert quick.decisions == whole.decisions
    target = kept.pending.unit if isinstance(kept.pending, AwaitingReaction) else ""
    for fork in (quick, whole):
        fork.submit(ReactionChoice(target, "interrupt"))
        while isinstance(fork.pending, AwaitingReaction):
            fork.submit(ReactionChoice(fork.pending.unit, "none"))
    assert logged(quick) == logged(whole) and len(quick.log) > len(before)
    assert logged(kept) == before and isinstance(kept.pending, AwaitingReaction)


def test_a_fork_from_a_checkpoint_rolls_the_dice_it_is_given() -> None:
    """The rolls the action made before the window are the battle's; those after are the
    fork's own: forks on other seeds roll other Interrupts (the battle's next roll is never
    read), and the battle's own dice are not advanced by forking."""

    def first_roll(fork: Battle) -> int:
        mark = len(fork.log)
        pending = fork.pending
        assert isinstance(pending, AwaitingReaction)
        fork.submit(ReactionChoice(pending.unit, "interrupt"))
        return next(e.result for e in fork.log[mark:] if isinstance(e, Rolled))

    kept = at_interrupt(True)
    assert len({first_roll(kept.fork(SeededDice(seed))) for seed in range(6)}) > 1
    twin = at_interrupt(True)
    assert first_roll(kept) == first_roll(twin)  # forking did not roll the battle's dice


def test_without_checkpoints_or_a_window_a_fork_is_made_as_before() -> None:
    """No checkpoint (the bare engine keeps none): the fork plays the whole battle again. No
    window: the world is copied, checkpoint or not. New dice for the battle drop its
    checkpoint: its tape no longer holds what they roll."""
    bare = at_interrupt(False)
    assert not bare.checkpointed
    assert logged(bare.fork(SeededDice(1))) == logged(bare)
    b = seeded_battle(ROW, 5)
    b.keep_checkpoints()
    assert not b.checkpointed  # no window open
    assert logged(b.fork(SeededDice(1))) == logged(b)
    kept = at_interrupt(True)
    kept.dice = SeededDice(3)
    assert not kept.checkpointed
    assert logged(kept.fork(SeededDice(1))) == logged(kept)


def test_every_window_of_ai_games_forks_from_its_checkpoint_as_the_whole_replay_does() -> None:
    """normal against normal on shipped maps, their windows asked of the AI (`take_seats`
    keeps checkpoints): at every window the fork from the checkpoint and the whole replay
    give the same battle, and go on alike for a few decisions more. It reports how many
    windows of each kind it compared."""
    compared: dict[str, int] = {}
    for name, seed in (("skirmish", 1), ("harbour", 2), ("spells", 3)):
        b = begin(load(ROOT / "scenarios" / f"{name}.toml"), seed)
        seated = players({"blue": "normal", "red": "normal"}, seed)
        take_seats(b, seated)
        for _ in range(400):
            pending = b.pending
            if isinstance(pending, BattleOver) or b.world.turn.round > 6:
                break
            if isinstance(pending, AwaitingReaction):
                assert b.checkpointed
                quick = b.fork(SeededDice(7))
                checkpoint = b._checkpoint
                b._checkpoint = None  # the whole replay, as a battle without checkpoints
                whole = b.fork(SeededDice(7))
                b._checkpoint = checkpoint
                assert logged(quick) == logged(whole) == logged(b)
                twins = [players({"blue": "normal", "red": "normal"}, 9) for _ in range(2)]
                for _ in range(12):
                    if isinstance(quick.pending, BattleOver):
                        break
                    decided = [
                        ai[team_of(fork.world, fork.pending.unit)].decide(fork)
                        for ai, fork in zip(twins, (quick, whole), strict=True)
                        if not isinstance(fork.pending, BattleOver)
                    ]
                    assert decided[0] == decided[1]
                    quick.submit(decided[0])
                    whole.submit(decided[1])
                assert logged(quick) == logged(whole)
                compared[pending.kind] = compared.get(pending.kind, 0) + 1
            b.submit(seated[team_of(b.world, pending.unit)].decide(b))
    print("windows compared, by kind:", compared)
    assert sum(compared.values()) >= 20 and len(compared) >= 2, compared
