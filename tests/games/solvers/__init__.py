"""Reference solvers for the bundled games: one module per game base id, each with `solve_level`."""
