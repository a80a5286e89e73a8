"""Reach maps: every cell a creature can reach with one Movement Action, what it costs and the
cheapest path (R-M1..R-M9). One engine for the rules check, the UI and the AI.

Costs are whole half-metres, so a reach map is a shortest-path field computed by repeated
numpy relaxation over a window around the creature (no per-cell Python in the hot path).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sim.footing import (
    BLOCKED,
    DIRECTIONS,
    Fields,
    Gait,
    Mover,
    Window,
    cost_fields,
    window_around,
)
from sim.geometry import Pos
from sim.grid import Kind
from sim.jump import JumpReach
from sim.world import World

INF = np.int32(BLOCKED)
Int = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class JumpEdges:
    """Jumps that beat walking the same line: flat window indices, cost and run-up needed."""

    src: npt.NDArray[np.intp]
    dst: npt.NDArray[np.intp]
    cost: Int
    runup: Int

    @staticmethod
    def none() -> JumpEdges:
        empty = np.zeros(0, dtype=np.intp)
        return JumpEdges(empty, empty, np.zeros(0, np.int32), np.zeros(0, np.int32))


def _runup_for_height(needed: Int, jr: JumpReach) -> Int:
    """Vectorised JumpReach.runup_for_height (INF where too high)."""
    extra = np.maximum(needed - jr.standing_height, 0)
    steps = -(-extra // 2)
    out = steps * jr.height_per_runup
    return np.where(steps * 2 <= jr.extra_height_cap, out, INF).astype(np.int32)


def jump_edges(
    world: World, m: Mover, jr: JumpReach, f: Fields, *, max_runup: int, only_from: Pos | None
) -> JumpEdges:
    """Every jump of the window that is cheaper than walking its line (vectorised `plan_jump`)."""
    win = f.window
    hh, ww = win.shape
    kind, height, water, obstacle = f.kind, f.height, f.water, f.obstacle
    wall, pit = int(Kind.WALL), int(Kind.PIT)
    difficult, enemy = f.difficult, f.enemy
    landable = (kind != wall) & (kind != pit) & (water <= m.height_half) & ~f.standing
    max_cells = jr.max_length // m.orthogonal
    srcs, dsts, costs, runups = [], [], [], []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        per = m.diagonal if dx and dy else m.orthogonal
        clearance = np.full((hh, ww), -(10**6), dtype=np.int32)
        blocked_between = np.zeros((hh, ww), dtype=bool)
        walk = np.zeros((hh, ww), dtype=np.int64)
        for k in range(1, max_cells + 1):
            length = per * k
            need_len = jr.runup_for_length(length)
            if need_len is None or need_len > max_runup:
                break
            # Source cells a = (y, x) whose landing b = a + k*(dx, dy) is inside the window.
            ya0, ya1 = max(0, -dy * k), hh - max(0, dy * k)
            xa0, xa1 = max(0, -dx * k), ww - max(0, dx * k)
            if ya0 >= ya1 or xa0 >= xa1:
                break
            a_sl = (slice(ya0, ya1), slice(xa0, xa1))
            b_sl = (slice(ya0 + dy * k, ya1 + dy * k), slice(xa0 + dx * k, xa1 + dx * k))
            # The walking cost of the same line, step by step (to keep only useful jumps).
            step_cost = f.cost[d][b_sl]
            walk_k = walk[a_sl] + step_cost
            if k > 1:
                # Cell k-1 along the line becomes an intermediate cell of this jump.
                c_sl = (
                    slice(ya0 + dy * (k - 1), ya1 + dy * (k - 1)),
                    slice(xa0 + dx * (k - 1), xa1 + dx * (k - 1)),
                )
                ck = kind[c_sl]
                blocked_between[a_sl] |= (ck == wall) | enemy[c_sl]
                rise_c = np.where(ck == pit, -(10**6), height[c_sl] - height[a_sl] + obstacle[c_sl])
                clearance[a_sl] = np.maximum(clearance[a_sl], rise_c)
            if dx and dy:
                # R-U3: the diagonal from cell k-1 to cell k may not cut a wall's corner.
                corner_x = (
                    slice(ya0 + dy * (k - 1), ya1 + dy * (k - 1)),
                    slice(xa0 + dx * k, xa1 + dx * k),
                )
                corner_y = (
                    slice(ya0 + dy * k, ya1 + dy * k),
                    slice(xa0 + dx * (k - 1), xa1 + dx * (k - 1)),
                )
                blocked_between[a_sl] |= (kind[corner_x] == wall) | (kind[corner_y] == wall)
            rise = height[b_sl] - height[a_sl]
            landing = np.maximum(rise, 0) + obstacle[b_sl]
            need_clear = _runup_for_height(np.maximum(clearance[a_sl], 0), jr)
            need_land = _runup_for_height(landing, jr)
            grab = _runup_for_height(np.ceil(landing - jr.grab_height).astype(np.int32), jr)
            need_land = np.where(rise > 0, np.minimum(need_land, grab), need_land)
            runup = np.maximum(np.maximum(need_clear, need_land), need_len)
            factor = np.where(difficult[a_sl] | difficult[b_sl], m.difficult_factor, 1)
            cost = (length * factor).astype(np.int32)
            ok = (
                landable[b_sl]
                & ~blocked_between[a_sl]
                & (-rise <= m.height_half)
                & (runup <= max_runup)
                & (cost < walk_k)
            )
            walk[a_sl] = np.minimum(walk_k, int(INF))
            if only_from is not None:
                ly, lx = win.local(only_from)
                keep = np.zeros_like(ok)
                if ya0 <= ly < ya1 and xa0 <= lx < xa1:
                    keep[ly - ya0, lx - xa0] = True
                ok &= keep
            ys, xs = np.nonzero(ok)
            if len(ys) == 0:
                continue
            ay, ax = ys + ya0, xs + xa0
            srcs.append(ay * ww + ax)
            dsts.append((ay + dy * k) * ww + (ax + dx * k))
            costs.append(cost[ys, xs])
            runups.append(runup[ys, xs])
    if not srcs:
        return JumpEdges.none()
    return JumpEdges(
        np.concatenate(srcs),
        np.concatenate(dsts),
        np.concatenate(costs).astype(np.int32),
        np.concatenate(runups).astype(np.int32),
    )


@dataclass(frozen=True, slots=True)
class Field:
    """Least cost (half-metres) from `start` to every window cell within `limit`; INF elsewhere."""

    start: Pos
    limit: int
    fields: Fields
    jumps: JumpEdges
    dist: Int

    @property
    def window(self) -> Window:
        return self.fields.window

    def cost(self, pos: Pos) -> int | None:
        win = self.window
        if not (win.x0 <= pos.x < win.x1 and win.y0 <= pos.y < win.y1):
            return None
        value = int(self.dist[pos.y - win.y0, pos.x - win.x0])
        return None if value >= INF else value

    def can_end(self, pos: Pos) -> bool:
        y, x = self.window.local(pos)
        return bool(self.fields.can_end[y, x])

    def ends(self) -> list[tuple[Pos, int]]:
        """Every cell a move may end in, with its cost, in row order (start excluded)."""
        ok = (self.dist < INF) & self.fields.can_end
        ys, xs = np.nonzero(ok)
        out = []
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            pos = self.window.world_pos(y, x)
            if pos != self.start:
                out.append((pos, int(self.dist[y, x])))
        return out

    def path_to(self, target: Pos) -> tuple[tuple[Pos, bool], ...]:
        """The cheapest path from the start (excluded) to `target`: (cell, entered by a jump)."""
        win = self.window
        hh, ww = win.shape
        dist = self.dist
        y, x = win.local(target)
        if dist[y, x] >= INF:
            raise ValueError(f"{target} is not reachable")
        steps: list[tuple[Pos, bool]] = []
        while (y, x) != win.local(self.start):
            here = int(dist[y, x])
            found = False
            for d, (dx, dy) in enumerate(DIRECTIONS):
                py, px = y - dy, x - dx
                if (
                    0 <= py < hh
                    and 0 <= px < ww
                    and dist[py, px] < INF
                    and int(dist[py, px]) + int(self.fields.cost[d, y, x]) == here
                ):
                    steps.append((win.world_pos(y, x), False))
                    y, x = py, px
                    found = True
                    break
            if not found:
                flat = y * ww + x
                for i in np.nonzero(self.jumps.dst == flat)[0].tolist():
                    src = int(self.jumps.src[i])
                    sy, sx = divmod(src, ww)
                    prev = int(dist[sy, sx])
                    if (
                        int(self.jumps.runup[i]) <= prev < INF
                        and prev + int(self.jumps.cost[i]) == here
                    ):
                        steps.append((win.world_pos(y, x), True))
                        y, x = sy, sx
                        found = True
                        break
            if not found:  # pragma: no cover - the field is a fixpoint, so a predecessor exists
                raise AssertionError(f"no predecessor for {win.world_pos(y, x)}")
        return tuple(reversed(steps))


def relax(fields: Fields, jumps: JumpEdges, start: Pos, limit: int) -> Int:
    """The least cost to every window cell: sweeps to a fixpoint, then a check that every jump
    it used still has its run-up in the final field (R-M6); jumps that do not are dropped and
    the field is made again."""
    while True:
        dist = _converge(fields, jumps, start, limit)
        if len(jumps.src) == 0:
            return dist
        valid = dist.reshape(-1)[jumps.src] >= jumps.runup
        if valid.all() or _explained(fields, jumps, valid, dist, start, limit):
            return dist
        jumps = JumpEdges(jumps.src[valid], jumps.dst[valid], jumps.cost[valid], jumps.runup[valid])


def _converge(fields: Fields, jumps: JumpEdges, start: Pos, limit: int) -> Int:
    """Bellman-Ford style sweeps of the 8 shifted cost fields until nothing improves. Each sweep
    only touches the box around the cells that changed in the last one (the wavefront)."""
    win = fields.window
    hh, ww = win.shape
    padded = np.full((hh + 2, ww + 2), INF, dtype=np.int32)
    inner = padded[1:-1, 1:-1]
    sy, sx = win.local(start)
    inner[sy, sx] = 0
    cost = fields.cost
    has_jumps = len(jumps.src) > 0
    if has_jumps:
        jy, jx = np.divmod(jumps.dst, ww)
    y0, y1, x0, x1 = sy, sy + 1, sx, sx + 1  # the box of cells that changed
    while True:
        ry0, ry1, rx0, rx1 = max(0, y0 - 1), min(hh, y1 + 1), max(0, x0 - 1), min(ww, x1 + 1)
        sub = inner[ry0:ry1, rx0:rx1]
        before = sub.copy()
        candidate = np.empty_like(sub)
        for d, (dx, dy) in enumerate(DIRECTIONS):
            shifted = padded[ry0 + 1 - dy : ry1 + 1 - dy, rx0 + 1 - dx : rx1 + 1 - dx]
            np.add(shifted, cost[d, ry0:ry1, rx0:rx1], out=candidate)
            np.minimum(sub, candidate, out=sub)
        sub[sub > limit] = INF
        changed = sub != before
        ys, xs = np.nonzero(changed)
        boxes = []
        if len(ys):
            boxes.append((ry0 + ys.min(), ry0 + ys.max() + 1, rx0 + xs.min(), rx0 + xs.max() + 1))
        if has_jumps:
            flat = inner.reshape(-1) if inner.flags.c_contiguous else inner.ravel()
            base = flat[jumps.src]
            ok = (base < INF) & (base >= jumps.runup)
            candidate_j = base + jumps.cost
            better = ok & (candidate_j < inner[jy, jx]) & (candidate_j <= limit)
            if better.any():
                current = inner.copy().reshape(-1)
                np.minimum.at(current, jumps.dst[better], candidate_j[better])
                inner[...] = current.reshape(hh, ww)
                by, bx = jy[better], jx[better]
                boxes.append((by.min(), by.max() + 1, bx.min(), bx.max() + 1))
        if not boxes:
            return inner.copy()
        y0 = min(b[0] for b in boxes)
        y1 = max(b[1] for b in boxes)
        x0 = min(b[2] for b in boxes)
        x1 = max(b[3] for b in boxes)


def _explained(
    fields: Fields,
    jumps: JumpEdges,
    valid: npt.NDArray[np.bool_],
    dist: Int,
    start: Pos,
    limit: int,
) -> bool:
    """Whether every cell's cost comes from a step or a jump that is valid in this field."""
    win = fields.window
    hh, ww = win.shape
    padded = np.full((hh + 2, ww + 2), INF, dtype=np.int32)
    padded[1:-1, 1:-1] = dist
    best = np.full((hh, ww), INF, dtype=np.int64)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        shifted = padded[1 - dy : hh + 1 - dy, 1 - dx : ww + 1 - dx]
        np.minimum(best, shifted.astype(np.int64) + fields.cost[d], out=best)
    flat = best.reshape(-1)
    base = dist.reshape(-1)[jumps.src]
    use = valid & (base < INF)
    np.minimum.at(flat, jumps.dst[use], base[use].astype(np.int64) + jumps.cost[use])
    best[best > limit] = INF
    sy, sx = win.local(start)
    best[sy, sx] = 0
    return bool(np.array_equal(best, dist))


def distance_field(
    world: World,
    m: Mover,
    gait: Gait,
    start: Pos,
    limit: int,
    jr: JumpReach | None = None,
) -> Field:
    """The reach of one Movement Action with `limit` half-metres (jumps folded in if `jr`)."""
    radius = limit // m.orthogonal + 1
    win = window_around(world, start, radius)
    fields = cost_fields(world, m, gait, win)
    jumps = (
        jump_edges(world, m, jr, fields, max_runup=limit, only_from=None)
        if jr is not None and gait is Gait.STRIDE
        else JumpEdges.none()
    )
    return Field(start, limit, fields, jumps, relax(fields, jumps, start, limit))
