"""Label sets of docs/protocol.md#label-sets and the mapping of variant spellings onto them.

Unknown labels are kept as they are and flagged, never dropped: a new label in a user's
data is information, not an error.
"""

from __future__ import annotations

FAILURE_DIMENSIONS: dict[str, str] = {
    "冗余啰嗦": "Verbosity/Redundancy",
    "任务未完成": "Task Incompleteness",
    "意图理解偏差": "Intent Misunderstanding",
    "事实性错误": "Factual Error",
    "信息可靠性不足": "Information Reliability Issue",
    "信息不充分": "Insufficiently Informative",
    "指令遵循失败": "Instruction Following Failure",
    "格式结构问题": "Format/Structure Issue",
    "情感语气失当": "Emotional Tone Mismatch",
    "过度拒绝": "Over-refusal",
    "需求澄清不足": "Insufficient Clarification",
    "安全合规问题": "Safety/Compliance Issue",
    "系统技术错误": "System/Technical Error",
    "其他": "Other",
}

SUCCESS_PATTERNS: dict[str, str] = {
    "准确回答": "Accurate Answering",
    "知识深度": "Knowledge Depth",
    "全面详细": "Comprehensive Detail",
    "解决问题": "Problem Solving",
    "实用性/操作指导": "Practical Guidance",
    "创意生成": "Creative Generation",
    "任务完成": "Task Completion",
    "共情支持": "Empathetic Support",
}

SCENARIOS: dict[str, str] = {
    "信息与知识查询": "Information & Knowledge",
    "创意内容与生成": "Creative Content",
    "娱乐消遣": "Entertainment",
    "私密与生活决策辅助": "Personal & Life Decisions",
    "产品与服务咨询": "Products & Services",
    "情绪与心理支持": "Emotional Support",
    "办公与效率": "Work & Productivity",
}

DIFFICULTIES = ("easy", "medium", "hard", "very_hard")

# Older or alternative spellings seen in feedback data, and the English names.
_VARIANTS: dict[str, str] = {
    "冗长啰嗦": "冗余啰嗦",
    "啰嗦冗余": "冗余啰嗦",
    "回答冗余": "冗余啰嗦",
    "任务未完成/不完整": "任务未完成",
    "任务完成度不足": "任务未完成",
    "意图理解错误": "意图理解偏差",
    "意图误解": "意图理解偏差",
    "事实错误": "事实性错误",
    "信息不可靠": "信息可靠性不足",
    "信息量不足": "信息不充分",
    "指令遵循问题": "指令遵循失败",
    "格式问题": "格式结构问题",
    "语气不当": "情感语气失当",
    "拒绝回答": "过度拒绝",
    "安全问题": "安全合规问题",
    "技术错误": "系统技术错误",
    "实用性": "实用性/操作指导",
    "操作指导": "实用性/操作指导",
}


def _canonical(value: object, known: dict[str, str]) -> tuple[str | None, bool]:
    """Map a raw label to its canonical spelling; the flag says whether it is known."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, True
    text = str(value).strip()
    if text in known:
        return text, True
    variant = _VARIANTS.get(text)
    if variant in known:
        return variant, True
    for zh, en in known.items():
        if text.lower() == en.lower():
            return zh, True
    return text, False


def canonical_failure(value: object) -> tuple[str | None, bool]:
    return _canonical(value, FAILURE_DIMENSIONS)


def canonical_success(value: object) -> tuple[str | None, bool]:
    return _canonical(value, SUCCESS_PATTERNS)


def canonical_scenario(value: object) -> tuple[str | None, bool]:
    return _canonical(value, SCENARIOS)


def english(label: str) -> str:
    """English name of a canonical label (itself when unknown), for reports."""
    for table in (FAILURE_DIMENSIONS, SUCCESS_PATTERNS, SCENARIOS):
        if label in table:
            return table[label]
    return label
