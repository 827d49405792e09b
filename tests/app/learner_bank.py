"""A small bank with one question of every type the learner pages handle, parsed through the
real quizbank validator (so the fixtures cannot drift from the schema)."""

from quizbank import parse_bank


def _base(qid, qtype, topic="gradient-flow", difficulty="easy", hints=2):
    return {
        "id": qid,
        "type": qtype,
        "topic": topic,
        "difficulty": difficulty,
        "source": {"text": "gradient-propagation", "section": "3.2"},
        "prompt": {"zh": f"题目 {qid}", "en": f"Question {qid}"},
        "hints": [{"zh": f"提示 {k}", "en": f"Hint {k}"} for k in range(1, hints + 1)],
        "solution": {"zh": f"解答 {qid}", "en": f"Solution {qid}"},
    }


QUESTIONS = [
    {
        **_base("fx-choice", "choice", topic="residual-basics"),
        "options": [
            {"id": "a", "text": {"zh": "$y=x+F(x)$", "en": "$y=x+F(x)$"}, "correct": True},
            {"id": "b", "text": {"zh": "$y=F(x)$", "en": "$y=F(x)$"}, "correct": False,
             "feedback": {"zh": "没有恒等路径", "en": "No identity path"}},
        ],
    },
    {**_base("fx-numeric", "numeric", difficulty="medium"), "answer": [0.4, 2.05],
     "tolerance": {"kind": "relative", "value": 1.0e-3}},
    {**_base("fx-expression", "expression", topic="jacobian"), "answer": "1 + F'(x)",
     "symbols": ["x"], "functions": ["F"],
     "malrules": [{"answer": "F'(x)", "feedback": {"zh": "漏了恒等项", "en": "You dropped the identity term"}}]},
    {**_base("fx-derivation", "derivation", topic="jacobian", difficulty="hard", hints=0),
     "start": "diff(x + F(x), x)", "target": "1 + F'(x)", "symbols": ["x"], "functions": ["F"],
     "steps": ["diff(x, x) + diff(F(x), x)", "1 + F'(x)"]},
    {**_base("fx-ordering", "ordering", topic="transformer-norm", hints=1),
     "steps": [{"id": s, "text": {"zh": s, "en": s}} for s in ("ln", "attn", "add")]},
    {**_base("fx-interview", "interview", topic="gradient-flow", hints=0),
     "model_answer": {"zh": "恒等项", "en": "The identity term"},
     "rubric": [
         {"id": "identity", "kind": "required", "text": {"zh": "恒等项", "en": "identity term"},
          "keywords": {"zh": ["恒等"], "en": ["identity"]}},
         {"id": "ensemble", "kind": "bonus", "text": {"zh": "集成", "en": "ensemble view"},
          "keywords": {"zh": ["集成"], "en": ["ensemble"]}},
         {"id": "never-vanish", "kind": "misconception",
          "text": {"zh": "永不消失", "en": "gradients can never vanish"},
          "keywords": {"zh": ["永不"], "en": ["never vanish"]}},
     ],
     "followups": ["fx-expression"]},
]


def fixture_bank():
    return parse_bank({"questions": QUESTIONS})
