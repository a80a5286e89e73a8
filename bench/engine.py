"""How fast the engine plays whole battles: a scripted policy on generated 4-vs-4 maps.

The policy is deliberately simple so that the figure measures the engine, not a mind: the acting
creature attacks an adjacent enemy while it can pay for it, otherwise it moves by its reach map
to the reachable cell nearest the nearest enemy, otherwise it ends its turn. Reactions follow
the scripted standing policy "always" (best defence): every battle begins by setting it for
every creature (`SetPolicy`, which trees from before the policy "auto" accept too), so that this
tree, whose default is now "auto" (reactions weighed by the odds, a mind's work), and the
baseline play the same battles and the figures compare the engines alone.

    python bench/engine.py [--battles N] [--seed S] [--baseline REV] [--repeats K]

Prints battles per CPU-second (per core) and decisions per CPU-second for the generated maps and for
`scenarios/skirmish.toml`, measured on this tree and on the baseline commit's engine (`REV`,
default: main before the engine work of issue #11) in the same run: K child processes each,
taken in turn so that the load of a shared machine falls on both alike; medians, and the
ratio of this tree to the baseline. Then the ten engine functions with the most cumulative
time in a profiled run on the generated maps.
The goal of the issue "Engine core" is >= 50 battles/s/core on the generated maps (7x the
baseline's figure on an idle machine).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import json
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import tomlkit

# The tree under measure is the `sim` on the path; the layered modules of this tree must not be
# taken for a baseline's flat ones (the editable install would find sim.core in this tree).
_LAYERED = (Path(importlib.import_module("sim").__file__ or "").parent / "core").is_dir()


def _either(layered: str, flat: str) -> ModuleType:
    """A module by its place in the layers of sim/ (issue #28), or by its flat name in a baseline
    tree from before them: the bench plays both trees with this one script."""
    return importlib.import_module(layered if _LAYERED else flat)


_actions = _either("sim.core.actions", "sim.actions")
_components = _either("sim.core.components", "sim.components")
_creature = _either("sim.core.creature", "sim.creature")
_engine = _either("sim.play.engine", "sim.engine")
_scenario = _either("sim.content.scenario", "sim.scenario")
Scenario, load, loads = _scenario.Scenario, _scenario.load, _scenario.loads
Action, Attack, EndTurn, Refusal = (
    _actions.Action,
    _actions.Attack,
    _actions.EndTurn,
    _actions.Refusal,
)
Position = _components.Position
creatures, incapacitated, team_of = (
    _creature.creatures,
    _creature.incapacitated,
    _creature.team_of,
)
World = _either("sim.core.world", "sim.world").World
begin = _either("sim.formats.replay", "sim.replay").begin
PARSERS = _either("sim.play.decisions", "sim.decisions").PARSERS
AwaitingAction, Battle, BattleOver = _engine.AwaitingAction, _engine.Battle, _engine.BattleOver
SetPolicy = _engine.SetPolicy
reach_map = _either("sim.rules.reach.reachmap", "sim.reachmap").reach_map

ROOT = Path(__file__).resolve().parent.parent
BLUE = ("human_fighter", "dwarf_guard", "elf_skirmisher", "human_fighter")
RED = ("orc_brute", "orc_raider", "orc_brute", "goblin_sneak")
ROUND_CAP = 40
GOAL = 50.0
BASELINE = "cee8779"  # main before issue #11's engine work


def compiled() -> None:
    """The reach engine compiled (or loaded from numba's cache) now, in a tree that interprets a
    process's first searches (issue #30's short commands): the benches measure compiled code."""
    try:
        pathfinder = _either("sim.rules.reach.pathfinder", "sim.pathfinder")
    except ImportError:  # a baseline from before the compiled search
        return
    warm_up = getattr(pathfinder, "warm_up", None)
    if warm_up is not None:
        warm_up()


def generated_map(seed: int, size: int = 40, per_side: int = 4) -> str:
    """A 40x40 scenario: a walled border, scattered walls, difficult ground and ponds; blue
    starts in the west, red in the east, `per_side` creatures each (BLUE's and RED's templates
    in turn), two cells apart in a column."""
    rng = random.Random(seed)
    rows = [["." for _ in range(size)] for _ in range(size)]
    for i in range(size):
        rows[0][i] = rows[size - 1][i] = rows[i][0] = rows[i][size - 1] = "#"
    for _ in range(size * size // 10):
        x, y = rng.randrange(6, size - 6), rng.randrange(1, size - 1)
        rows[y][x] = rng.choice("#,,,~")
    units = []
    for team, templates, x in (("blue", BLUE, 2), ("red", RED, size - 3)):
        for i in range(per_side):
            template = templates[i % len(templates)]
            y = size // 2 - per_side + 2 * i
            rows[y][x] = "."
            units.append(
                f'[[units]]\nid = "{team}{i}"\nteam = "{team}"\n'
                f'template = "{template}"\nat = [{x}, {y}]\n'
            )
    body = "\n".join("".join(row) for row in rows)
    return f'name = "bench {seed}"\n\n[map]\nrows = """\n{body}\n"""\n\n' + "\n".join(units)


def _chebyshev(a: Position, b: Position) -> int:
    return max(abs(a.cell.x - b.cell.x), abs(a.cell.y - b.cell.y))


def choose(battle: Battle, unit: str) -> Action:
    """The scripted policy's decision for `unit` (see the module docstring)."""
    world = battle.world
    me = world.need(unit, Position)
    team = team_of(world, unit)
    enemies = [
        u for u in creatures(world) if team_of(world, u) != team and not incapacitated(world, u)
    ]
    if not enemies:
        return EndTurn(unit)
    gap = {u: _chebyshev(me, world.need(u, Position)) for u in enemies}
    for enemy in sorted(enemies, key=gap.__getitem__):
        attack = Attack(unit, target=enemy)
        if not isinstance(battle.check(attack), Refusal):
            return attack
    here = min(gap.values())  # a few enemies: plain Python beats numpy's per-call cost
    if here > 1:
        found = _reachable(world, unit)
        if found is not None:
            xs, ys, costs, action_of = found
            # The gap of each reachable cell to its nearest enemy (Chebyshev), an enemy at a time.
            gaps = None
            for cell in (world.need(u, Position).cell for u in enemies):
                apart = np.maximum(np.abs(xs - cell.x), np.abs(ys - cell.y))
                gaps = apart if gaps is None else np.minimum(gaps, apart)
            assert gaps is not None
            # The first least (gap, cost) in row order: gaps and costs are small whole numbers.
            best = int(np.argmin(gaps * (int(costs.max()) + 1) + costs))
            if gaps[best] < here:
                to = [int(xs[best]), int(ys[best])]
                move = PARSERS[action_of(best)](unit, {"to": to}, False, False)
                assert isinstance(move, Action)
                if not isinstance(battle.check(move), Refusal):
                    return move
    return EndTurn(unit)


def _reachable(
    world: World, unit: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Callable[[int], str]] | None:
    """The reach map's cells (x and y apart) and costs in row order, and the action name of
    the i-th (asked only of the cell chosen); None if empty. An engine whose reach map has
    arrays (issue #11) gives them; an older one, objects."""
    cells = reach_map(world, unit)
    if not cells:
        return None
    if hasattr(cells, "arrays"):
        xs, ys, costs, codes = cells.arrays()
        offers = cells.offers
        return xs, ys, costs.astype(np.int64), lambda i: str(offers[codes[i]].name)
    listed = list(cells.values())
    xs = np.array([c.cell.x for c in listed])
    ys = np.array([c.cell.y for c in listed])
    costs = np.array([c.cost for c in listed], dtype=np.int64)
    return xs, ys, costs, lambda i: listed[i].action


def play(
    scenario: Scenario,
    seed: int,
    cap: int = ROUND_CAP,
    spent: dict[str, list[float]] | None = None,
    over: Callable[[World], bool] | None = None,
) -> tuple[int, int]:
    """Play one battle to its end (or round `cap`, or until `over(world)`); the decisions
    taken and rounds played. `spent`, if given, gathers each creature's decisions' CPU seconds
    in the engine (the battle taking them, not the policy choosing them) and their number."""
    battle = begin(scenario, seed)
    world = battle.world
    for unit in creatures(world):  # the same reactions in every tree (the docstring says why)
        assert not isinstance(battle.submit(SetPolicy(unit, "always", "best")), Refusal)
    decisions = 0
    while True:
        pending = battle.pending
        if isinstance(pending, BattleOver) or world.turn.round > cap:
            return decisions, world.turn.round
        if over is not None and over(world):
            return decisions, world.turn.round
        assert isinstance(pending, AwaitingAction), pending
        decision = choose(battle, pending.unit)
        start = time.process_time()
        outcome = battle.submit(decision)
        if spent is not None:
            mine = spent.setdefault(pending.unit, [0.0, 0])
            mine[0] += time.process_time() - start
            mine[1] += 1
        assert not isinstance(outcome, Refusal), outcome
        decisions += 1


def measure(scenarios: list[Scenario], battles: int, seed: int) -> tuple[float, float, float]:
    """Battles per second, decisions per second and mean rounds, over `battles` battles."""
    times: list[float] = []
    decisions = rounds = 0
    for i in range(battles):
        scenario = scenarios[i % len(scenarios)]
        # CPU time of this process: per core by definition, and what other work on a shared
        # machine takes from it does not count against the engine.
        start = time.process_time()
        taken, played = play(scenario, seed + i)
        times.append(time.process_time() - start)
        decisions += taken
        rounds += played
    total = sum(times)
    return battles / total, decisions / total, rounds / battles


def figures(battles: int, seed: int) -> dict[str, list[float]]:
    """Battles/s, decisions/s and mean rounds on the generated maps and on the skirmish."""
    generated = [loads(generated_map(seed + i), f"<bench map {i}>") for i in range(8)]
    skirmish = load(ROOT / "scenarios" / "skirmish.toml")
    compiled()
    play(generated[0], 0)  # warm-up: numba's compile or cache load is not the engine's speed
    return {
        "generated": list(measure(generated, battles, seed)),
        "skirmish": list(measure([skirmish], battles, seed)),
    }


def _tree(rev: str, into: Path) -> Path:
    """The engine (sim/) of commit `rev`, unpacked under `into`, with this tree's data files
    (sim/data: rules, templates, equipment) in place of its own, so that both engines play the
    same battles and the figures compare engines, not balance changes. The rules and the AI's
    data keep the baseline's own keys (`_numbers`): a number this tree dropped or added (the
    AI's `search.budget`) would stop the baseline's loader."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "sim"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    for data in (ROOT / "sim" / "data").glob("*.toml"):
        target = into / "sim" / "data" / data.name
        if data.name in ("rules.toml", "ai.toml") and target.exists():
            target.write_text(_numbers(target.read_text("utf-8"), data.read_text("utf-8")))
        else:
            shutil.copyfile(data, target)
    return into


def _numbers(theirs: str, ours: str) -> str:
    """The baseline's rules data (`theirs`) with this tree's value for every key both have:
    its loader reads exactly the keys it knows, at the numbers this tree plays with (a key
    this tree dropped, such as issue #34's feint_turn_ends, keeps the baseline's value). A key
    that is a table in one and a number in the other keeps the baseline's too: its loader reads
    its own shape (cee8779's `[extended.doff_divisor] value = 2` is this tree's
    `doff_divisor = 2`), and a number put in place of a table would move it in the document."""

    def merge(base: MutableMapping[str, Any], mine: Mapping[str, Any]) -> None:
        for key, value in list(base.items()):
            if key not in mine:
                continue
            table, ours = isinstance(value, MutableMapping), isinstance(mine[key], Mapping)
            if table and ours:
                merge(value, mine[key])
            elif not table and not ours:
                base[key] = mine[key]

    document = tomlkit.parse(theirs)
    merge(document, tomlkit.parse(ours).unwrap())
    return tomlkit.dumps(document)


def _child(tree: Path, battles: int, seed: int) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--battles", str(battles), "--seed", str(seed)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    result: dict[str, list[float]] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=16, help="battles per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--repeats", type=int, default=3, help="measurements of each tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(figures(args.battles, args.seed)))
        return 0
    runs: dict[str, list[dict[str, list[float]]]] = {"this tree": [], "baseline": []}
    with tempfile.TemporaryDirectory() as tmp:
        base = _tree(args.baseline, Path(tmp))
        for _ in range(args.repeats):
            runs["baseline"].append(_child(base, args.battles, args.seed))
            runs["this tree"].append(_child(ROOT, args.battles, args.seed))
    print(f"{args.repeats} runs of {args.battles} battles each; medians")
    print(
        f"{'scenario':<22} {'tree':<22} {'battles/s/core':>15} {'decisions/s':>12} "
        f"{'mean rounds':>12}"
    )
    medians: dict[tuple[str, str], float] = {}
    for label, key in (("generated 4v4 40x40", "generated"), ("skirmish.toml", "skirmish")):
        for tree, measured in runs.items():
            bps = statistics.median(r[key][0] for r in measured)
            dps = statistics.median(r[key][1] for r in measured)
            mean_rounds = statistics.mean(r[key][2] for r in measured)
            medians[key, tree] = bps
            name = tree if tree == "this tree" else f"baseline {args.baseline}"
            print(f"{label:<22} {name:<22} {bps:>15.2f} {dps:>12.0f} {mean_rounds:>12.1f}")
        ratio = medians[key, "this tree"] / medians[key, "baseline"]
        print(f"{label:<22} {'speed-up':<22} {ratio:>14.2f}x")
        same = {round(statistics.mean(r[key][2] for r in runs[t]), 3) for t in runs}
        if len(same) > 1:  # the two engines played different battles: say so
            print(f"{label:<22} (the two trees played different battles: mean rounds differ)")
    reached = medians["generated", "this tree"] / GOAL
    verdict = "met" if reached >= 1 else "NOT met"
    print(f"goal >= {GOAL:.0f} battles/s/core on the generated maps: {verdict} ({reached:.2f}x)")
    generated = [loads(generated_map(args.seed + i), f"<bench map {i}>") for i in range(8)]
    compiled()
    play(generated[0], 0)
    profiler = cProfile.Profile()
    profiler.enable()
    measure(generated, max(4, args.battles // 4), args.seed)
    profiler.disable()
    out = io.StringIO()
    # Only the engine's own functions: the bench's loop would top the list and say nothing.
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(r"/sim/", 10)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
