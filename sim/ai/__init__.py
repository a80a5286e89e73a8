"""The AI opponent: a policy that plays any side through `pending` and `submit`, as a person
would, choosing among the legal decisions by the exact odds. It reads play and rules; nothing
below it knows it exists.

It is built as Battle for Wesnoth's candidate actions are: each kind of decision of the action
registry (sim/play/rulebook.py, `Mechanic.evaluator`) has an evaluator that gives each legal
decision of that kind a value in hit points' worth, from the exact odds (sim/play/odds.py) and
the threat maps, and the chooser takes the best. Every choice carries a reason in words, for
the log ("attacks grok: 72 % to hit, 5.1 damage expected"). Deterministic for a given seed: its
only dice are its own seeded ones. It decides from what its side can see (`sight`).

Levels (`levels`): `random` (uniform over the legal decisions, a baseline), `easy` (greedy on
damage, blind to threats, cheap: `greedy`), `normal` (every evaluator) and `hard` (normal's
best candidates played out on forks of the battle: `lookahead`), and `classic` (`normal`
as it was before issue #29, the baseline bench/ai.py measures against). A level is a policy,
a weight set and a search effort, all in sim/data/ai.toml.

Modules, by role:
- `levels`, `weights`: the levels, the round cap of a game AIs play, and sim/data/ai.toml read;
- `seats`: which sides the AI plays and the loop that plays them (`players`, `play`);
- `sight`: the battle as the AI's side knows it, the only one it reads: the creatures hidden
  from the whole side where it last saw them, no foe's waiting plan, no dice to come;
- `choice`: a decision and its reason;
- `chooser`: the policy `AI`, `rank` and `score` of the legal decisions;
- `context`: what the evaluators read of one creature's turn (threat, menace, reach, damage);
- `evaluators/`: one small module per kind or family of decision, and the table `EVALUATORS`;
- `reactions`: the AI's answers to its own reaction windows;
- `greedy`: `easy`'s turn;
- `lookahead`, `luck`, `prospect`: `hard`'s play-outs, the luck taken out of them, and how a
  side stands at their end.
"""
