"""Running the stages: the resumable runner, agent stages in chunks, executors (in process,
worker processes, Ray), manifests, the model and per-stage settings, the dry-run stand-in
model, and the drivers of the deterministic stages. May import: the rooms before it.
"""
