"""`uxbench estimate`: before a run, how many calls and about how many tokens a task takes on
the chosen data, and what that costs at given prices.

The records are loaded as the task loads them and each prompt is rendered as the run renders it;
tokens are counted with OpenAI's o200k_base tokenizer (the ranks bundled with UXBench, offline).
It is an estimate: another model's tokenizer counts differently (often 10–30 % more for Chinese
text), and the replies' length is a guess (`--reply-tokens`). Prices are dollars per million
tokens, in the shape of Inspect's `--model-cost-config` file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from uxbench.runtime.errors import DataError
from uxbench.runtime.prices import Price, price_of, read_prices

TASKS = ("task1_judge", "task2_eval", "task3_recovery")
JUDGE_TOKENS = 8  # Task 1's verdict (the default prompt asks for one label)
GRADER_TOKENS = 4  # the GRM's max_tokens (§5)


@dataclass
class Role:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def cost(self, price: Price | None) -> float | None:
        return None if price is None else price.cost(self.input_tokens, self.output_tokens)


def estimate_task(
    task: str, data: str, limit: int | None, reply_tokens: int, baseline: bool
) -> dict[str, Role]:
    """Calls and tokens per role for `task` on `data` (its first `limit` records)."""
    import tiktoken

    from uxbench.data.records import ROLES, Turn
    from uxbench.data.templates import load_template, template_path
    from uxbench.runtime.offline import ensure_tiktoken_cache
    from uxbench.scorers.grm import DEFAULT_TEMPLATE, Rung, render, split_question
    from uxbench.tasks import task1_judge, task2_eval, task3_recovery

    ensure_tiktoken_cache()
    encoding = tiktoken.get_encoding("o200k_base")
    count = len
    built = {"task1_judge": task1_judge, "task2_eval": task2_eval, "task3_recovery": task3_recovery}[task](
        data=data
    )
    samples = list(built.dataset)[:limit]
    template = load_template(template_path(DEFAULT_TEMPLATE))
    model, grader = Role(), Role()
    for sample in samples:
        messages = [sample.input] if isinstance(sample.input, str) else [m.text for m in sample.input]
        model.calls += 1
        model.input_tokens += sum(count(encoding.encode(text, disallowed_special=())) for text in messages)
        model.output_tokens += JUDGE_TOKENS if task == "task1_judge" else reply_tokens
        if task == "task1_judge":
            continue
        turns = tuple(
            Turn(m.role, m.text)
            for m in ([] if isinstance(sample.input, str) else sample.input)
            if m.role in ROLES
        )
        context, query = split_question(turns)
        prompt = render(template, context, query, "", Rung())
        gradings = 2 if baseline and task == "task3_recovery" else 1
        grader.calls += gradings
        grader.input_tokens += gradings * (
            count(encoding.encode(prompt, disallowed_special=())) + reply_tokens
        )
        grader.output_tokens += gradings * GRADER_TOKENS
    return {"model": model, "grader": grader, "records": Role(calls=len(samples))}


@click.command(name="estimate")
@click.argument("task", type=click.Choice(TASKS))
@click.option("--data", default="hub", help="The task's data (as -T data=): hub, sample or a directory.")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N records.")
@click.option("--reply-tokens", type=click.IntRange(0), default=300, show_default=True,
              help="Assumed tokens per reply of the model under test (Tasks 2/3).")  # fmt: skip
@click.option("--baseline", is_flag=True, help="Task 3 with -T baseline=true (two gradings per record).")
@click.option("--model", default=None, help="The model under test's name in the price file.")
@click.option("--grader", default=None, help="The grader's name in the price file.")
@click.option("--prices", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="YAML/JSON as --model-cost-config: model: {input: $/M tokens, output: $/M}.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def estimate(
    task: str,
    data: str,
    limit: int | None,
    reply_tokens: int,
    baseline: bool,
    model: str | None,
    grader: str | None,
    prices: Path | None,
    as_json: bool,
) -> None:
    """Estimate the calls, tokens and cost of TASK on the chosen data.

    Tokens are counted with o200k_base: an estimate for other tokenizers.
    """
    table = {} if prices is None else read_prices(prices)
    for name in (model, grader):
        if name is not None and prices is not None and price_of(table, name) is None:
            raise DataError(f"{prices}: no price for {name}")
    roles = estimate_task(task, data, limit, reply_tokens, baseline)
    records = roles.pop("records").calls
    names = {"model": model, "grader": grader}
    out: dict[str, Any] = {"task": task, "records": records, "tokenizer": "o200k_base (estimate)"}
    for role, usage in roles.items():
        name = names[role]
        cost = usage.cost(None if name is None else price_of(table, name))
        out[role] = {"calls": usage.calls, "input_tokens": usage.input_tokens,
                     "output_tokens": usage.output_tokens, "cost": cost}  # fmt: skip
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{task}: {records:,} records; tokens counted with o200k_base (an estimate)")
    for role in ("model", "grader"):
        r = out[role]
        cost = "no price given" if r["cost"] is None else f"${r['cost']:,.2f}"
        click.echo(f"  {role}: {r['calls']:,} calls, {r['input_tokens']:,} input + "
                   f"{r['output_tokens']:,} output tokens, {cost}")  # fmt: skip
