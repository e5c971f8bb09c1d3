"""The `@task`s users run: thin wiring of dataset, solver and scorer with every knob a typed task
parameter, the solvers they share, and the listing (`eval.yaml`) that versions them.

May import: every lower concern (`runtime`, `stats`, `data`, `grading`, `judge`, `graders`,
`scorers`); never `report`, `pipeline`, `web` or `providers`.
"""
