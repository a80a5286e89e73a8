"""Saves as replays: the scenario (with its hash), the rules version, the seed and the decisions.

A save never pickles the engine: loading begins a fresh battle on the same scenario with the same
seed and submits the same decisions, so the battle comes back exactly (DESIGN "Randomness and
replay"). Files are written atomically (a temporary file beside the target, then `os.replace`),
so a crash while saving leaves the previous save whole; the temporary file such a crash leaves
behind is removed by the next save into that directory. A damaged or foreign file raises
`ReplayError`, whose message names the file and what is wrong with it.

Autosaves go to a user directory, not beside the scenario (shipped scenarios may be read-only):
`$SIM_SAVE_DIR` if set, else `$XDG_STATE_HOME/sim/saves`, else `~/.local/state/sim/saves`. An
autosave belongs to one game, not to a scenario: `<scenario stem>.<game>.autosave.json`, where
the game is named by the time it started, so starting the scenario again never replaces the
autosave of an earlier game.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.ai.levels import LEVELS
from sim.content.scenario import MAX_SEED, Scenario, ScenarioError, load
from sim.core.dice import SeededDice
from sim.core.events import to_json as event_json
from sim.core.files import Unreadable, mode_for, read_bytes
from sim.core.limits import limits
from sim.core.numbers import default_rules
from sim.play.auto import AUTO
from sim.play.decisions import DecisionError, parse, shown, to_json
from sim.play.engine import OLD_DEFAULT_POLICY, REACTION_POLICIES, Battle, Decision
from sim.rules.objectives import teams

FORMAT = "sim-save"
# 2: the save names the reaction policy of creatures that name none ("default_policy"), "auto"
# since it became the default; a version 1 save began under "always" and replays under it.
VERSION = 2
READABLE = (1, 2)
SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"


class ReplayError(Exception):
    """A save that cannot be read or replayed; the message says which file and what is wrong."""


@dataclass(frozen=True, slots=True)
class Save:
    """Everything needed to bring a battle back."""

    scenario_path: str
    scenario_digest: str
    scenario_name: str
    rules_version: str
    seed: int
    decisions: tuple[Decision, ...]
    events: int = -1  # length of the event log when saved (-1: unknown, not checked)
    log_digest: str = ""  # sha256 of the event log when saved ("" : not checked)
    over: bool = False  # the battle had ended when saved (False also for older saves)
    # The sides the AI played when saved, (team, level) by team: a game against the AI goes on
    # against it when loaded (none in older saves).
    ai: tuple[tuple[str, str], ...] = ()
    # The reaction policy of the creatures whose scenario names none (Battle.default_policy):
    # "always" in a version 1 save, written before "auto" became the default.
    default_policy: str = AUTO
    # The round the battle was in when saved and, once over, who won: what a list of saves
    # says of each without replaying it (0 and () in saves written before they were kept).
    rounds: int = 0
    winners: tuple[str, ...] = ()
    # The content packs the scenario named, (path as the scenario writes it, sha256), whose
    # digests `scenario_digest` covers too (issue #32): which one changed is said by name.
    content: tuple[tuple[str, str], ...] = ()


def log_digest(battle: Battle) -> str:
    """A fingerprint of the event log, to notice a replay that came out differently."""
    h = hashlib.sha256()
    for event in battle.log:
        h.update(json.dumps(event_json(event), sort_keys=True).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def record(
    battle: Battle, scenario: Scenario, seed: int, ai: Mapping[str, str] | None = None
) -> Save:
    """The save of `battle`, begun on `scenario` with `seed`; `ai`: the sides the AI plays,
    with their levels."""
    return Save(
        scenario_path=str(Path(scenario.path).resolve()),
        scenario_digest=scenario.digest,
        scenario_name=scenario.name,
        rules_version=battle.world.rules.version,
        seed=seed,
        decisions=tuple(battle.decisions),
        events=len(battle.log),
        log_digest=log_digest(battle),
        over=battle.world.turn.over,
        ai=tuple(sorted((ai or {}).items())),
        default_policy=battle.default_policy,
        rounds=battle.world.turn.round,
        winners=tuple(battle.world.turn.winners),
        content=tuple((pack.path, pack.sha256) for pack in scenario.packs),
    )


def dumps(save: Save) -> str:
    scenario: dict[str, Any] = {
        "path": save.scenario_path,
        "sha256": save.scenario_digest,
        "name": save.scenario_name,
    }
    if save.content:
        scenario["content"] = dict(save.content)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "scenario": scenario,
        "rules_version": save.rules_version,
        "seed": save.seed,
        "decisions": [to_json(d) for d in save.decisions],
        "events": save.events,
        "log_sha256": save.log_digest,
        "over": save.over,
        "ai": dict(save.ai),
        "default_policy": save.default_policy,
        "rounds": save.rounds,
        "winners": list(save.winners),
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _need(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ReplayError(f'{where}: damaged save: "{key}" is missing or not a {kind.__name__}')
    return value


def loads(text: str, where: str = "<save>") -> Save:
    """A save from its JSON text; `where` names the file in error messages."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayError(
            f"{where}: damaged save: not valid JSON at line {error.lineno}, column {error.colno}"
            f" ({error.msg})"
        ) from None
    except RecursionError:
        raise ReplayError(f"{where}: damaged save: lists or objects nested too deep") from None
    except ValueError:  # a number of more digits than Python converts (int_max_str_digits)
        raise ReplayError(f"{where}: damaged save: a number has too many digits") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f'{where}: not a sim save (no "format": "{FORMAT}" at the top)')
    version = data.get("version")
    if version not in READABLE or isinstance(version, bool):
        raise ReplayError(
            f"{where}: save format version {version!r}; this simulator reads versions "
            f"{', '.join(map(str, READABLE))}"
        )
    default_policy = OLD_DEFAULT_POLICY if version == 1 else data.get("default_policy")
    if default_policy not in REACTION_POLICIES:
        raise ReplayError(
            f'{where}: damaged save: "default_policy" must be one of '
            f"{', '.join(REACTION_POLICIES)}, not {shown(default_policy)}"
        )
    scenario = _need(data, "scenario", dict, where)
    raw = _need(data, "decisions", list, where)
    decisions = []
    for number, obj in enumerate(raw, start=1):
        try:
            decisions.append(parse(obj))
        except DecisionError as error:
            raise ReplayError(f"{where}: decision #{number} ({shown(obj)}): {error}") from None
    events = data.get("events", -1)
    seed = _need(data, "seed", int, where)
    if not 0 <= seed <= MAX_SEED:
        raise ReplayError(f'{where}: damaged save: "seed" must be from 0 to {MAX_SEED}')
    return Save(
        scenario_path=_need(scenario, "path", str, where + ": scenario"),
        scenario_digest=_need(scenario, "sha256", str, where + ": scenario"),
        scenario_name=str(scenario.get("name", "")),
        rules_version=_need(data, "rules_version", str, where),
        seed=seed,
        decisions=tuple(decisions),
        events=events if isinstance(events, int) else -1,
        log_digest=str(data.get("log_sha256", "")),
        over=data.get("over") is True,
        ai=_seats(data.get("ai", {}), where),
        default_policy=default_policy,
        rounds=_rounds(data.get("rounds", 0)),
        winners=_winners(data.get("winners", [])),
        content=_packs(scenario.get("content", {}), where),
    )


def _rounds(value: Any) -> int:
    """The saved "rounds": only a description of the save (the replay decides the battle),
    so one that is not a whole number from 0 reads as unknown (0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _winners(value: Any) -> tuple[str, ...]:
    """The saved "winners", as `_rounds`: a list of side names, else none known."""
    if isinstance(value, list) and all(isinstance(team, str) for team in value):
        return tuple(value)
    return ()


def _packs(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """The saved scenario's "content": each pack's path and sha256 (absent before issue #32,
    and for a scenario without packs)."""
    if not isinstance(value, dict) or not all(
        isinstance(path, str) and isinstance(sha, str) for path, sha in value.items()
    ):
        raise ReplayError(
            f"{where}: damaged save: the scenario's \"content\" must map each content pack's "
            'path to its sha256, e.g. {"monsters.toml": "9f2c..."}'
        )
    return tuple(value.items())


def _seats(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """The saved "ai" object: each side's level (absent in saves before it was kept)."""
    if not isinstance(value, dict) or not all(
        isinstance(team, str) and level in LEVELS for team, level in value.items()
    ):
        raise ReplayError(
            f'{where}: damaged save: "ai" must map each side the AI plays to a level '
            f'({", ".join(LEVELS)}), e.g. {{"red": "hard"}}'
        )
    return tuple(sorted(value.items()))


# A temporary file of `write`: `.<target name>.<random>` (mkstemp's 8 random characters), with
# ".tmp" since this version. Only names of this shape are ever removed.
_RANDOM = r"\.[a-z0-9_]{8}(\.tmp)?"
_TEMPORARY = re.compile(r"\..+\.json" + _RANDOM)
# A temporary file of another target is removed only once it is this old: a write takes
# milliseconds, so an older one was left by a write that was cut off (a crash, a kill), while a
# younger one may belong to another sim saving into the same directory at this moment.
STALE_SECONDS = 60.0


def clean_temporaries(directory: Path, target: Path | None = None) -> list[Path]:
    """Remove the temporary files that interrupted writes left in `directory`: every one of
    `target`'s (its next write is under way), and the stale ones of other files. The paths
    removed."""
    removed: list[Path] = []
    try:
        entries = list(directory.iterdir())
    except OSError:
        return removed
    now = time.time()
    own = re.compile(re.escape(f".{target.name}") + _RANDOM) if target is not None else None
    for entry in entries:
        mine = own is not None and own.fullmatch(entry.name) is not None
        if not mine and not _TEMPORARY.fullmatch(entry.name):
            continue
        try:
            if mine or now - entry.stat().st_mtime > STALE_SECONDS:
                entry.unlink()
                removed.append(entry)
        except OSError:
            continue  # gone already, or not ours to remove: the save itself goes on
    return removed


def write(path: str | Path, save: Save) -> None:
    """Write atomically: a temporary file in the same directory, flushed, then renamed over.
    Temporary files left by earlier writes that were cut off are removed first. The file keeps
    the mode of the one it replaces."""
    target = Path(path)
    text = dumps(save)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_temporaries(target.parent, target)
        fd, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
        )
    except OSError as error:
        raise ReplayError(f"{target}: cannot save: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            os.fchmod(out.fileno(), mode_for(target))
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ReplayError(f"{target}: cannot save: {error.strerror or error}") from None


def read(path: str | Path) -> Save:
    where = str(path)
    try:
        raw = read_bytes(path, limits().files.save, "a save")
    except Unreadable as error:
        reason = str(error).removeprefix("cannot read the file: ")
        raise ReplayError(f"{where}: cannot read the save: {reason}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayError(f"{where}: damaged save: not UTF-8 text") from None
    return loads(text, where)


def find_scenario(save: Save, where: str, near: Path | None = None) -> Scenario:
    """The save's scenario: at its recorded path, else beside the save, else a shipped one with
    the same file name; it must hash to the recorded digest."""
    recorded = Path(save.scenario_path)
    candidates = [recorded]
    if near is not None:
        candidates += [near / recorded, near / recorded.name]
    candidates.append(SHIPPED / recorded.name)
    changed: list[str] = []
    tried: set[Path] = set()  # the save beside its scenario is one file by two candidates
    for candidate in candidates:
        try:
            found = candidate.is_file()
            if found:
                same = candidate.resolve()
                found = same not in tried
                tried.add(same)
        except (OSError, ValueError, RuntimeError) as error:  # a damaged save's path
            reason = error.strerror if isinstance(error, OSError) else str(error)
            changed.append(f"{_cut(str(candidate))} cannot be looked up ({reason})")
            continue
        if not found:
            continue
        try:
            scenario = load(candidate)
        except ScenarioError as error:
            changed.append(f"{candidate} no longer loads ({error})")
            continue
        if scenario.digest == save.scenario_digest:
            return scenario
        changed.append(f"{candidate} {what_changed(save, scenario)}")
    if changed:
        raise ReplayError(f"{where}: cannot replay: " + "; ".join(changed))
    raise ReplayError(
        f"{where}: cannot replay: the scenario {_cut(save.scenario_path)} is not found"
    )


def what_changed(save: Save, scenario: Scenario) -> str:
    """What differs between a save's scenario and `scenario` (whose digest differs), in words
    that follow its path: the content packs that changed, were added or are gone (issue #32),
    else the file itself."""
    now = {pack.path: pack.sha256 for pack in scenario.packs}
    then = dict(save.content)
    changed = [path for path, sha in then.items() if path in now and now[path] != sha]
    gone = [path for path in then if path not in now]
    added = [path for path in now if path not in then]
    words = []
    if changed:
        words.append(f"its content pack {_names(changed)} is not the same (its sha256 differs)")
    if gone:
        words.append(f"it no longer names the content pack {_names(gone)}")
    if added:
        words.append(f"it names a content pack it did not: {_names(added)}")
    if not words:
        return "has changed since the save (its sha256 differs)"
    return "has changed since the save: " + "; ".join(words)


def _names(paths: list[str]) -> str:
    return ", ".join(_cut(path) for path in paths)


def _cut(path: str, limit: int = 60) -> str:
    """A path from a save for a message: a damaged one may be thousands of characters long,
    or hold control characters (shown escaped)."""
    path = "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)
    return path if len(path) <= limit else path[: limit - 3] + "..."


def begin(scenario: Scenario, seed: int, default_policy: str = AUTO) -> Battle:
    """A fresh battle with fair dice from `seed` (`Scenario.begin`: on a copy of its world),
    its creatures that name no reaction policy under `default_policy`."""
    return scenario.begin(SeededDice(seed), seed, default_policy=default_policy)


def replay(
    save: Save, scenario: Scenario | None = None, where: str = "<save>"
) -> tuple[Scenario, Battle]:
    """Begin the save's battle afresh and submit its decisions; check it came out the same."""
    if scenario is None:
        near = Path(where).parent if where != "<save>" else None
        scenario = find_scenario(save, where, near)
    elif scenario.digest != save.scenario_digest:
        if scenario.name == save.scenario_name and (save.content or scenario.packs):
            raise ReplayError(
                f"{where}: cannot replay: {scenario.path} {what_changed(save, scenario)}"
            )
        raise ReplayError(f"{where}: the save is for another scenario ({save.scenario_name!r})")
    rules = scenario.world.rules.version
    if save.rules_version != rules:
        raise ReplayError(
            f"{where}: saved under rules version {save.rules_version}, these are version {rules}"
        )
    sides = sorted(teams(scenario.world))
    strange = [team for team, _ in save.ai if team not in sides]
    if strange:
        raise ReplayError(
            f'{where}: damaged save: "ai" names a side the scenario does not have: '
            f"{', '.join(strange)} (its sides: {', '.join(sides)})"
        )
    battle = begin(scenario, save.seed, save.default_policy)
    for number, decision in enumerate(save.decisions, start=1):
        try:
            battle.submit(decision)
        except Exception as error:  # an engine that changed since the save
            raise ReplayError(
                f"{where}: decision #{number} ({shown(to_json(decision))}) fails on replay: "
                f"the engine stopped on it ({_words(error)}); it changed since the save"
            ) from None
    if save.events >= 0 and len(battle.log) != save.events:
        raise ReplayError(
            f"{where}: the replay came out differently ({len(battle.log)} events, "
            f"{save.events} when saved): the engine changed since the save"
        )
    if save.log_digest and log_digest(battle) != save.log_digest:
        raise ReplayError(
            f"{where}: the replay came out differently (its event log differs from the saved "
            "one): the engine changed since the save"
        )
    return scenario, battle


def _words(error: Exception) -> str:
    """An exception's own message (a KeyError's str() would quote it again), else its kind."""
    if error.args and isinstance(error.args[0], str) and error.args[0]:
        return error.args[0]
    return str(error) or type(error).__name__


def load_save(path: str | Path) -> tuple[Save, Scenario, Battle]:
    """Read a save file and replay it."""
    save = read(path)
    scenario, battle = replay(save, where=str(path))
    return save, scenario, battle


def save_dir() -> Path:
    configured = os.environ.get("SIM_SAVE_DIR")
    if configured:
        return Path(configured)
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state else Path.home() / ".local" / "state"
    return base / "sim" / "saves"


AUTOSAVE = ".autosave.json"


def game_name(when: datetime | None = None) -> str:
    """A game's name: when it started, in UTC, to the second (sorts by time)."""
    moment = when if when is not None else datetime.now(UTC)
    return moment.astimezone(UTC).strftime("%Y%m%d-%H%M%S")


def autosave_path(scenario_path: str | Path, game: str) -> Path:
    """Where game `game` of the scenario at `scenario_path` is autosaved."""
    return save_dir() / f"{Path(scenario_path).stem}.{game}{AUTOSAVE}"


def new_autosave_path(scenario_path: str | Path, when: datetime | None = None) -> Path:
    """The autosave of a game starting now: a file no other game has (a second game started in
    the same second gets "-2", and so on)."""
    game = game_name(when)
    path = autosave_path(scenario_path, game)
    number = 1
    while taken(path):
        number += 1
        path = autosave_path(scenario_path, f"{game}-{number}")
    return path


def taken(path: Path) -> bool:
    """Whether a file is at `path`; one that cannot be looked at (a save directory without
    permission) counts as free: writing it will fail and say why."""
    try:
        return path.exists()
    except OSError:
        return False


def is_autosave(path: str | Path) -> bool:
    return Path(path).name.endswith(AUTOSAVE)


@dataclass(frozen=True, slots=True)
class Unfinished:
    """An autosaved game that has not ended: its file, its save, and when it was last saved."""

    path: Path
    save: Save
    saved_at: float  # seconds since the epoch (the file's modification time)

    def describe(self) -> str:
        when = datetime.fromtimestamp(self.saved_at).strftime("%Y-%m-%d %H:%M")
        n = len(self.save.decisions)
        return f"{n} decision{'s' if n != 1 else ''}, last saved {when}"


def unfinished_games(scenario: Scenario) -> list[Unfinished]:
    """The autosaved games of `scenario` (this very file: same name and sha256) that have not
    ended and in which something was decided, the most recently saved first. Files that cannot
    be read are passed over: they are not games to continue."""
    stem = Path(scenario.path).stem
    found: list[Unfinished] = []
    try:
        candidates = sorted(save_dir().glob(f"{glob.escape(stem)}.*{AUTOSAVE}"))
    except OSError:
        return found
    for path in candidates:
        try:
            save = read(path)
            saved_at = path.stat().st_mtime
        except (ReplayError, OSError):
            continue
        if save.scenario_digest != scenario.digest or save.over or not save.decisions:
            continue
        found.append(Unfinished(path, save, saved_at))
    found.sort(key=lambda u: (u.saved_at, u.path.name), reverse=True)
    return found


def rules_version() -> str:
    return default_rules().version
