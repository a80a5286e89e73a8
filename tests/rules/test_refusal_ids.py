"""Issue #34: every refusal names its rule id, so a player can go from the words to the rule.

Read from the source, not from play: every `Refusal(...)` the code builds, and every string a
helper it is built from can return (`step_problem`, `plan_jump`...), followed through local
names and the helpers they come from, must carry an id (`R-M6`) in each string it can be. A
new refusal without one fails here with its file and line, whether or not a test reaches it.

What a reason can be is found as follows: a string or f-string carries an id if its text does
or one of its `{...}` parts always does; `a + b` if either does; `a if c else b` if both do; a
name if every value assigned to it in the function does; a call to a function of `sim` if every
string it returns does (a constructor, `tuple(...)` or None is no string and is passed over).
Anything else (an attribute, a `str.join`) is not known to, and fails.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[2] / "sim"
RULE_ID = re.compile(r"R-[A-Z]{1,2}\d+")

# The client wraps what is not the engine's refusal in one to show it; no rule is behind these.
NOT_RULES = {
    ("sim/ui/model/actionbar.py", "judge"): "a script line that does not parse (DecisionError)",
    ("sim/ui/input/orders.py", "commit"): "a held-ready line that does not parse",
    ("sim/ui/words/underway.py", "_moving"): "a blank stand-in when replanning a move failed",
}
NOT_STRINGS = frozenset({"tuple", "list", "dict", "set", "frozenset", "int", "float", "bool"})


class Verdict(Enum):
    """What an expression can be: a string with an id, one without (or not known to have
    one), or no string at all."""

    ID = "id"
    NO_ID = "no id"
    NOT_STRING = "not a string"


def _combine(verdicts: list[Verdict]) -> Verdict:
    """Every value a name or a function can give: all with an id, or the first that is not."""
    strings = [v for v in verdicts if v is not Verdict.NOT_STRING]
    if not strings:
        return Verdict.NOT_STRING
    return Verdict.ID if all(v is Verdict.ID for v in strings) else Verdict.NO_ID


@dataclass
class Module:
    path: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)  # name: (module, name)
    constants: dict[str, ast.expr] = field(default_factory=dict)


def _modules() -> dict[str, Module]:
    """Every module of sim/ by its dotted name, with its top-level functions, constants and
    the names it imports from sim."""
    out: dict[str, Module] = {}
    for file in sorted(SIM.rglob("*.py")):
        rel = file.relative_to(SIM.parent)
        dotted = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(file.read_text(encoding="utf-8"))
        module = Module(rel.as_posix(), tree)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                module.functions[node.name] = node
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sim"):
                for alias in node.names:
                    module.imported[alias.asname or alias.name] = (node.module or "", alias.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        module.constants[target.id] = node.value
        out[dotted] = module
    return out


def _own_nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of `function`'s own body, not of the functions and lambdas defined in it."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                todo.append(child)
    return out


Site = tuple[str, ast.FunctionDef]  # a module's dotted name and one of its functions


@dataclass
class Reasons:
    modules: dict[str, Module]
    judged: dict[tuple[str, str], Verdict] = field(default_factory=dict)
    params: dict[tuple[str, str, str], Verdict] = field(default_factory=dict)
    bare: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    calls: list[tuple[str, ast.FunctionDef, ast.Call]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for dotted, module in self.modules.items():
            for node in ast.walk(module.tree):
                if isinstance(node, ast.FunctionDef):
                    for inner in _own_nodes(node):
                        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                            self.calls.append((dotted, node, inner))

    def function(self, module: str, name: str) -> Site | None:
        """The function `name` means in `module`: its own, or the one it imports from sim."""
        here = self.modules[module]
        if name in here.functions:
            return module, here.functions[name]
        if name in here.imported:
            source, original = here.imported[name]
            if source in self.modules:
                return self.function(source, original)
        return None

    def returns(self, module: str, function: ast.FunctionDef, out: list[str]) -> Verdict:
        """Whether every string `function` returns carries an id; the strings that do not go
        to `out`."""
        key = (module, function.name)
        if key not in self.judged:
            self.judged[key] = Verdict.ID  # a helper that recurses: judged by its other returns
            bare: list[str] = []
            values = [
                node.value
                for node in _own_nodes(function)
                if isinstance(node, ast.Return) and node.value is not None
            ]
            self.judged[key] = _combine([self.verdict(v, module, function, bare) for v in values])
            self.bare[key] = bare
        out += self.bare[key]
        return self.judged[key]

    def argument(
        self, module: str, function: ast.FunctionDef, name: str, out: list[str]
    ) -> Verdict:
        """A parameter's every value: its default, and what each call in sim passes for it."""
        key = (module, function.name, name)
        if key in self.params:
            return self.params[key]
        self.params[key] = Verdict.ID  # passed on through a call to itself: judged by the rest
        args = function.args
        positional = [a.arg for a in (*args.posonlyargs, *args.args)]
        defaults = dict(
            zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
        )
        defaults |= {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
        verdicts = []
        if name in defaults:
            verdicts.append(self.verdict(defaults[name], module, None, out))
        for caller_module, caller, call in self.calls:
            if self.function(caller_module, call.func.id) != (module, function):  # type: ignore[attr-defined]
                continue
            given = [k.value for k in call.keywords if k.arg == name]
            if name in positional and positional.index(name) < len(call.args):
                given.append(call.args[positional.index(name)])
            verdicts += [self.verdict(g, caller_module, caller, out) for g in given]
        self.params[key] = _combine(verdicts) if verdicts else Verdict.NO_ID
        return self.params[key]

    def verdict(
        self, expr: ast.expr, module: str, function: ast.FunctionDef | None, out: list[str]
    ) -> Verdict:
        """Whether every string `expr` can evaluate to in `function` carries a rule id; the
        strings found without one go to `out` ("path:line: text")."""
        where = f"{self.modules[module].path}:{getattr(expr, 'lineno', '?')}"
        if isinstance(expr, ast.Constant):
            if not isinstance(expr.value, str):
                return Verdict.NOT_STRING
            if RULE_ID.search(expr.value):
                return Verdict.ID
            out.append(f"{where}: {expr.value!r}")
            return Verdict.NO_ID
        if isinstance(expr, ast.JoinedStr):
            text = "".join(
                part.value
                for part in expr.values
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            if RULE_ID.search(text):
                return Verdict.ID
            parts = [p.value for p in expr.values if isinstance(p, ast.FormattedValue)]
            quiet: list[str] = []  # a part without an id is no fault of its own
            if any(self.verdict(p, module, function, quiet) is Verdict.ID for p in parts):
                return Verdict.ID
            out.append(f"{where}: {ast.unparse(expr)}")
            return Verdict.NO_ID
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            quiet = []
            sides = [
                self.verdict(side, module, function, quiet) for side in (expr.left, expr.right)
            ]
            if Verdict.ID in sides:
                return Verdict.ID
            out.append(f"{where}: {ast.unparse(expr)}")
            return Verdict.NO_ID
        if isinstance(expr, ast.IfExp):
            branches = (expr.body, expr.orelse)
            return _combine([self.verdict(b, module, function, out) for b in branches])
        if isinstance(expr, ast.Tuple | ast.List | ast.Dict | ast.Set | ast.Compare):
            return Verdict.NOT_STRING
        if isinstance(expr, ast.Name):
            return self.name(expr.id, module, function, out)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            name = expr.func.id
            if name in NOT_STRINGS or name[:1].isupper():
                return Verdict.NOT_STRING  # a constructor (Refusal, JumpPlan...) or a container
            found = self.function(module, name)
            if found is not None:
                return self.returns(*found, out)
        out.append(f"{where}: {ast.unparse(expr)} (not known to carry an id)")
        return Verdict.NO_ID

    def name(
        self, name: str, module: str, function: ast.FunctionDef | None, out: list[str]
    ) -> Verdict:
        values: list[ast.expr] = []
        if function is not None:
            for node in _own_nodes(function):
                if isinstance(node, ast.Assign):
                    if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                        values.append(node.value)
                elif (
                    isinstance(node, ast.AnnAssign | ast.NamedExpr)
                    and isinstance(node.target, ast.Name)
                    and node.target.id == name
                    and node.value is not None
                ):
                    values.append(node.value)
        if values:
            return _combine([self.verdict(v, module, function, out) for v in values])
        if function is not None and name in {
            a.arg
            for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)
        }:
            return self.argument(module, function, name, out)
        constant = self.modules[module].constants.get(name)
        if constant is not None:
            return self.verdict(constant, module, None, out)
        out.append(f"{self.modules[module].path}: {name} (not known to carry an id)")
        return Verdict.NO_ID


def _refusals(
    modules: dict[str, Module], reasons: Reasons
) -> list[tuple[str, ast.Call, str, ast.FunctionDef]]:
    """Every `Refusal(...)` call: (module, call, path, enclosing function). Read off the calls
    `reasons` found in each function's own body (walking every module again for them was a
    third of the test's time)."""
    return [
        (dotted, call, modules[dotted].path, function)
        for dotted, function, call in reasons.calls
        if isinstance(call.func, ast.Name) and call.func.id == "Refusal"
    ]


@pytest.mark.slow
def test_every_refusal_names_its_rule_id() -> None:
    modules = _modules()
    reasons = Reasons(modules)
    missing: list[str] = []
    sites = 0
    for dotted, call, path, function in _refusals(modules, reasons):
        if (path, function.name) in NOT_RULES:
            continue
        sites += 1
        args = [*call.args, *(k.value for k in call.keywords)]
        if not args:
            missing.append(f"{path}:{call.lineno} ({function.name}): Refusal() without words")
            continue
        bare: list[str] = []
        if reasons.verdict(args[0], dotted, function, bare) is not Verdict.ID:
            said = "".join(f"\n    {b}" for b in dict.fromkeys(bare))
            missing.append(f"{path}:{call.lineno} ({function.name}): {ast.unparse(args[0])}{said}")
    helpers = sorted(f"{m}.{f}" for m, f in reasons.judged)
    print(f"refusals checked: {sites}; helpers whose returns they are built from: {len(helpers)}")
    assert sites > 100  # the scan finds the refusals (about 150 when written)
    assert "sim.rules.movement.jump.plan_jump" in helpers  # and follows reasons into helpers
    assert not missing, "refusals without a rule id:\n" + "\n".join(missing)


def test_the_scan_follows_a_reason_through_names_helpers_and_parameters() -> None:
    """The checker itself: a reason built in a helper and passed through a name is followed,
    so is an id passed in as an argument, and a branch without an id is caught."""
    source = """
def problem(x):
    if x:
        return f"{x}: a wall (R-A5)"
    return None

def bare(x):
    return "no id here" if x else "(R-M1) here"

def named(x, rule):
    return f"{x}: not here ({rule})"

def check(x):
    found = problem(x)
    if found:
        return Refusal(found)
    if x > 1:
        return Refusal(named(x, "R-X2"))
    return Refusal(bare(x))
"""
    tree = ast.parse(source)
    module = Module("case.py", tree)
    module.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    reasons = Reasons({"case": module})
    check = module.functions["check"]
    calls = [
        n
        for n in _own_nodes(check)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Refusal"
    ]
    bare: list[str] = []
    verdicts = sorted(reasons.verdict(c.args[0], "case", check, bare).value for c in calls)
    assert verdicts == ["id", "id", "no id"]
    assert bare == ["case.py:8: 'no id here'"]
