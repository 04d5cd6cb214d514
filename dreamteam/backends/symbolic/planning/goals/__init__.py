"""Sub-goals the inductive explorer derives from evidence, each with a test on a predicted grid.

Split along its concerns: `gathering` (evidence from the window), `recall` (memory beyond it), `checks` (goal
tests), `distance` (estimates for best-first search), `derivation` (the loop over the goal families that are
on) and the catalogue of goal families (`catalogue`, `objects`; registered in `families.GOAL_FAMILIES`).
The families, in order:

- `level_up`: a rollout predicts the event "level_up".
- `repeat-level-up:colourK`: a mover enters colour K, as that mover did right before a level-up (priority 2
  once that mover was seen entering K in a step that completed no level: not enough by itself).
- `repeat-level-up-all:colourK`: every mover stands on colour K at once (K entered before a level-up),
  with what lies under the movers read from the level start; for levels that need all of several
  movers on their goals.
- `repeat-level-up-each:colourK`: every object of the colours that entered K right before a level-up
  stands on K at once (all blocks on targets, the player anywhere). With several such objects, one of
  them entering K (`repeat-level-up`) is then no longer taken to complete the level (priority 2), though
  it is still tried when all at once cannot be reached, and then asks for one more of them on K than now
  (taking one off and putting it back is no progress).
- `cover:colourK` (no level-up on K yet): every pushed object that shows a tint on K stands on K at once
  (a first level that already asks for several blocks on their targets).
- `repeat-level-up-after:colourK`: the colours that had left all their level-start cells right before every
  level-up seen (things picked up: a key, a spark) are gone, and the last move took a mover into or
  against colour K, which it entered (or, sliding, ran into) right before a level-up; the single `repeat-level-up` is then
  priority 2. For doors that open only to a mover that carries something. When what was picked up was
  seen coming back by itself, the goal carries a `Lapse` (how many actions it lasts) for the search.
- `enter:colourK`: a mover enters colour K that this mover has never entered (touch what has not been
  touched); tracked per mover, so a pushed block still has a goal where only the player has been.
- `touch:colourK:shape:...`: a mover moves into or against a small object of a class (colour and shape)
  never touched, of a colour seen stopping a mover (a key or switch drawn in a door's colour).
- `holding:colourX:colourK` (before any level-up): take X (a small colour a mover entered) off the level,
  then run into K (a small colour that stopped a mover, never while X was taken): a door for carriers.
- `together:colourK`: every mover stands on colour K at once, where each mover has entered K on its own,
  no level-up on K has been seen and the movers never stood on K all together (before a first level-up:
  goals that need several movers on them at the same time).
- `frontier`: a mover stands where it has never stood (explore).
Movers are the colours seen moving rigidly in recent transitions. With tints learned by the world model
(`tints`: (colour, under, shown) triples, a block that shows another colour on a target) a colour and the
colours it shows are one mover, and a tinted cell counts as the colour under it.
"""

from __future__ import annotations

from dreamteam.backends.symbolic.planning.goals.checks import Lapse, SubGoal, Test
from dreamteam.backends.symbolic.planning.goals.derivation import (
    GoalContext,
    click_goals,
    derive,
    goal_context,
)
from dreamteam.backends.symbolic.planning.goals.distance import walk_fields
from dreamteam.backends.symbolic.planning.goals.gathering import MIN_MOVES, Evidence, gather
from dreamteam.backends.symbolic.planning.goals.grids import ObjectClass, Tint, object_class
from dreamteam.backends.symbolic.planning.goals.recall import LevelStarts, Recall

__all__ = [
    "MIN_MOVES",
    "Evidence",
    "GoalContext",
    "Lapse",
    "LevelStarts",
    "ObjectClass",
    "Recall",
    "SubGoal",
    "Test",
    "Tint",
    "click_goals",
    "derive",
    "gather",
    "goal_context",
    "object_class",
    "walk_fields",
]
