"""Batches of AI games on one scenario: a seed per game, a record per game read from its event
log, and the summary a designer reads (who wins, how often, how long, who goes down, and which
actions and reactions each side chose).

Game `i` of a batch with base seed `S` is played with the seed `game_seed(S, i)`: the first 8
bytes of sha256("sim batch S i"), big-endian, with the top bit cleared (so it is a seed a save
holds, 0 to 2**63 - 1). Hashing rather than `S + i` keeps the games of two batches with nearby
base seeds independent samples. The battle's dice and the AI players (`sim.ai.seats.players`) both
take that seed, exactly as `sim run SCENARIO --seed SEED --ai ...` does, so any one game can
be played again by itself.

The games are shared among worker processes (or Ray actors) that each receive the scenario once,
when they start; a game sends back only its small record (and its decisions when it is to be
kept). Records are put back in game order before anything is added up, so the totals do not
depend on how many workers played them. A worker process that dies (a crash in compiled code,
or killed for lack of memory) loses no other game: the games it may have been playing are
played again each in a process of its own, and the one that dies again is recorded as
crashed, with its seed.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import statistics
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any, Protocol

from sim.ai.choice import percent
from sim.ai.seats import play, players, take_seats
from sim.content.scenario import MAX_SEED, Scenario
from sim.core import events as ev
from sim.core.actions import Action, EndTurn, Refusal
from sim.core.components import Health
from sim.core.condition import Condition
from sim.core.creature import creatures, incapacitated, team_of
from sim.core.purpose import AttackKind
from sim.core.world import World
from sim.formats.replay import Save, begin, record
from sim.play.engine import Battle, Decision, Outcome
from sim.play.rulebook import ACTIONS
from sim.rules.combat.reactions import NONE, reaction_name
from sim.rules.objectives import Reach, Survive, reached_by
from sim.tools.hotspots import CellCount, read_cells, totals

KEEP = ("losses", "all")
DEFENCES = (NONE, "dodge", "parry", "block")  # R-A2's bands, in the order the summary lists them
# Only the Attack action's own Hit Rolls measure R-A2's bands: a trip doubles the FCS Bonus,
# and a spell's or a throw's roll is another weapon's.
ATTACKS = (AttackKind.MELEE, AttackKind.RANGED)
# What an attacker can add to its Hit Roll before it rolls (R-X1 Aim, R-X10 Feint, R-X21 Assist):
# a first attack that used one is "boosted"; R-A2's bands are of the templates' and equipment's
# numbers, so the summary gives the plain first attacks (none of these) beside all of them.
BOOSTS = (Condition.AIMING, Condition.FEINTED, Condition.ASSISTED)
# Likewise what the target added to its Defense Roll with an Action of its own turn before
# (`first_attacks`): a Brace doubles its RES in every Defense Roll (R-X3), an Evade its AGI
# Bonus on its first Dodge (R-X9). Not counted, the harbour's braced fighters blocked the orcs'
# first attacks 84 times of 85 (Defense Rolls 19-41 against Hit Rolls 8-15) and its evading
# orcs dodged 56 of 57: R-A2's Block and Dodge bands, 20-40 %, read 1 % and 2 %.
# The reactions as `reaction_name` names them (as a `spent` event does): a defence or a catch by
# the option taken, an Interrupt and an Attack of Opportunity by their window (whose option is
# "interrupt" and "attack", which would read as the Attack action).
REACTIONS = ("dodge", "parry", "block", "catch", "interrupt", "attack_of_opportunity")
# Every kind a side's choices are counted by, in the order the CSV's columns take: the actions
# in the registry's order (End Turn is no choice of what to do: every turn ends), then the
# reactions. A kind not listed (a new window) comes after them, by name.
KINDS = (*(name for name in ACTIONS if name != EndTurn.name), *REACTIONS)
TOP_KINDS = 6  # the kinds of each side the printed summary names; the rest are summed
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
CAPPED = "round cap"


def game_seed(base: int, index: int) -> int:
    """The seed of game `index` of a batch with base seed `base` (see the module docstring).

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    >>> 0 <= game_seed(2**63 - 1, 10**6) <= 2**63 - 1
    True
    """
    digest = hashlib.sha256(f"sim batch {base} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of `wins` in `n` (95 % by default).

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(0, 6)[0], wilson(6, 6)[1]
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # No wins (or only wins) puts that end exactly at 0 (or 1), not a rounding error off it.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return low, high


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank `q`-th percentile (a value that occurred, not an interpolation).

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)
    9
    """
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass(frozen=True, slots=True)
class Plan:
    """What every game of a batch shares; sent to each worker once."""

    scenario: Scenario
    levels: tuple[tuple[str, str], ...]  # (team, AI level), every team of the scenario
    seed: int = 0
    round_cap: int = 30
    keep: str | None = None  # None, "losses" or "all": which games send back their decisions

    @property
    def first_team(self) -> str:
        """The side `--keep-only losses` speaks for: the first unit's team in the scenario."""
        return team_of(self.scenario.world, creatures(self.scenario.world)[0])


@dataclass(frozen=True, slots=True)
class UnitRecord:
    """One unit at the end of one game."""

    unit: str
    team: str
    max_hp: int
    hp_left: int  # at least 0: hit points below 0 are not "left"
    survived: bool  # not Incapacitated when the game ended
    downed_first: bool  # the first creature of the game to be Incapacitated
    dealt: int  # damage its attacks, throws and spells did, after armour
    taken: int  # damage it took from anything, after armour


@dataclass(frozen=True, slots=True)
class FirstAttacks:
    """The first Attack of creatures' turns in one game, for one defence the target chose: all
    of them, and the plain ones (no Aim, Feint or Assist added to the Hit Roll, no Brace or
    Evade to the Defense Roll)."""

    defence: str
    attacks: int
    hits: int
    plain_attacks: int
    plain_hits: int


@dataclass(frozen=True, slots=True)
class Chosen:
    """How often one side chose one kind of action or reaction in one game; `by_policy`: of
    them, the reactions its creatures' standing reaction policies answered without asking."""

    team: str
    kind: str
    count: int
    by_policy: int = 0


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game went, as the summary and the CSV need it."""

    index: int
    seed: int
    result: str  # "won", "draw", "capped" or "crashed"
    winners: tuple[str, ...]
    rounds: int
    reason: str
    ended_by: str
    units: tuple[UnitRecord, ...]
    first_attacks: tuple[FirstAttacks, ...]
    save: Save | None = None  # only for games to keep, and for crashed ones
    error: str = ""
    chosen: tuple[Chosen, ...] = ()  # by side, then in KINDS' order
    cells: tuple[CellCount, ...] = ()  # where it was fought (sim/tools/hotspots.py)


# --- one game ---------------------------------------------------------------------------------


def play_game(plan: Plan, index: int) -> GameRecord:
    """Game `index` of the batch, played out by the AI on every side. An exception inside the
    engine or the AI ends only this game: its record says "crashed", with the error and the
    decisions up to it, so the game can be replayed and looked at."""
    seed = game_seed(plan.seed, index)
    battle = begin(plan.scenario, seed)
    taken = Taken()
    try:
        seated = players(dict(plan.levels), seed)
        take_seats(battle, seated)
        finish = play(battle, seated, round_cap=plan.round_cap, report=taken)
    except Exception as error:  # a fault in one game must not end the whole batch
        return _crashed(plan, index, seed, battle, error, taken.actions)
    capped = finish == "capped"
    record_ = read_game(
        index, seed, battle.log, battle.world, plan, capped=capped, actions=taken.actions
    )
    if plan.keep == "all" or (plan.keep == "losses" and plan.first_team not in record_.winners):
        record_ = replace(record_, save=record(battle, plan.scenario, seed, dict(plan.levels)))
    return record_


def _crashed(
    plan: Plan,
    index: int,
    seed: int,
    battle: Battle,
    error: Exception,
    actions: Sequence[Action] = (),
) -> GameRecord:
    world = battle.world
    words = str(error) or type(error).__name__
    try:
        partial = read_game(index, seed, battle.log, world, plan, capped=False, actions=actions)
    except Exception:  # the world itself may be what broke
        partial = GameRecord(index, seed, "crashed", (), world.turn.round, "", "", (), ())
    try:
        save: Save | None = record(battle, plan.scenario, seed, dict(plan.levels))
    except Exception:
        save = None
    return replace(
        partial,
        result="crashed",
        winners=(),
        ended_by="crashed",
        save=save,
        error=f"{type(error).__name__}: {words}",
    )


class Reported(Protocol):
    """What `play` reports of each decision it submits (the AI's Choice): the decision."""

    @property
    def decision(self) -> Decision: ...


class Taken:
    """The actions a battle accepted from its players, heard as `play` reports each decision
    (`play(..., report=taken)`): a decision the battle refused was not chosen."""

    def __init__(self) -> None:
        self.actions: list[Action] = []

    def __call__(self, unit: str, choice: Reported, outcome: Outcome) -> None:
        if isinstance(choice.decision, Action) and not isinstance(outcome, Refusal):
            self.actions.append(choice.decision)


def choices(world: World, actions: Iterable[Action], log: Iterable[ev.Event]) -> tuple[Chosen, ...]:
    """What each side chose in one game, counted by the side of the creature that chose: the
    `actions` the battle accepted (End Turn left out), and every reaction window of `log`
    answered with a reaction rather than "none", whether its player answered it (an AI, or a
    person) or the creature's standing policy did (ReactionAnswered's `by`). An action a
    prepared plan took when it went off (R-P3) is the Prepare that was chosen, not counted
    again. Sides in the order they first come in `actions`, then in `log`; kinds in KINDS'
    order."""
    counts: dict[tuple[str, str], list[int]] = {}
    for action in actions:
        if not isinstance(action, EndTurn):
            counts.setdefault((team_of(world, action.actor), action.name), [0, 0])[0] += 1
    for event in log:
        if isinstance(event, ev.ReactionAnswered) and event.choice != NONE:
            key = (team_of(world, event.unit), reaction_name(event.window, event.choice))
            tally = counts.setdefault(key, [0, 0])
            tally[0] += 1
            tally[1] += event.by == "policy"
    teams = list(dict.fromkeys(team for team, _ in counts))
    order = sorted(counts, key=lambda key: (teams.index(key[0]), kind_order(key[1])))
    return tuple(Chosen(team, kind, *counts[team, kind]) for team, kind in order)


def kind_order(kind: str) -> tuple[int, str]:
    """A kind's place among KINDS (one not listed after them, by name): a sort key."""
    return (KINDS.index(kind), "") if kind in KINDS else (len(KINDS), kind)


def read_game(
    index: int,
    seed: int,
    log: Sequence[ev.Event],
    world: World,
    plan: Plan,
    *,
    capped: bool,
    actions: Sequence[Action] = (),
) -> GameRecord:
    """A game's record from its event log, its final world and the actions the battle accepted
    from its players (`Taken`)."""
    units = creatures(world)
    dealt = dict.fromkeys(units, 0)
    taken = dict.fromkeys(units, 0)
    first_down: str | None = None
    winners: tuple[str, ...] = ()
    reason = ""
    ended = False
    tally = {d: [0, 0, 0, 0] for d in DEFENCES}
    for defence, hit, boosted in first_attacks(log):
        tally[defence][0] += 1
        tally[defence][1] += hit
        if not boosted:
            tally[defence][2] += 1
            tally[defence][3] += hit
    for event in log:
        if isinstance(event, ev.Damaged):
            taken[event.unit] = taken.get(event.unit, 0) + event.amount
            if event.dealer in dealt:  # None for a fall, fire or bleeding
                dealt[event.dealer] += event.amount
        elif (
            isinstance(event, ev.ConditionGained)
            and event.condition == "incapacitated"
            and first_down is None
        ):
            first_down = event.unit
        elif isinstance(event, ev.BattleEnded):
            winners, reason, ended = event.winners, event.reason, True
    if capped and not ended:
        result, rounds = "capped", plan.round_cap
        reason = f"round cap {plan.round_cap} reached with no side winning"
    else:
        result, rounds = ("won" if winners else "draw"), world.turn.round
    return GameRecord(
        index=index,
        seed=seed,
        result=result,
        winners=winners,
        rounds=rounds,
        reason=reason,
        ended_by=CAPPED if result == "capped" else ended_by(world, plan.scenario, winners),
        units=tuple(
            UnitRecord(
                unit=unit,
                team=team_of(world, unit),
                max_hp=world.need(unit, Health).max_hp,
                hp_left=max(0, world.need(unit, Health).hp),
                survived=not incapacitated(world, unit),
                downed_first=unit == first_down,
                dealt=dealt[unit],
                taken=taken[unit],
            )
            for unit in units
        ),
        first_attacks=tuple(FirstAttacks(d, *counts) for d, counts in tally.items()),
        chosen=choices(world, actions, log),
        cells=read_cells(log, plan.scenario.world),
    )


def first_attacks(log: Iterable[ev.Event]) -> Iterator[tuple[str, bool, bool]]:
    """(defence chosen, hit, boosted) of the first attack of each creature's turn: the Attack
    action whose Hit Roll is the first of the acting creature's attack window (R-A1: the window
    resets at the start of its own turn, so its count is 1). The defence is the target's answer
    to its "defence" window, "none" when it had none to choose or chose none; `boosted` when the
    attacker used up an Aim, a Feint or an Assist on this Hit Roll (BOOSTS), or the target's
    Defense Roll was braced or its Dodge evading (R-X3, R-X9). An attack on an Incapacitated
    target (Defense Roll 0, R-A2) measures nothing and is left out."""
    acting: str | None = None
    attack: tuple[str, bool] | None = None  # (attacker, first of its turn) of the open attack
    defence = NONE
    boosted = False
    braced: set[str] = set()  # R-X3: until the creature's next turn, every Defense Roll
    for event in log:
        if isinstance(event, ev.ConditionGained) and event.condition == Condition.BRACED:
            braced.add(event.unit)
        elif isinstance(event, ev.ConditionLost) and event.condition == Condition.BRACED:
            braced.discard(event.unit)
        if isinstance(event, ev.TurnStarted | ev.TurnResumed):
            acting = event.unit
        elif isinstance(event, ev.TurnEnded):
            acting = None
        elif isinstance(event, ev.AttackCounted):
            attack = (event.unit, event.unit == acting and event.count == 1)
            defence = NONE
            boosted = False
        elif (
            isinstance(event, ev.ConditionLost)
            and attack is not None
            and (
                (event.unit == attack[0] and event.condition in BOOSTS)
                # An Evade is used up on the target's Dodge (R-X9).
                or (event.unit != attack[0] and event.condition == Condition.EVADING)
            )
        ):
            boosted = True
        elif isinstance(event, ev.ReactionAnswered) and event.window == "defence":
            defence = event.choice
        elif isinstance(event, ev.AttackResolved) and attack is not None:
            attacker, first = attack
            attack = None
            if (
                first
                and event.attacker == attacker
                and event.tag in ATTACKS
                and event.defense_roll > 0
                and defence in DEFENCES
            ):
                yield defence, event.hit, boosted or event.target in braced


def ended_by(world: World, scenario: Scenario, winners: tuple[str, ...]) -> str:
    """Which objective ended a finished game, checked on its final world in the order the
    engine checks them (sim/rules/objectives.py): "reach (blue)", "survive (red)", "defeat" (every
    other side Incapacitated, R-C6), or "draw" when no side won."""
    if not winners:
        return "draw"
    for objective in scenario.objectives:
        if objective.team not in winners:
            continue
        if isinstance(objective, Reach):
            if reached_by(world, objective) is not None:
                return f"reach ({objective.team})"
        elif isinstance(objective, Survive) and world.turn.round > objective.rounds:
            return f"survive ({objective.team})"
    return "defeat"


# --- many games -------------------------------------------------------------------------------

_PLAN: Plan | None = None  # the batch a worker process plays, set once when it starts


def start_worker(plan: Plan) -> None:
    global _PLAN
    _PLAN = plan
    _compiled()


def _compiled() -> None:
    """The reach engine compiled (or loaded from numba's cache) now: a batch plays many games,
    and interpreting a process's first searches (what spares a short command numba's import)
    would only add to the first game's time."""
    from sim.rules.reach import pathfinder

    pathfinder.warm_up()


def _worker_game(index: int) -> GameRecord:
    assert _PLAN is not None, "a batch worker plays games only after start_worker"
    return play_game(_PLAN, index)


class PoolError(Exception):
    """The workers of a batch cannot be started (a cluster out of reach); says why."""


class Pool(Protocol):
    """What a batch needs of a process pool: multiprocessing.Pool and
    ray.util.multiprocessing.Pool both have it."""

    def imap_unordered(
        self, func: Callable[[int], GameRecord], iterable: Iterable[int], chunksize: int = ...
    ) -> Iterator[GameRecord]: ...


PoolFactory = Callable[[int, Plan], AbstractContextManager[Pool]]  # (processes, plan)


@contextmanager
def local_pool(processes: int, plan: Plan) -> Iterator[Pool]:
    """A process pool on this machine whose workers each get the plan once. Where this process
    can be forked safely (`_fork_is_safe`) the workers are forked from it, with the compiled
    search loaded first, so they start at once (issue #13: each worker would otherwise import
    the simulator and load the search again, about 2 s before its first game). Otherwise they
    are forked from a fresh server process that has imported the simulator: a fork of a
    process with threads running (or with SDL's signal handlers, after the client was used)
    can inherit a held lock and hang."""
    context: BaseContext
    server: BaseContext
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(["sim.tools.batch"])
        server = forkserver
    else:
        server = multiprocessing.get_context("spawn")
    context = server
    if _fork_is_safe():
        from sim.rules.reach import pathfinder

        pathfinder.warm_up()
        context = multiprocessing.get_context("fork")
    # A game that killed its worker is played again in a pool of its own while others run,
    # with their pools' threads: those workers come from the server, never a fork of this.
    yield LocalPool(processes, plan, context, server)


def _fork_is_safe() -> bool:
    """A fork copies only the thread that forks: it is safe while no other thread runs (one
    could hold a lock the copy then waits on for ever) and SDL (pygame) is not loaded."""
    return (
        sys.platform.startswith("linux")  # elsewhere system libraries may not survive a fork
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and "pygame" not in sys.modules
    )


class LocalPool:
    """`processes` workers on this machine that outlive a worker's death: multiprocessing's own
    pool would wait for a dead worker's game for ever."""

    def __init__(
        self, processes: int, plan: Plan, context: BaseContext, alone: BaseContext | None = None
    ) -> None:
        self.processes = processes
        self.plan = plan
        self.context = context
        self.alone = alone or context  # where `_alone`'s single workers start

    def _executor(self, processes: int, context: BaseContext | None = None) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            processes,
            mp_context=context or self.context,
            initializer=start_worker,
            initargs=(self.plan,),
        )

    def imap_unordered(
        self, func: Callable[[int], GameRecord], iterable: Iterable[int], chunksize: int = 1
    ) -> Iterator[GameRecord]:
        """Each game's record as it finishes (one game per task: `chunksize` is ignored)."""
        games = list(iterable)
        finished: set[int] = set()
        try:
            with self._executor(self.processes) as shared:
                futures = {shared.submit(func, index): index for index in games}
                for future in as_completed(futures):
                    game = future.result()
                    finished.add(futures[future])
                    yield game
        except BrokenProcessPool:
            # Which game killed its worker cannot be told from here: every unfinished one
            # is played again alone, where a death names its game.
            yield from self._alone(func, [i for i in games if i not in finished])

    def _alone(self, func: Callable[[int], GameRecord], games: list[int]) -> Iterator[GameRecord]:
        """`games`, each in a worker process of its own, `processes` at a time."""
        waiting = list(reversed(games))
        running: dict[Future[GameRecord], tuple[int, ProcessPoolExecutor]] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.processes:
                    index = waiting.pop()
                    single = self._executor(1, self.alone)
                    running[single.submit(func, index)] = (index, single)
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: running[f][0]):
                    index, single = running.pop(future)
                    single.shutdown()
                    try:
                        yield future.result()
                    except BrokenProcessPool:
                        yield died(self.plan, index)
        finally:
            for _, single in running.values():
                single.shutdown(cancel_futures=True)


def died(plan: Plan, index: int) -> GameRecord:
    """The record of a game whose worker process died while playing it, twice."""
    seed = game_seed(plan.seed, index)
    return GameRecord(
        index,
        seed,
        "crashed",
        (),
        0,
        "",
        "crashed",
        (),
        (),
        error=(
            "the process playing it died without a Python error (a crash in compiled code, "
            f"or killed for lack of memory); replay it alone with --seed {seed} and --ai"
        ),
    )


def run(
    plan: Plan,
    games: int,
    *,
    workers: int = 1,
    pool: PoolFactory = local_pool,
    on_game: Callable[[GameRecord], None] | None = None,
    game: Callable[[int], GameRecord] | None = None,
) -> list[GameRecord]:
    """Play `games` games of `plan`, in game order. One worker plays them in this process; more
    share them out in a pool made by `pool`. `on_game` hears each game as it finishes. `game`
    plays one game by its index in a worker (a module-level function; the tests give one that
    crashes)."""
    done: list[GameRecord] = []
    if workers <= 1 or games <= 1:
        if games > 1:
            _compiled()
        for index in range(games):
            done.append(play_game(plan, index))
            if on_game is not None:
                on_game(done[-1])
        return done
    with pool(min(workers, games), plan) as shared:
        # One game per task: games differ in length by a factor of ten, and a task's overhead
        # (an index out, a record back) is small beside a game.
        for record_ in shared.imap_unordered(game or _worker_game, range(games), 1):
            done.append(record_)
            if on_game is not None:
                on_game(record_)
    done.sort(key=lambda g: g.index)
    return done


# --- the summary ------------------------------------------------------------------------------


def summarize(
    plan: Plan, games: Sequence[GameRecord], saved: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """The batch's summary, JSON-ready (docs/commands.md describes every field); `saved`: the
    files games were saved to, by game number."""
    saved = saved or {}
    played = [g for g in games if g.result != "crashed"]
    n = len(played)
    teams = [team for team, _ in plan.levels]
    sides: dict[str, Any] = {}
    for team in teams:
        wins = sum(team in g.winners for g in played)
        low, high = wilson(wins, n)
        sides[team] = {
            "ai": dict(plan.levels)[team],
            "wins": wins,
            "win_rate": wins / n if n else None,
            "wilson_95": [low, high],
        }
    rounds = [g.rounds for g in played]
    units: dict[str, Any] = {}
    for unit in creatures(plan.scenario.world):
        mine = [u for g in played for u in g.units if u.unit == unit]
        units[unit] = {
            "team": team_of(plan.scenario.world, unit),
            "max_hp": plan.scenario.world.need(unit, Health).max_hp,
            "survival_rate": _mean([u.survived for u in mine]),
            "mean_damage_dealt": _mean([u.dealt for u in mine]),
            "mean_damage_taken": _mean([u.taken for u in mine]),
            "mean_hp_left": _mean([u.hp_left for u in mine]),
            "downed_first_rate": _mean([u.downed_first for u in mine]),
        }
    endings: dict[str, int] = {}
    for g in played:
        endings[g.ended_by] = endings.get(g.ended_by, 0) + 1
    counts = {d: {"attacks": 0, "hits": 0, "plain_attacks": 0, "plain_hits": 0} for d in DEFENCES}
    for g in played:
        for f in g.first_attacks:
            counts[f.defence]["attacks"] += f.attacks
            counts[f.defence]["hits"] += f.hits
            counts[f.defence]["plain_attacks"] += f.plain_attacks
            counts[f.defence]["plain_hits"] += f.plain_hits
    return {
        "scenario": plan.scenario.path,
        "name": plan.scenario.name,
        "games": len(games),
        "played": n,
        "seed": plan.seed,
        "round_cap": plan.round_cap,
        "sides": sides,
        "draws": sum(g.result == "draw" for g in played),
        "capped": sum(g.result == "capped" for g in played),
        "crashed": len(games) - n,
        "rounds": {
            "mean": statistics.fmean(rounds) if rounds else None,
            "median": statistics.median(rounds) if rounds else None,
            "p90": percentile(rounds, 90) if rounds else None,
        },
        "units": units,
        "ended_by": dict(sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))),
        "first_attack_hit_rate": {
            d: c["hits"] / c["attacks"] if c["attacks"] else None for d, c in counts.items()
        },
        "first_attack_counts": counts,
        "plain_first_attack_hit_rate": {
            d: c["plain_hits"] / c["plain_attacks"] if c["plain_attacks"] else None
            for d, c in counts.items()
        },
        "action_kinds": action_kinds(teams, played),
        "cells": totals(teams, (g.cells for g in played)),
        "kept": sum(g.result != "crashed" and g.index in saved for g in games),
        "crashes": [
            {"game": g.index, "seed": g.seed, "error": g.error, "save": saved.get(g.index)}
            for g in games
            if g.result == "crashed"
        ],
    }


def action_kinds(teams: Sequence[str], games: Iterable[GameRecord]) -> dict[str, Any]:
    """Each side's choices over `games`: how many it made, how many of them were reactions its
    policies answered, and every kind it chose with its count and its share of the side's
    choices, the most chosen first (ties in KINDS' order)."""
    counts: dict[str, dict[str, list[int]]] = {team: {} for team in teams}
    for g in games:
        for c in g.chosen:
            tally = counts.setdefault(c.team, {}).setdefault(c.kind, [0, 0])
            tally[0] += c.count
            tally[1] += c.by_policy
    out: dict[str, Any] = {}
    for team, kinds in counts.items():
        total = sum(n for n, _ in kinds.values())
        ranked = sorted(kinds, key=lambda kind: (-kinds[kind][0], kind_order(kind)))
        out[team] = {
            "choices": total,
            "by_policy": sum(p for _, p in kinds.values()),
            "kinds": {k: {"count": kinds[k][0], "share": kinds[k][0] / total} for k in ranked},
        }
    return out


def _mean(values: Sequence[float | bool]) -> float | None:
    return statistics.fmean(values) if values else None


def describe(summary: Mapping[str, Any]) -> str:
    """The summary as a designer reads it in a terminal."""
    n = summary["played"]
    levels = ", ".join(f"{team} {side['ai']}" for team, side in summary["sides"].items())
    lines = [
        f"{summary['name']}: {summary['games']} games (seed {summary['seed']}, "
        f"round cap {summary['round_cap']}; {levels})"
    ]
    width = max(len(team) for team in summary["sides"])
    for team, side in summary["sides"].items():
        low, high = side["wilson_95"]
        rate = _pct(side["win_rate"])
        lines.append(
            f"  {team:<{width}}  wins {side['wins']:>4} of {n}  {rate:>5}"
            f"  (95 % interval {_pct(low)} to {_pct(high)})"
        )
    lines.append(
        f"  draws {summary['draws']}, stopped by the round cap {summary['capped']}, "
        f"crashed {summary['crashed']}"
    )
    r = summary["rounds"]
    if r["mean"] is not None:
        note = " (a capped game counts as the cap)" if summary["capped"] else ""
        lines.append(
            f"  rounds: mean {r['mean']:.1f}, median {r['median']:g}, "
            f"90th percentile {r['p90']}{note}"
        )
    endings = ", ".join(f"{why} {count}" for why, count in summary["ended_by"].items())
    lines.append(f"  ended by: {endings or 'nothing (no game finished)'}")
    uw = max([4, *(len(unit) for unit in summary["units"])])
    lines.append(
        f"  {'unit':<{uw}}  {'team':<{width}}  survived  dealt  taken  HP left  downed first"
    )
    for unit, u in summary["units"].items():
        hp_left = "-" if u["mean_hp_left"] is None else f"{u['mean_hp_left']:.1f}/{u['max_hp']}"
        lines.append(
            f"  {unit:<{uw}}  {u['team']:<{width}}  {_pct(u['survival_rate']):>8}  "
            f"{_num(u['mean_damage_dealt']):>5}  {_num(u['mean_damage_taken']):>5}  "
            f"{hp_left:>7}  {_pct(u['downed_first_rate']):>12}"
        )
    lines += describe_kinds(summary["action_kinds"], width)
    for head, prefix in (
        ("  first attack of a turn hits (R-A2): ", ""),
        ("    of them with no Aim, Feint, Assist, Brace or Evade: ", "plain_"),
    ):
        shown = []
        for defence in DEFENCES:
            c = summary["first_attack_counts"][defence]
            rate = summary[f"{prefix}first_attack_hit_rate"][defence]
            words = "no defence" if defence == NONE else defence
            hits, attacks = c[f"{prefix}hits"], c[f"{prefix}attacks"]
            shown.append(f"{words} {_pct(rate)} ({hits} of {attacks})")
        lines.append(head + ", ".join(shown))
    for crash in summary["crashes"]:
        where = f"; its replay: {crash['save']}" if crash["save"] else ""
        lines.append(
            f"  game {crash['game']} (seed {crash['seed']}) crashed: {crash['error']}{where}"
        )
    return "\n".join(lines)


def describe_kinds(kinds: Mapping[str, Any], width: int) -> list[str]:
    """The lines of the summary that say what each side chose: its TOP_KINDS most chosen kinds
    with their shares, and the rest summed."""
    if not any(side["choices"] for side in kinds.values()):
        return ["  chosen: nothing (no side took an action or a reaction)"]
    lines = ["  chosen, as a share of each side's actions and reactions (End Turn not counted):"]
    digits = max(len(str(side["choices"])) for side in kinds.values())
    for team, side in kinds.items():
        shown = list(side["kinds"].items())
        # One kind more than TOP_KINDS is named rather than summed as "1 other kind".
        cut = TOP_KINDS if len(shown) > TOP_KINDS + 1 else len(shown)
        words = [f"{_kind_words(k)} {_share(c['share'])}" for k, c in shown[:cut]]
        rest = shown[cut:]
        if rest:
            share = sum(c["count"] for _, c in rest) / side["choices"]
            words.append(f"{len(rest)} other kinds {_share(share)}")
        policy = f" ({side['by_policy']} by policy)" if side["by_policy"] else ""
        lines.append(
            f"  {team:<{width}}  {side['choices']:>{digits}} choices{policy}: "
            + (", ".join(words) or "none")
        )
    return lines


def _kind_words(kind: str) -> str:
    """A kind as the summary prints it: its decision name with spaces ("attack of opportunity")."""
    return kind.replace("_", " ")


def _share(rate: float) -> str:
    """A share of choices: "<1 %" rather than "0 %" for a kind that was chosen."""
    return "<1 %" if 0 < rate < 0.005 else percent(rate)


def _pct(rate: float | None) -> str:
    return "-" if rate is None else percent(rate)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def rows(summary: Mapping[str, Any], games: Sequence[GameRecord]) -> Iterator[list[Any]]:
    """The CSV: a header, then one row per game (seed, winner, rounds, reason, HP left, and how
    many times each side chose each kind: a column `chose_TEAM_KIND` for every side and every
    kind some side chose in some game of the batch, sides in the summary's order and kinds in
    KINDS' order, 0 where that side did not choose it in that game)."""
    units = list(summary["units"])
    teams = list(summary["sides"])
    used = {(c.team, c.kind) for g in games for c in g.chosen}
    columns = sorted(
        used,
        key=lambda key: (
            teams.index(key[0]) if key[0] in teams else len(teams),
            key[0],
            kind_order(key[1]),
        ),
    )
    yield [
        "game",
        "seed",
        "result",
        "winner",
        "rounds",
        "ended_by",
        "reason",
        *(f"hp_left_{u}" for u in units),
        *(f"chose_{team}_{kind}" for team, kind in columns),
    ]
    for g in games:
        left = {u.unit: u.hp_left for u in g.units}
        chose = {(c.team, c.kind): c.count for c in g.chosen}
        winner = "+".join(g.winners) if g.result == "won" else g.result
        yield [
            g.index,
            g.seed,
            g.result,
            winner,
            g.rounds,
            g.ended_by,
            g.reason or g.error,
            *(left.get(u, "") for u in units),
            *(chose.get(key, 0) for key in columns),
        ]


def kept_name(scenario: Scenario, game: GameRecord) -> str:
    """The file a kept game is saved to: scenario, game number, seed and how it went."""
    how = "+".join(game.winners) + "-won" if game.result == "won" else game.result
    return f"{Path(scenario.path).stem}.game{game.index:04d}.seed{game.seed}.{how}.json"
