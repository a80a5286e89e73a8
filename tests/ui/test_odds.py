"""Issue #12, the client side: hovering a target shows the exact odds `sim.play.odds` works out for
that very situation (the hit chance against each defence the target can still afford and the
damage expected, the chance to win a contest, where a shove leaves its target), as whole
percentages that fit their box. Driven headless with posted events, as tests/ui/test_client.py;
every expected number is asked of `sim.play.odds` for the world on screen, never written down."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from sim.content.scenario import load
from sim.core.actions import Attack
from sim.core.condition import Condition
from sim.core.creature import conditions
from sim.core.dice import LoadedDice
from sim.core.geometry import Pos
from sim.play import odds
from sim.rules.combat.attack import AttackPlan, plan_attack
from sim.ui.input.app import App
from sim.ui.model.session import Session
from sim.ui.words.forecast import DEFENCE_WORDS, percent
from tests.ui import test_client as client
from tests.ui.test_client import Player, acting, at, fighters, make_app, write_scenario

shots = client.shots  # the fixture: where the screenshots go ($SIM_SHOTS keeps them)

OPEN = """
############
#..........#
#..ab......#
#..........#
############
"""


def tip_lines(app: App) -> tuple[str, ...]:
    """The text of the tip the last frame drew beside the hovered cell."""
    app.frame()
    assert app.renderer.tip is not None, "no tip is shown"
    return app.renderer.tip[0]


def assert_tip_fits(app: App) -> None:
    """Every line fits the tip's box, the box is on the board, and it covers no creature."""
    app.frame()
    renderer = app.renderer
    assert renderer.tip is not None
    rows, box = renderer.tip
    board = renderer.layout(app.surface.get_size()).board
    assert board.contains(box), f"the tip {box} leaves the board {board}"
    for row in rows:
        assert renderer.fonts.width(row, 18) <= box.width - 8, f"{row!r} is wider than {box}"
    assert box.collidelist(renderer.token_rects) == -1, "the tip covers a creature"
    assert not any("approx" in row.lower() for row in rows)


def attack_rows(app: App, actor: str, target: str) -> list[str]:
    """The lines sim.play.odds gives for `actor` attacking `target` now, in the tip's words."""
    world = app.world
    plan = plan_attack(world, Attack(actor, target))
    assert isinstance(plan, AttackPlan)
    found = odds.attack_odds(world, actor, target, weapon=plan.weapon, melee=plan.melee)
    return [
        f"vs {DEFENCE_WORDS[o.defence]}: {percent(o.hit)} to hit, {o.damage:.1f} damage expected"
        for o in found
    ]


def test_hovering_an_enemy_shows_the_hit_chance_against_each_defence(
    tmp_path: Path, shots: Path
) -> None:
    """ana (longsword and shield) hovers grok (greataxe, both Bonus Actions left): Dodge and
    Parry are his to choose, or nothing; each line is sim.play.odds' number for this world."""
    app = make_app(write_scenario(tmp_path, "open", fighters("odds", OPEN)))
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    p.shot("attack_odds")
    expected = attack_rows(app, "ana", "grok")
    assert [row for row in shown if row.startswith("vs ")] == expected
    chosen = odds.defences(app.world, "ana", "grok")
    assert chosen == ("dodge", "parry", "none")
    per_hit = odds.attack_odds(app.world, "ana", "grok", weapon="ana.longsword", melee=True)
    assert f"longsword (melee): {per_hit[0].per_hit} damage a hit after armour" in shown
    assert_tip_fits(app)


def test_defences_the_target_cannot_afford_are_not_listed(tmp_path: Path, shots: Path) -> None:
    """grok lies Prone (no Dodge, R-R1) and holds no shield (no Block): only Parry or nothing
    is listed. Unarmed as well, he has no defence at all and the tip says so."""
    text = fighters("prone odds", OPEN, grok="prone = true")
    app = make_app(write_scenario(tmp_path, "prone", text))
    p = Player(app, shots)
    p.sit_down()
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    p.shot("prone_target")
    assert odds.defences(app.world, "ana", "grok") == ("parry", "none")
    assert [row for row in shown if row.startswith("vs ")] == attack_rows(app, "ana", "grok")
    assert not any(row.startswith(("vs Dodge", "vs Block")) for row in shown)
    assert_tip_fits(app)

    bare = fighters("bare odds", OPEN, grok="prone = true\nheld = []")
    app = make_app(write_scenario(tmp_path, "bare", bare))
    p = Player(app, shots)
    p.sit_down()
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    assert [row for row in shown if row.startswith("vs ")] == attack_rows(app, "ana", "grok")
    assert next(row for row in shown if row.startswith("vs ")).startswith("vs no defence")
    assert "grok can afford no defence now" in shown


RANGE = """
############
#..........#
#..a....b..#
#..........#
############
"""


def test_a_ranged_target_lists_its_parry_too(tmp_path: Path, shots: Path) -> None:
    """R-R2: a Parry answers any attack, a ranged one too. An archer hovering grok 5 m away
    sees her shortbow's odds against Dodge, Parry (his held weapon) or nothing, as
    sim.play.odds gives them."""
    archer = fighters("ranged odds", RANGE).replace(
        'template = "human_fighter"', 'template = "human_archer"'
    )
    app = make_app(write_scenario(tmp_path, "range", archer))
    p = Player(app, shots)
    p.sit_down()
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    p.shot("ranged_odds")
    assert odds.defences(app.world, "ana", "grok") == ("dodge", "parry", "none")
    assert [row for row in shown if row.startswith("vs ")] == attack_rows(app, "ana", "grok")
    assert any(row.startswith("shortbow (ranged): ") for row in shown), shown
    assert_tip_fits(app)


def test_a_chosen_trip_grapple_disarm_or_feint_shows_its_chance(
    tmp_path: Path, shots: Path
) -> None:
    """With a contest chosen in the bar, the hovered target's tip shows the chance to win it
    (ana keeps a hand free to grapple and disarm with)."""
    text = fighters("contest odds", OPEN, ana='held = ["longsword"]')
    app = make_app(write_scenario(tmp_path, "open", text))
    p = Player(app, shots)
    p.sit_down()
    world = app.world
    grok = at(app, "grok")
    wanted = {
        "grapple": f"{percent(odds.grapple_chance(world, 'ana', 'grok'))} to grapple",
        "feint": f"{percent(odds.feint_chance(world, 'ana', 'grok'))} to feint",
    }
    for action, words in wanted.items():
        p.button("action", action)
        assert app.view.targeting == action
        p.hover(grok)
        shown = tip_lines(app)
        assert any(row.startswith(words) for row in shown), (action, shown)
        assert_tip_fits(app)
        p.key(pygame.K_ESCAPE)
    p.button("action", "trip")
    p.hover(grok)
    shown = tip_lines(app)
    p.shot("trip_odds")
    for o in odds.trip_odds(world, "ana", "grok", factor=odds.trip_factor(world, "ana.longsword")):
        line = f"vs {DEFENCE_WORDS[o.defence]}: {percent(o.hit)} to hit, {percent(o.prone)} Prone"
        assert line in shown
    assert_tip_fits(app)
    p.key(pygame.K_ESCAPE)
    # Disarm: chosen in the bar like the others, the weapon being grok's (R-X5).
    p.button("action", "disarm")
    assert app.view.targeting == "disarm"
    p.hover(grok)
    shown = tip_lines(app)
    assert "grok: costs 1" in shown
    assert f"{percent(odds.disarm_chance(world, 'ana', 'grok'))} to disarm" in " ".join(shown)
    assert_tip_fits(app)


WALLED = """
#########
#.......#
#..ab..##
#.......#
#########
"""


def landing_cells(app: App, actor: str, target: str) -> list[tuple[Pos, ...]]:
    return [landing.cells for landing in odds.shove_landings(app.world, actor, target)]


def test_a_shove_shows_where_the_target_lands_and_its_chances(tmp_path: Path, shots: Path) -> None:
    """A weaker grok (STR d4+4) can be pushed 1 to 4 m: every push length that can happen is a
    numbered cell on the board with its chance in the tip, with the chance to win and of
    ending Prone; the cells are drawn (black-and-white tape and a numbered disc)."""
    text = fighters("shove odds", OPEN, grok='str = "d4+4"')
    app = make_app(write_scenario(tmp_path, "weak", text))
    p = Player(app, shots)
    p.sit_down()
    grok = at(app, "grok")
    p.hover(grok)
    plain = app.frame().copy()
    p.button("action", "shove")
    p.hover(grok)
    shown = tip_lines(app)
    p.shot("shove_landings")
    world = app.world
    landings = odds.shove_landings(world, "ana", "grok")
    assert len(landings) > 1, "the push length varies"
    assert f"{percent(odds.shove_odds(world, 'ana', 'grok').win)} to win the shove" in shown[2]
    prone = sum(landing.prone for landing in landings)
    assert f"{percent(prone)} that grok ends Prone" in shown
    frame = app.frame()
    for number, landing in enumerate(landings, 1):
        end = landing.cells[-1]
        listed = f"[{number}] {'-'.join(str(m) for m in landing.metres[:1])}"
        assert any(
            row.startswith(listed) and row.endswith(f": {percent(landing.chance)}") for row in shown
        ), (landing, shown)
        box = pygame.Rect(*app.camera.screen(end), app.camera.cell, app.camera.cell)
        before = pygame.image.tobytes(plain.subsurface(box), "RGB")
        after = pygame.image.tobytes(frame.subsurface(box), "RGB")
        assert before != after, f"landing {number} at {end} is not drawn"
        colours = {frame.get_at(pt)[:3] for pt in _border(box)}
        assert (0, 0, 0) in colours and (255, 255, 255) in colours, "tape: black and white"
    assert_tip_fits(app)
    tip = app.renderer.tip
    assert tip is not None
    for landing in landings:
        cell = landing.cells[-1]
        box = pygame.Rect(*app.camera.screen(cell), app.camera.cell, app.camera.cell)
        assert not tip[1].colliderect(box), "the tip keeps the landing cells in sight"


def _border(box: pygame.Rect) -> list[tuple[int, int]]:
    """The pixels on the ring where the landing tape is drawn."""
    inset = max(2, box.width // 16)
    ring = box.inflate(-2 * inset, -2 * inset)
    return [(x, ring.top + 1) for x in range(ring.left, ring.right)]


def test_a_shove_into_a_wall_has_one_landing_and_no_number(tmp_path: Path, shots: Path) -> None:
    """Every push length grok may suffer ends against the same wall: one cell, no chances
    per distance (it does not vary), and the wall named."""
    app = make_app(write_scenario(tmp_path, "walled", fighters("wall", WALLED)))
    p = Player(app, shots)
    p.sit_down()
    p.button("action", "shove")
    p.hover(at(app, "grok"))
    shown = tip_lines(app)
    p.shot("shove_wall")
    cells = [c for c in landing_cells(app, "ana", "grok") if c]
    assert len(cells) == 1
    end = cells[0][-1]
    assert any(row.startswith("pushed ") and f"to {end}" in row for row in shown)
    assert any("wall" in row for row in shown)
    assert not any(row.startswith("[") for row in shown)


CONTESTS = '''
name = "contests"
seed = 3

[map]
rows = """
#########
#.......#
#.%b....#
#.......#
#########
"""

[[units]]
id = "ana"
team = "blue"
template = "human_fighter"
at = [2, 2]
policy = "never"

[[units]]
id = "grok"
team = "red"
template = "orc_brute"
at = "b"
policy = "never"
held = []
'''


def bar_status(p: Player, action: str) -> str:
    """The status line under the bar while the mouse rests on `action`'s button."""
    app = p.app
    app.frame()
    rect = next(r for r, k, v in app.renderer.hits.items if (k, v) == ("action", action))
    p.move_mouse(rect.center)
    app.frame()
    return app.renderer.bar_status


def test_hide_and_break_free_show_their_chance_under_the_bar(tmp_path: Path, shots: Path) -> None:
    """R-X8: ana stands in cover, so hovering Hide says her chance against grok's Perception.
    R-G2: once grok (empty-handed) holds her (loaded dice: his 10 against her 1), hovering
    Break free says her chance to win the contest."""
    scenario = load(write_scenario(tmp_path, "contests", CONTESTS))
    # Initiative: ana 8 on her d8, grok 1 on his d6; then grok's grapple: 10 against 1.
    battle = scenario.begin(LoadedDice([8, 1, 10, 1]))
    app = App(Session(scenario, 3, battle=battle), (1280, 800))
    p = Player(app, shots)
    p.sit_down()
    assert acting(app) == "ana"
    hide = odds.hide_odds(app.world, "ana")
    assert hide.each and hide.each[0][0] == "grok"
    status = bar_status(p, "hide")
    p.shot("hide_odds")
    assert status.startswith(f"hide: {percent(hide.each[0][1])} to hide from grok;"), status
    p.key(pygame.K_e)
    p.sit_down()
    p.button("action", "grapple")  # grok's hands are free
    assert app.view.targeting == "grapple"
    p.click_cell(at(app, "ana"))
    assert conditions(app.world, "ana").creature(Condition.GRAPPLED) == "grok"
    p.key(pygame.K_e)
    p.sit_down()
    assert acting(app) == "ana"
    chance = odds.break_free_chance(app.world, "ana", "grok")
    status = bar_status(p, "break_free")
    p.shot("break_free_odds")
    assert status.startswith(f"break free: {percent(chance)} to break free of grok;"), status


def test_the_forecast_words_doctests() -> None:
    """sim/ui is left out of pytest's doctest collection: the rounding and landing words'
    examples run here (a chance rounds to a whole percent, never to a false 0 % or 100 %)."""
    import doctest

    import sim.ui.words.forecast

    failed, tried = doctest.testmod(sim.ui.words.forecast)
    assert failed == 0 and tried > 0
