"""Verdict parsing on realistic judge outputs: the template's own rules, the careful reader's fallbacks."""

import pytest

from uxbench.data.templates import Template, builtin_path, load_template
from uxbench.judge_answer.verdict import parse_verdict

ZH = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
ZH3 = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad", "neutral"))
JSON = load_template(builtin_path("judge_json_en.txt")).with_labels(("good", "bad"))
JSON3 = load_template(builtin_path("judge_json_en.txt")).with_labels(("good", "bad", "neutral"))
EN = Template(
    body="{query}\n{response}\n",
    labels={"good": ("good", "satisfied"), "bad": ("bad", "unsatisfied")},
    source="en",
)
TEMPLATES = {"zh": ZH, "zh3": ZH3, "json": JSON, "json3": JSON3, "en": EN}

# (template, judge output, label the careful reader reads, the rule recorded in `parse`)
CASES = [
    # bare answers
    ("zh", "好", "good", "exact"),
    ("zh", "差", "bad", "exact"),
    ("zh", " 好\n", "good", "exact"),
    ("zh", "差。", "bad", "exact"),
    ("zh", "“好”", "good", "exact"),
    ("zh", "【差】", "bad", "exact"),
    # markdown emphasis
    ("zh", "**好**", "good", "exact"),
    ("zh", "**差**", "bad", "exact"),
    ("zh", "`差`", "bad", "exact"),
    ("zh", "### 好", "good", "exact"),
    # invisible characters: a byte-order mark, zero-width spaces
    ("zh", "\ufeff好", "good", "exact"),
    ("zh", "\u200b差\u200b", "bad", "exact"),
    ("zh", "\u200b好的，差", "bad", "mention"),
    # trailing explanations
    ("zh", "好。回复直接给出了用户要的命令。", "good", "first_line"),
    ("zh", "差，因为回答太啰嗦，没有直接给出结论。", "bad", "first_line"),
    ("zh", "差\n\n理由：用户只要一个数字，助手写了三段背景。", "bad", "first_line"),
    ("zh", "好 —— 语气温和，也给出了具体步骤", "good", "first_line"),
    # reasoning preambles with a final answer
    ("zh", "用户想要简洁的答案，而回复绕了很多弯。\n答案：差", "bad", "marker"),
    ("zh", "分析：回复准确回答了问题，格式清晰。\n\n最终答案：好", "good", "marker"),
    ("zh", "我们先看用户的需求……回复满足了。结论是好", "good", "marker"),
    ("zh", "<think>用户问的是天气，回复给的是股票。</think>差", "bad", "exact"),
    ("zh", "<think>好的，我来分析一下。回复看起来还行，但是……</think>\n\n好", "good", "exact"),
    ("zh", "好的，我来判断一下。用户的问题很具体，回复却答非所问。\n判断：差", "bad", "marker"),
    ("zh", "Let me think. The reply ignores the constraint.\nAnswer: 差", "bad", "marker"),
    ("zh", "**答案：好**", "good", "marker"),
    ("zh", "综合来看，用户会点踩。\n\n**判断结果**：差", "bad", "marker"),
    ("zh", "Good question! The reply answers it in one line.\n答案：好", "good", "marker"),
    # JSON in the template's own spelling
    ("zh", '{"verdict": "好"}', "good", "json"),
    ("zh", '```json\n{"verdict": "差", "reason": "太长"}\n```', "bad", "json"),
    ("zh", '{"answer": "差"}', "bad", "json"),
    ("json", '{"verdict": 1}', "good", "json"),
    ("json", '{"verdict": 0}', "bad", "json"),
    ("json", '{"verdict": "1"}', "good", "json"),
    ("json", 'The user seems annoyed.\n{"verdict": 0}', "bad", "json"),
    ("json", '```json\n{"verdict": 1, "why": "concise"}\n```', "good", "json"),
    ("json", 'Either {"verdict": 1} or {"verdict": 0}; on balance {"verdict": 0}', "bad", "json"),
    ("json3", '{"verdict": 0.5}', "neutral", "json"),
    # negations
    ("zh", "不好", "bad", "mention"),
    ("zh", "这个回复不好，用户不会满意。", "bad", "mention"),
    ("zh", "回复质量不太好", "bad", "mention"),
    ("zh", "答案：不好", "bad", "marker"),
    ("zh", "不差，用户应该会满意", "good", "mention"),
    ("zh", "用户不会觉得好，回复没有给出链接。", "bad", "mention"),
    ("zh", "这个回复并不是很好", "bad", "mention"),
    ("zh", "不会太差，用户应该能接受", "good", "mention"),
    ("en", "Not good at all.", "bad", "mention"),
    ("en", "The user isn't really satisfied.", "bad", "mention"),
    ("en", "Not only good but also fast.", "good", "mention"),
    ("en", "I don't think the user would be satisfied.", "bad", "mention"),
    # standalone mentions in prose
    ("zh", "这个回复很好", "good", "mention"),
    ("zh", "回复质量差", "bad", "mention"),
    ("zh", "整体而言，用户的体验较差", "bad", "mention"),
    ("en", "Good.", "good", "exact"),
    ("en", "Verdict: BAD", "bad", "marker"),
    ("en", "The user was unsatisfied.", "bad", "mention"),
    # an answer in the other language
    ("zh", "Bad", "bad", "other_language"),
    ("zh", "Good.", "good", "other_language"),
    ("zh", "**Bad** — the reply ignores the user's request for a short answer.", "bad", "other_language"),
    ("zh", "Verdict: good", "good", "other_language"),
    (
        "zh",
        "The user would likely be dissatisfied: the reply is long and misses the point.",
        "bad",
        "other_language",
    ),
    ("zh", "I think the user would be satisfied with this reply.", "good", "other_language"),
    ("zh", "The user won't be satisfied; the reply just repeats the question.", "bad", "other_language"),
    ("zh", "Not good. The assistant never answered the question.", "bad", "other_language"),
    ("zh", "Answer: bad\n\nReason: the user asked for code and got theory.", "bad", "other_language"),
    ("zh", "好的，我来分析。The reply is bad.", "bad", "other_language"),
    ("zh3", "Neutral", "neutral", "other_language"),
    ("en", "差", "bad", "other_language"),
    ("en", "答案：好", "good", "other_language"),
    ("en", "回复没有回答用户的问题，差。", "bad", "other_language"),
    ("en", "不好", "bad", "other_language"),
    ("json", "good", "good", "other_language"),
    ("json", "The user would be satisfied: the reply is short and correct.", "good", "other_language"),
    ("json", "差", "bad", "other_language"),
    ("json3", "neutral", "neutral", "other_language"),
    # a JSON verdict object under a text template, or in another spelling
    ("zh", '{"verdict": 1}', "good", "json_verdict"),
    ("zh", '{"verdict": 0, "reason": "回复太啰嗦"}', "bad", "json_verdict"),
    ("zh", '```json\n{"verdict": "bad", "reason": "too verbose"}\n```', "bad", "json_verdict"),
    ("zh", '{"label": "good"}', "good", "json_verdict"),
    ("zh", '{"结论": "差"}', "bad", "json_verdict"),
    ("zh3", '{"verdict": 0.5}', "neutral", "json_verdict"),
    ("en", '{"judgment": "satisfied"}', "good", "json_verdict"),
    ("json", '{"verdict": "good"}', "good", "json_verdict"),
    ("json", '{"verdict": "差"}', "bad", "json_verdict"),
    # the options restated before the decision
    ("zh", "好/差：差", "bad", "options_echo"),
    ("zh", "好 / 差\n差", "bad", "options_echo"),
    ("zh", "（好 / 差）差", "bad", "options_echo"),
    ("zh", "只输出一个字（好 / 差）：好", "good", "options_echo"),
    ("zh", "好或差？差。", "bad", "options_echo"),
    ("zh", "是好还是差？我认为是差。", "bad", "options_echo"),
    ("zh", "可选答案：好 / 差。\n差", "bad", "options_echo"),
    ("zh", "选项：“好”或“差”。答案：好", "good", "options_echo"),
    ("zh", "Options: good / bad. Answer: bad", "bad", "options_echo"),
    ("zh3", "好/差/中：中", "neutral", "options_echo"),
    ("en", "Options: good / bad. Answer: bad", "bad", "options_echo"),
    (
        "en",
        "Whether the reply is good or bad depends on what the user wanted; here, bad.",
        "bad",
        "options_echo",
    ),
    ("json", "good / bad: bad", "bad", "options_echo"),
    # three-class
    ("zh3", "中", "neutral", "exact"),
    ("zh3", "答案：中", "neutral", "marker"),
    ("zh3", "其中有些内容不错，但整体是差", "bad", "mention"),
    ("zh3", "中国的例子举得对，好", "good", "mention"),
    ("zh3", "差", "bad", "exact"),
    ("zh3", "中。用户没有明显的满意或不满。", "neutral", "first_line"),
    ("zh3", "不好说，中", "neutral", "mention"),
    ("zh3", "其中的信息不全。答案：中", "neutral", "marker"),
    ("zh3", "Neutral: the user's reaction is unclear.", "neutral", "other_language"),
    ("zh3", "好/差/中", None, "undecided"),
    ("json3", '{"verdict": 1}', "good", "json"),
    ("json3", '{"verdict": "neutral"}', "neutral", "json_verdict"),
    ("json3", "neutral / good / bad: neutral", "neutral", "options_echo"),
    # words that merely contain the characters
    ("zh", "好的", None, "no_label"),
    ("zh", "好吧，我觉得差不多", None, "no_label"),
    ("zh", "回复和问题的差距不大，好像也行", None, "no_label"),
    ("zh", "不好意思，我无法判断。", None, "no_label"),
    ("zh", "好的，我来判断。用户会满意。", None, "no_label"),
    ("en", "Goodness knows.", None, "no_label"),
    ("zh", "Goodness, what a long reply.", None, "no_label"),
    ("zh", "中", None, "no_label"),  # neutral is no label in binary mode
    # both labels, no decision
    ("zh", "好/差", None, "undecided"),
    ("zh", "好或者差都有可能", None, "undecided"),
    ("zh", "Answer: good or bad", None, "undecided"),
    ("en", "good / bad", None, "undecided"),
    ("zh", "有好的地方也有差的地方，难说。", None, "no_label"),
    ("zh", "回复有的地方很好，有的地方很差", None, "ambiguous"),
    ("zh", "The reply is good in parts but bad overall.", None, "ambiguous"),
    # numbers outside JSON, values no template knows
    ("json", "1", None, "no_json"),
    ("json", "1. The user asked for a summary.", None, "no_json"),
    ("json", '{"verdict": 2}', None, "no_json"),
    ("zh", '{"verdict": 2}', None, "no_label"),
    # empty and junk
    ("zh", "", None, "empty"),
    ("zh", "   \n", None, "empty"),
    ("zh", "我无法判断。", None, "no_label"),
    ("zh", "As an AI, I cannot know what the user felt.", None, "no_label"),
]

# What the template-only reading (`parse=strict`, today's parser) makes of the cases it reads otherwise.
STRICT = {
    ("zh", "用户不会觉得好，回复没有给出链接。"): "good",
    ("zh", "这个回复并不是很好"): "good",
    ("zh", "不会太差，用户应该能接受"): "bad",
    ("en", "The user isn't really satisfied."): "good",
    ("en", "I don't think the user would be satisfied."): "good",
    ("zh", "好/差：差"): "good",
    ("zh", "好 / 差\n差"): "good",
    ("zh", "（好 / 差）差"): "good",
    ("zh", "好或差？差。"): "bad",
    ("zh", "可选答案：好 / 差。\n差"): "good",
    ("zh", "好/差"): "good",
    ("zh3", "好/差/中：中"): "good",
    ("zh3", "好/差/中"): "good",
    ("en", "Options: good / bad. Answer: bad"): "bad",
    ("zh", "选项：“好”或“差”。答案：好"): "good",
    ("zh", "只输出一个字（好 / 差）：好"): None,
    ("zh", "是好还是差？我认为是差。"): "bad",
    ("zh", '{"结论": "差"}'): "bad",
    ("en", '{"judgment": "satisfied"}'): "good",
    ("en", "good / bad"): "good",
    ("en", "Whether the reply is good or bad depends on what the user wanted; here, bad."): None,
}
FALLBACKS = {"other_language", "json_verdict", "options_echo"}


IDS = [f"{i}-{case[0]}-{case[3]}" for i, case in enumerate(CASES)]


@pytest.mark.parametrize(("template", "output", "label", "rule"), CASES, ids=IDS)
def test_careful_reader(template: str, output: str, label: str | None, rule: str) -> None:
    verdict = parse_verdict(output, TEMPLATES[template])
    assert (verdict.label, verdict.method) == (label, rule)


@pytest.mark.parametrize(("template", "output", "label", "rule"), CASES, ids=IDS)
def test_strict_reads_the_template_only(template: str, output: str, label: str | None, rule: str) -> None:
    expected = STRICT.get((template, output), None if rule in FALLBACKS else label)
    assert parse_verdict(output, TEMPLATES[template], "strict").label == expected


def test_table_covers_every_template_and_rule() -> None:
    assert len(CASES) >= 60
    assert {c[0] for c in CASES} == set(TEMPLATES)
    assert FALLBACKS | {"undecided"} <= {c[3] for c in CASES}
    assert len({(c[0], c[1]) for c in CASES}) == len(CASES)
    assert set(STRICT) <= {(c[0], c[1]) for c in CASES}


def test_english_template_file(tmp_path) -> None:
    path = tmp_path / "en.txt"
    path.write_text(
        "---\nlabels:\n  good: [good, satisfied]\n  bad: [bad, unsatisfied]\n---\n{query}\n{response}\n",
        encoding="utf-8",
    )
    assert load_template(path).labels == EN.labels


def test_yes_no_labels_stay_strings(tmp_path) -> None:
    path = tmp_path / "yn.txt"
    path.write_text("---\nlabels: {good: [Yes], bad: [No]}\n---\n{response}\n", encoding="utf-8")
    template = load_template(path)
    assert template.labels == {"good": ("Yes",), "bad": ("No",)}
    assert parse_verdict("yes", template).label == "good"
    assert parse_verdict("No. The user wanted the short version.", template).label == "bad"


def test_render_does_not_substitute_inside_inserted_text() -> None:
    text = ZH.render(history="用户：模板里写 {response} 会怎样？", query="{query}", response="回复")
    assert "模板里写 {response} 会怎样" in text and "{query}" in text
