"""Issue #15, the UI scale: every font, row, panel, button and margin comes from one scale, so at
1, 1.5 and 2 on 1280×800 and 1920×1080 nothing overlaps and text fits its panel; the scale is
set by --ui-scale (refused outside its bounds, with the reason), by the Settings' + and - while
playing (the window is laid out again, nothing lost), or follows the window's size."""

from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from sim.cli.main import main
from sim.content import mapedit
from sim.content.scenario import load
from sim.core.geometry import Pos
from sim.play.engine import AwaitingAction
from sim.ui.input.app import App
from sim.ui.input.editor import Editor
from sim.ui.input.viewer import Viewer, open_save
from sim.ui.look.metrics import Metrics, default_scale, default_window, scale_refusal
from sim.ui.model.session import Session
from tests.ui import test_client as client
from tests.ui import test_replay_viewer as replays
from tests.ui.test_client import Player

shots = client.shots
save_dir = client.save_dir
kept = replays.kept  # a game kept by `sim batch --keep`

ROOT = Path(__file__).resolve().parents[2]
CLIFF = ROOT / "scenarios" / "cliff_fort.toml"

Drawn = list[tuple[str, pygame.Rect]]


def opened(size: tuple[int, int], scale: float | None, shots: Path) -> tuple[App, Player]:
    """cliff_fort at this window size and scale, seated, the acting creature selected and a
    cell hovered, so the sidebar shows its most: the creature, the legend and the cell."""
    app = App(Session(load(CLIFF), 1), size, scale=scale)
    p = Player(app, shots)
    if app.view.handover is not None:
        p.sit_down()
    pending = app.session.battle.pending
    assert isinstance(pending, AwaitingAction)
    app.view.selected = pending.unit
    p.hover(Pos(3, 3))
    return app, p


def drawn_text(app: App) -> Drawn:
    """Every string the next frame draws, with where (the panels are drawn afresh)."""
    drawn: list[tuple[object, str, pygame.Rect]] = []
    fonts = app.renderer.fonts
    plain = fonts.draw

    def recording(*args: object, **kwargs: object) -> pygame.Rect:
        rect = plain(*args, **kwargs)  # type: ignore[arg-type]
        drawn.append((args[0], str(args[1]), rect))
        return rect

    fonts.draw = recording  # type: ignore[method-assign]
    app.renderer.rescale(app.renderer.m)  # no kept panel pictures: every panel is drawn
    try:
        app.frame()
    finally:
        fonts.draw = plain  # type: ignore[method-assign]
    # The sidebar's top is drawn in a picture of its own, in the picture's coordinates.
    top = app.renderer._panels["sidebar"][1]
    side = app.renderer.layout(app.surface.get_size()).sidebar
    return [(t, r.move(side.topleft) if on is top else r) for on, t, r in drawn]


def overlaps(rects: list[tuple[str, pygame.Rect]]) -> list[str]:
    return [
        f"{a!r} {ra} overlaps {b!r} {rb}"
        for i, (a, ra) in enumerate(rects)
        for b, rb in rects[i + 1 :]
        if ra.colliderect(rb)
    ]


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0])
def test_nothing_overlaps_and_text_fits_its_panel(
    size: tuple[int, int], scale: float, shots: Path
) -> None:
    app, _ = opened(size, scale, shots)
    text = drawn_text(app)
    window = app.surface.get_rect()
    lay = app.renderer.layout(size)
    # The three panels tile the window.
    assert window.contains(lay.board) and window.contains(lay.bar) and window.contains(lay.sidebar)
    assert not lay.board.colliderect(lay.bar) and not lay.board.colliderect(lay.sidebar)
    assert not lay.bar.colliderect(lay.sidebar)
    assert lay.board.width >= size[0] // 2 and lay.board.height >= size[1] // 3
    # The body text grew with the scale.
    assert app.renderer.fonts.font(app.renderer.m.font).get_height() >= 12 * scale - 1
    # Action bar: toggles and action buttons inside the bar, none on another.
    buttons = [(v, r) for r, k, v in app.renderer.hits.items if k in ("toggle", "action")]
    assert len(buttons) > 11
    assert not overlaps(buttons)
    assert all(lay.bar.contains(r) for _, r in buttons), [v for v, r in buttons]
    # The text in a button stays in it; a button's name and its cost do not meet.
    for name, box in buttons:
        inside = [(t, r) for t, r in text if box.collidepoint(r.topleft)]
        assert inside, name
        assert all(box.contains(r) for _, r in inside), (name, box, inside)
        assert not overlaps(inside), name
    # The sidebar's text is inside the sidebar, line under line.
    side = [(t, r) for t, r in text if lay.sidebar.collidepoint(r.topleft)]
    assert len(side) > 10
    assert all(lay.sidebar.contains(r) for _, r in side), [
        (t, r) for t, r in side if not lay.sidebar.contains(r)
    ]
    assert not overlaps(side)
    # The bar's text (the Last and status lines too) is inside the bar, none on another.
    bar = [(t, r) for t, r in text if lay.bar.collidepoint(r.topleft)]
    assert all(lay.bar.contains(r) for _, r in bar)
    assert not overlaps(bar)
    status = [(t, r) for t, r in bar if t == app.renderer.bar_status]
    assert status and window.contains(status[0][1])


def test_the_settings_change_the_scale_while_playing_and_lose_nothing(shots: Path) -> None:
    app, p = opened((1280, 800), None, shots)
    assert app.renderer.m.scale == 1.0  # from the window's size
    before = app.renderer.layout((1280, 800))
    while app.view.menu is None:
        p.key(pygame.K_ESCAPE)  # the first drops the selection, as ever
    p.button("menu", "settings")
    view = app.view
    kept = (view.side, view.selected, view.show_reach, view.waypoints[:])  # hover: the mouse
    version, decisions = app.session.version, len(app.session.battle.log)
    labels = [line.label for line in app.menu.lines()]
    assert "Larger [+]: UI scale 1 to 1.1" in labels
    p.key(pygame.K_EQUALS)  # + without Shift
    p.key(pygame.K_KP_PLUS)
    p.button("menu", "ui_larger")
    assert app.renderer.m.scale == pytest.approx(1.3) and app.ui_scale == pytest.approx(1.3)
    after = app.renderer.layout((1280, 800))
    assert after.sidebar.width > before.sidebar.width  # laid out again, without a restart
    assert app.view.menu == "settings"
    assert (view.side, view.selected, view.show_reach, view.waypoints) == kept
    assert (app.session.version, len(app.session.battle.log)) == (version, decisions)
    p.shot("settings_at_1.3")
    p.key(pygame.K_MINUS)
    assert app.renderer.m.scale == pytest.approx(1.2)
    # At a bound the line is refused, saying why.
    app.set_scale(2.5)
    larger = next(line for line in app.menu.lines() if line.value == "ui_larger")
    assert not larger.ok and larger.detail == "the UI scale is at its largest, 2.5"
    p.key(pygame.K_PLUS)
    assert app.renderer.m.scale == 2.5
    assert app.view.status.endswith("the UI scale is at its largest, 2.5")
    app.set_scale(0.75)
    smaller = next(line for line in app.menu.lines() if line.value == "ui_smaller")
    assert not smaller.ok and smaller.detail == "the UI scale is at its smallest, 0.75"
    p.key(pygame.K_ESCAPE)
    p.key(pygame.K_ESCAPE)
    assert app.view.menu is None
    # A scale once chosen stays through a resize; without one the scale follows the window.
    app.surface = pygame.Surface((1920, 1080))
    app.frame()
    assert app.renderer.m.scale == 0.75
    other, _ = opened((1280, 800), None, shots)
    other.surface = pygame.Surface((1920, 1080))
    other.frame()
    assert other.renderer.m.scale == default_scale((1920, 1080)) == 1.35


def test_the_scale_default_and_the_window_size() -> None:
    assert default_scale((1280, 800)) == 1.0
    assert default_scale((1600, 1000)) == 1.25
    assert default_scale((3840, 2160)) == 2.5  # kept in its bounds
    assert default_scale((640, 400)) == 0.75
    # Body text about 14-15 px high at 1600×1000 (11-12 px at scale 1 made the issue).
    pygame.font.init()
    assert 14 <= pygame.font.Font(None, Metrics(1.25).font).get_height() <= 16
    assert default_window([(1920, 1080)]) == (1468, 918)
    assert default_window([(1366, 768)]) == (1043, 652)
    assert default_window([]) == (1400, 860)


def test_the_option_is_refused_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    reason = scale_refusal(3.0)
    assert reason == (
        "the UI scale must be between 0.75 and 2.5 (1 is the design size, 1.5 half as large "
        "again); 3 is outside"
    )
    for argv in (
        ["play", str(CLIFF), "--ui-scale", "3"],
        ["replay", "no_such.save.json", "--ui-scale", "3"],
        ["edit", str(CLIFF), "--ui-scale", "3"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == f"sim {argv[0]}: --ui-scale 3: {reason}\n"
    assert main(["play", str(CLIFF), "--ui-scale", "0.5"]) == 2
    assert "0.5 is outside" in capsys.readouterr().err
    assert main(["play", str(CLIFF), "--ui-scale", "big"]) == 2
    assert capsys.readouterr().err == (
        "sim play: --ui-scale takes a number such as 1.25, not 'big'\n"
    )
    assert main(["play", str(CLIFF), "--ui-scale", "nan"]) == 2
    assert "finite" in capsys.readouterr().err


def test_screenshots_at_two_scales(shots: Path) -> None:
    """Pictures to look at: cliff_fort at 1600×1000 at the default scale and at 2."""
    for scale in (None, 2.0):
        app, p = opened((1600, 1000), scale, shots)
        path = p.shot(f"cliff_fort_scale_{app.renderer.m.scale:g}")
        assert path.stat().st_size > 10_000


def test_the_replay_viewer_and_the_editor_take_the_scale(kept: Path, shots: Path) -> None:
    """`sim replay` and `sim edit` pass --ui-scale on: the viewer is the client at that scale,
    the editor's panel and status lines grow with it, and its play-test keeps it."""
    viewer = Viewer(open_save(kept), (1280, 800), scale=1.5)
    assert viewer.renderer.m.scale == 1.5
    pygame.image.save(viewer.frame(), str(shots / "replay_at_1.5.png"))
    plain = Editor(mapedit.open_file(str(CLIFF)), (1600, 1000), scale=1.0)
    large = Editor(mapedit.open_file(str(CLIFF)), (1600, 1000), scale=1.5)
    assert large.board().width < plain.board().width
    assert large.board().height < plain.board().height
    assert large.panel_width == 540 and plain.panel_width == 360
    pygame.image.save(large.frame(), str(shots / "editor_at_1.5.png"))
    large.start_playtest(ai=False)
    assert large.playtest is not None and large.playtest.renderer.m.scale == 1.5
    # Without a scale the editor follows its window's size, as the client does.
    assert Editor(mapedit.open_file(str(CLIFF)), (1600, 1000)).m.scale == 1.25


def test_the_option_reaches_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sim play --ui-scale 1.5` opens the client at 1.5; without it the scale is left to the
    window's size (None)."""
    import sim.ui.input.app

    monkeypatch.setattr(sim.ui.input.app, "display_problem", lambda: None)
    scales: list[float | None] = []
    monkeypatch.setattr(
        "sim.cli.main._window",
        lambda session, offer=None, ai=None, scale=None: scales.append(scale) or 0,
    )
    assert main(["play", str(CLIFF), "--ui-scale", "1.5"]) == 0
    assert main(["play", str(CLIFF)]) == 0
    assert scales == [1.5, None]


@pytest.mark.parametrize("size", [(1280, 800), (1400, 860), (1920, 1080)])
@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0])
def test_every_action_button_fits_the_bar(size: tuple[int, int], scale: float, shots: Path) -> None:
    """At every standard window size and scale each toggle and each action button is drawn
    (none left out for want of room), inside the bar and the window, none on another."""
    app, p = opened(size, scale, shots)
    app.frame()
    hits = app.renderer.hits.items
    actions = [(v, r) for r, k, v in hits if k == "action"]
    toggles = [(v, r) for r, k, v in hits if k == "toggle"]
    assert [v for v, _ in actions] == [e.name for e in app.renderer.bar.entries]
    assert len(toggles) == 11
    bar = app.renderer.layout(size).bar
    window = app.surface.get_rect()
    buttons = actions + toggles
    assert all(bar.contains(r) and window.contains(r) for _, r in buttons), [
        v for v, r in buttons if not bar.contains(r)
    ]
    assert not overlaps(buttons)
    assert "need a taller window" not in app.renderer.bar_status
    if scale == 2.0 and size == (1280, 800):
        p.shot("bar_at_2_in_1280x800")


@pytest.mark.parametrize("resized", [(1700, 1000), (1600, 1100)], ids=["wider", "taller"])
def test_a_panel_moved_by_a_resize_keeps_its_clicks_where_it_is_drawn(
    resized: tuple[int, int], shots: Path
) -> None:
    """A window made wider moves the sidebar without changing its width, a taller one moves
    the action bar down: their kept pictures are drawn where the panels are now, and so are the
    places a click finds (the initiative's creatures, the bar's buttons)."""
    app, _ = opened((1600, 1000), 1.25, shots)
    app.frame()
    before = app.renderer.layout((1600, 1000))
    app.surface = pygame.Surface(resized)
    app.frame()
    lay = app.renderer.layout(resized)
    moved = (lay.sidebar, before.sidebar) if resized[0] > 1600 else (lay.bar, before.bar)
    assert moved[0].size == moved[1].size and moved[0].topleft != moved[1].topleft
    hits = app.renderer.hits.items
    units = [r for r, k, _ in hits if k == "unit"]
    buttons = [r for r, k, _ in hits if k == "action"]
    assert units and buttons
    assert all(lay.sidebar.contains(r) for r in units), (lay.sidebar, units)
    assert all(lay.bar.contains(r) for r in buttons), (lay.bar, buttons[:3])
