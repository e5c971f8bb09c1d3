"""Verdict parsing on realistic judge outputs (issue 2 point 5)."""

import pytest

from uxbench.templates import builtin_path, load_template
from uxbench.verdict import parse_verdict

BINARY = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad"))
THREE = load_template(builtin_path("judge_default.txt")).with_labels(("good", "bad", "neutral"))
JSON = load_template(builtin_path("judge_json_en.txt")).with_labels(("good", "bad"))

CASES = [
    # bare answers
    ("好", "good"),
    ("差", "bad"),
    (" 好\n", "good"),
    ("差。", "bad"),
    ("“好”", "good"),
    ("【差】", "bad"),
    # markdown emphasis
    ("**好**", "good"),
    ("**差**", "bad"),
    ("`差`", "bad"),
    ("### 好", "good"),
    # trailing explanations
    ("好。回复直接给出了用户要的命令。", "good"),
    ("差，因为回答太啰嗦，没有直接给出结论。", "bad"),
    ("差\n\n理由：用户只要一个数字，助手写了三段背景。", "bad"),
    ("好 —— 语气温和，也给出了具体步骤", "good"),
    # reasoning preambles with a final answer
    ("用户想要简洁的答案，而回复绕了很多弯。\n答案：差", "bad"),
    ("分析：回复准确回答了问题，格式清晰。\n\n最终答案：好", "good"),
    ("我们先看用户的需求……回复满足了。结论是好", "good"),
    ("<think>用户问的是天气，回复给的是股票。</think>差", "bad"),
    ("<think>好的，我来分析一下。回复看起来还行，但是……</think>\n\n好", "good"),
    ("好的，我来判断一下。用户的问题很具体，回复却答非所问。\n判断：差", "bad"),
    ("Let me think. The reply ignores the constraint.\nAnswer: 差", "bad"),
    ("**答案：好**", "good"),
    ("综合来看，用户会点踩。\n\n**判断结果**：差", "bad"),
    # JSON answers in a text template
    ('{"verdict": "好"}', "good"),
    ('```json\n{"verdict": "差", "reason": "太长"}\n```', "bad"),
    # negations
    ("不好", "bad"),
    ("这个回复不好，用户不会满意。", "bad"),
    ("回复质量不太好", "bad"),
    ("答案：不好", "bad"),
    ("不差，用户应该会满意", "good"),
    # standalone mentions in prose
    ("这个回复很好", "good"),
    ("回复质量差", "bad"),
    ("整体而言，用户的体验较差", "bad"),
    # words that merely contain the characters
    ("好的", None),
    ("好吧，我觉得差不多", None),
    ("回复和问题的差距不大，好像也行", None),
    # both labels, no decision
    ("好或者差都有可能", None),
    ("有好的地方也有差的地方，难说。", None),
    # empty and junk
    ("", None),
    ("   \n", None),
    ("我无法判断。", None),
    ("As an AI, I cannot know what the user felt.", None),
]


@pytest.mark.parametrize(("output", "expected"), CASES)
def test_binary_chinese(output: str, expected: str | None) -> None:
    assert parse_verdict(output, BINARY).label == expected


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("中", "neutral"),
        ("答案：中", "neutral"),
        ("其中有些内容不错，但整体是差", "bad"),
        ("中国的例子举得对，好", "good"),
    ],
)
def test_three_class(output: str, expected: str) -> None:
    assert parse_verdict(output, THREE).label == expected


def test_neutral_is_not_a_label_in_binary_mode() -> None:
    assert parse_verdict("中", BINARY).label is None


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ('{"verdict": 1}', "good"),
        ('{"verdict": 0}', "bad"),
        ('{"verdict": "1"}', "good"),
        ('The user seems annoyed.\n{"verdict": 0}', "bad"),
        ('```json\n{"verdict": 1, "why": "concise"}\n```', "good"),
        ("1", None),  # a JSON template wants JSON
        ('{"verdict": 2}', None),
        ("good", None),
    ],
)
def test_json_template(output: str, expected: str | None) -> None:
    assert parse_verdict(output, JSON).label == expected


def test_english_template(tmp_path) -> None:
    path = tmp_path / "en.txt"
    path.write_text(
        "---\nlabels:\n  good: [good, satisfied]\n  bad: [bad, unsatisfied]\n---\n{query}\n{response}\n",
        encoding="utf-8",
    )
    english = load_template(path)
    assert parse_verdict("Good.", english).label == "good"
    assert parse_verdict("Verdict: BAD", english).label == "bad"
    assert parse_verdict("not good at all", english).label == "bad"
    assert parse_verdict("The user was unsatisfied.", english).label == "bad"
    assert parse_verdict("goodness knows", english).label is None


def test_method_is_reported() -> None:
    assert parse_verdict("答案：差", BINARY).method == "marker"
    assert parse_verdict("", BINARY).method == "empty"
    assert parse_verdict("好", BINARY).method == "exact"


def test_yes_no_labels_stay_strings(tmp_path) -> None:
    path = tmp_path / "yn.txt"
    path.write_text("---\nlabels: {good: [Yes], bad: [No]}\n---\n{response}\n", encoding="utf-8")
    template = load_template(path)
    assert template.labels == {"good": ("Yes",), "bad": ("No",)}
    assert parse_verdict("yes", template).label == "good"


def test_render_does_not_substitute_inside_inserted_text() -> None:
    text = BINARY.render(history="用户：模板里写 {response} 会怎样？", query="{query}", response="回复")
    assert "模板里写 {response} 会怎样" in text and "{query}" in text
