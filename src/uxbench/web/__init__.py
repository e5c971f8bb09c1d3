"""Local web pages for people in the loop: the blind judging page of `uxbench/human` and the
data explorer of `uxbench explore`. Small Starlette apps, served by uvicorn to this machine
only, with plain HTML/CSS/JS under `static/` (no CDN: they work offline)."""

__all__: list[
    str
] = []  # no Python API: the pages are reached through `uxbench explore` and `--model uxbench/human`
