"""Is the map fair: every seed of a batch played once for each seating of the AI levels on the
sides (for two sides: as asked, then with the levels swapped), so that each side plays each
level equally often and its win rate measures the map, apart from the levels' own advantage.

Seed `i` of a fair batch with base seed `S` is played under every seating with the seed
`game_seed(S, i)`, so the two games of a pair share their dice and differ only in who plays
which side. The seatings are the distinct rotations of the levels over the sides (in the
scenario's order of teams): two sides at `hard` and `normal` give blue hard / red normal and
blue normal / red hard; the same level on every side gives one seating, as a second game with
the same seed and the same levels would be the same game (the battle is deterministic). Game
`j * seeds + i` of the batch is seed `i` under seating `j`.

A side is fair when its win rate is within FAIR_RATE of an equal share (40 % to 60 % with two
sides) and its 95 % Wilson interval within FAIR_INTERVAL of it (35 % to 65 %). The interval
treats the games as independent; the games of a pair share their dice, so with two different
levels it is a little narrower than it should be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sim.ai.choice import percent
from sim.tools.batch import GameRecord, Plan, PoolFactory, describe, local_pool, rows, run, wilson
from sim.tools.batch import summarize as summarize_batch

Seating = tuple[tuple[str, str], ...]  # (team, AI level), every team of the scenario

FAIR_RATE = 0.10  # a fair side wins within 10 points of an equal share (40-60 % of two sides)
FAIR_INTERVAL = 0.15  # and its 95 % interval lies within 15 points of it (35-65 %)


def seatings(levels: Seating) -> tuple[Seating, ...]:
    """The distinct rotations of the levels over the teams, the one given first: each team
    plays each level as often as every other team does.

    >>> seatings((("blue", "hard"), ("red", "normal")))
    ((('blue', 'hard'), ('red', 'normal')), (('blue', 'normal'), ('red', 'hard')))
    >>> seatings((("blue", "normal"), ("red", "normal")))
    ((('blue', 'normal'), ('red', 'normal')),)
    >>> [dict(s)["green"] for s in seatings((("blue", "a"), ("green", "b"), ("red", "b")))]
    ['b', 'a', 'b']
    """
    teams = [team for team, _ in levels]
    kinds = [level for _, level in levels]
    out: list[Seating] = []
    for shift in range(len(kinds)):
        # Shift 1 gives each team the level of the team before it.
        turned = tuple(
            zip(teams, kinds[len(kinds) - shift :] + kinds[: len(kinds) - shift], strict=True)
        )
        if turned not in out:
            out.append(turned)
    return tuple(out)


def play(
    plan: Plan,
    seeds: int,
    *,
    workers: int = 1,
    pool: PoolFactory = local_pool,
    on_game: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Every one of `seeds` seeds of `plan` played under each seating of its levels (`run`
    for each), numbered `j * seeds + i` for seed `i` under seating `j`, in that order."""
    done: list[GameRecord] = []
    for j, seating in enumerate(seatings(plan.levels)):
        games = run(
            replace(plan, levels=seating), seeds, workers=workers, pool=pool, on_game=on_game
        )
        done += [replace(g, index=j * seeds + g.index) for g in games]
    return done


def seating_of(plan: Plan, seeds: int, game: GameRecord) -> Seating:
    """The seating game `game` of a fair batch of `seeds` seeds was played under."""
    return seatings(plan.levels)[game.index // seeds]


def summarize(
    plan: Plan, games: Sequence[GameRecord], seeds: int, saved: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """The batch's summary (`sim.tools.batch.summarize` over every game, each side's `ai`
    naming the levels it played in turn), with its `fairness` (docs/commands.md)."""
    summary = summarize_batch(plan, games, saved)
    turns = seatings(plan.levels)
    for team, side in summary["sides"].items():
        side["ai"] = "/".join(dict.fromkeys(dict(s)[team] for s in turns))
    summary["fairness"] = fairness(plan, games, seeds)
    return summary


def fairness(plan: Plan, games: Sequence[GameRecord], seeds: int) -> dict[str, Any]:
    """Each side's wins over every seating, each level's, each seating's, and the verdict."""
    turns = seatings(plan.levels)
    teams = [team for team, _ in plan.levels]
    played = [g for g in games if g.result != "crashed"]
    n = len(played)
    share = 1 / len(teams)
    kinds = list(dict.fromkeys(level for _, level in plan.levels))
    sides: dict[str, Any] = {}
    for team in teams:
        wins = sum(team in g.winners for g in played)
        by_level: dict[str, Any] = {}
        for level in kinds:
            mine = [g for g in played if dict(seating_of(plan, seeds, g))[team] == level]
            won = sum(team in g.winners for g in mine)
            by_level[level] = {"games": len(mine), "wins": won, "win_rate": _rate(won, len(mine))}
        sides[team] = {
            "wins": wins,
            "win_rate": _rate(wins, n),
            "wilson_95": list(wilson(wins, n)),
            "fair": _fair(wins, n, share),
            "by_level": by_level,
        }
    levels: dict[str, Any] = {}
    if len(kinds) > 1:
        for level in kinds:
            wins = sum(
                any(dict(seating_of(plan, seeds, g))[w] == level for w in g.winners) for g in played
            )
            levels[level] = {
                "wins": wins,
                "win_rate": _rate(wins, n),
                "wilson_95": list(wilson(wins, n)),
            }
    return {
        "seeds": seeds,
        "seatings": [dict(s) for s in turns],
        "played": n,
        "share": share,
        "fair_rate": [share - FAIR_RATE, share + FAIR_RATE],
        "fair_interval": [share - FAIR_INTERVAL, share + FAIR_INTERVAL],
        "sides": sides,
        "levels": levels,
        "by_seating": [
            _seating(dict(s), [g for g in played if g.index // seeds == j], teams)
            for j, s in enumerate(turns)
        ],
        "verdict": verdict(sides, share),
    }


def _seating(
    levels: dict[str, str], games: Sequence[GameRecord], teams: Sequence[str]
) -> dict[str, Any]:
    return {
        "levels": levels,
        "games": len(games),
        "wins": {team: sum(team in g.winners for g in games) for team in teams},
        "draws": sum(g.result == "draw" for g in games),
        "capped": sum(g.result == "capped" for g in games),
    }


def _rate(wins: int, n: int) -> float | None:
    return wins / n if n else None


def _fair(wins: int, n: int, share: float) -> bool:
    """Within FAIR_RATE of `share`, and its interval within FAIR_INTERVAL.

    >>> _fair(200, 400, 0.5), _fair(230, 400, 0.5), _fair(10, 20, 0.5), _fair(0, 0, 0.5)
    (True, True, False, False)
    """
    if n == 0:
        return False
    low, high = wilson(wins, n)
    close = abs(wins / n - share) <= FAIR_RATE + 1e-12
    return close and share - FAIR_INTERVAL <= low and high <= share + FAIR_INTERVAL


def verdict(sides: Mapping[str, Any], share: float) -> str:
    """The fairness in words: "fair", "favours TEAM", "uneven: TEAM wins under 40 %" or, when
    every rate is within its band but an interval is not, "too few games to tell".

    >>> one = {"win_rate": 0.7, "wilson_95": [0.6, 0.8], "fair": False}
    >>> other = {"win_rate": 0.3, "wilson_95": [0.2, 0.4], "fair": False}
    >>> verdict({"blue": one, "red": other}, 0.5)
    'favours blue'
    """
    if not sides or any(side["win_rate"] is None for side in sides.values()):
        return "no games played"
    if all(side["fair"] for side in sides.values()):
        return "fair"
    best = max(sides, key=lambda team: sides[team]["win_rate"])
    if sides[best]["win_rate"] > share + FAIR_RATE + 1e-12:
        return f"favours {best}"
    worst = min(sides, key=lambda team: sides[team]["win_rate"])
    if sides[worst]["win_rate"] < share - FAIR_RATE - 1e-12:
        return f"uneven: {worst} wins under {percent(share - FAIR_RATE)}"
    return "too few games to tell"


def lines(fair: Mapping[str, Any]) -> list[str]:
    """The fairness in a line (two when the levels differ): what `sim batch --fairness` prints
    and the map editor's balance check shows."""
    n = fair["played"]
    levels = fair["seatings"]
    how = (
        f"each level on each side, {n} games"
        if len(levels) > 1
        else f"all sides {next(iter(levels[0].values()))}, {n} games"
    )
    sides = ", ".join(f"{team} {_interval(side)}" for team, side in fair["sides"].items())
    out = [f"fairness ({how}): {sides}: {fair['verdict']}"]
    if fair["levels"]:
        out.append(
            "levels apart from sides: "
            + ", ".join(f"{level} {_interval(side)}" for level, side in fair["levels"].items())
        )
    return out


def _interval(side: Mapping[str, Any]) -> str:
    """ "62 % (57-67 %)": a win rate and its 95 % interval."""
    if side["win_rate"] is None:
        return "-"
    low, high = side["wilson_95"]
    return f"{percent(side['win_rate'])} ({percent(low).removesuffix(' %')}-{percent(high)})"


def summary_text(summary: Mapping[str, Any]) -> str:
    """`sim.tools.batch.describe` with the fairness lines after the sides' wins and draws."""
    text = describe(summary).split("\n")
    at = next(i for i, line in enumerate(text) if line.startswith("  draws ")) + 1
    return "\n".join(
        [*text[:at], *("  " + line for line in lines(summary["fairness"])), *text[at:]]
    )


def table(
    summary: Mapping[str, Any], plan: Plan, games: Sequence[GameRecord]
) -> Iterator[list[Any]]:
    """The CSV of a fair batch: `sim.tools.batch.rows` with a column `ai` after `seed`, the
    game's seating ("blue=hard red=normal")."""
    seeds = summary["fairness"]["seeds"]
    out = rows(summary, games)
    header = next(out)
    at = header.index("seed") + 1
    yield [*header[:at], "ai", *header[at:]]
    for game, row in zip(games, out, strict=True):
        seating = " ".join(f"{team}={level}" for team, level in seating_of(plan, seeds, game))
        yield [*row[:at], seating, *row[at:]]
