"""A starting point for each of the seven question types: one valid question, as YAML text.

The Author page offers these; each one passes `quizbank validate` and its own author tests
(tests/quizbank/test_authoring.py), so an instructor starts from something that works.
"""

COMMON = """\
id: {id}
type: {type}
topic: residual-basics
tags: []
difficulty: medium
source: {{text: gradient-propagation, section: "1"}}
"""

BODIES = {
    "choice": """\
prompt:
  zh: "残差块的输出是？"
  en: "What does a residual block output?"
hints:
  - {zh: "想想恒等路径。", en: "Think of the identity path."}
solution:
  zh: "$y = x + F(x)$：输入经恒等路径直接加到分支输出上。"
  en: "$y = x + F(x)$: the input is added to the branch's output through the identity path."
multiple: false
options:
  - {id: a, text: {zh: "$x + F(x)$", en: "$x + F(x)$"}, correct: true}
  - id: b
    text: {zh: "$F(x)$", en: "$F(x)$"}
    correct: false
    feedback: {zh: "少了恒等路径。", en: "The identity path is missing."}
tests:
  - {answer: [a], verdict: correct}
  - {answer: [b], verdict: wrong}
""",
    "numeric": """\
prompt:
  zh: "标量残差块 $y = x + F(x)$，$F'(x) = 0.5$，求 $\\\\partial y/\\\\partial x$。"
  en: "Scalar residual block $y = x + F(x)$ with $F'(x) = 0.5$. Compute $\\\\partial y/\\\\partial x$."
hints:
  - {zh: "恒等路径贡献 1。", en: "The identity path contributes 1."}
solution:
  zh: "$\\\\partial y/\\\\partial x = 1 + F'(x) = 1.5$。"
  en: "$\\\\partial y/\\\\partial x = 1 + F'(x) = 1.5$."
answer: 1.5
tolerance: {kind: relative, value: 1.0e-3}
malrules:
  - answer: "0.5"
    feedback: {zh: "忘了恒等路径的 1。", en: "You left out the 1 of the identity path."}
tests:
  - {answer: "1.5", verdict: correct}
  - {answer: "0.5", verdict: wrong}
""",
    "expression": """\
prompt:
  zh: "线性残差块 $y = (I + W)x$，上游梯度 $g$。用 `W`、`g` 写出 $\\\\nabla_x L$。"
  en: "Linear residual block $y = (I + W)x$ with upstream gradient $g$. Write $\\\\nabla_x L$ with `W` and `g`."
hints:
  - {zh: "链式法则里雅可比矩阵要转置。", en: "The chain rule transposes the Jacobian."}
solution:
  zh: "$\\\\nabla_x L = (I + W)^T g$。"
  en: "$\\\\nabla_x L = (I + W)^T g$."
answer: "(I + W)^T g"
symbols: []
functions: []
matrices: [W, g]
malrules:
  - answer: "(I + W) g"
    feedback: {zh: "忘了转置。", en: "You forgot the transpose."}
tests:
  - {answer: "(I + W)^T g", verdict: correct}
  - {answer: "g + W^T g", verdict: correct}
  - {answer: "(I + W) g", verdict: wrong}
""",
    "derivation": """\
prompt:
  zh: "从 $\\\\frac{d}{dx}(x + F(x))$ 出发，一步一步求导。"
  en: "Starting from $\\\\frac{d}{dx}(x + F(x))$, differentiate step by step."
solution:
  zh: "$\\\\frac{d}{dx}x + \\\\frac{d}{dx}F(x) = 1 + F'(x)$。"
  en: "$\\\\frac{d}{dx}x + \\\\frac{d}{dx}F(x) = 1 + F'(x)$."
start: "d/dx (x + F(x))"
target: "1 + F'(x)"
symbols: [x]
functions: [F]
matrices: []
steps: ["diff(x, x) + diff(F(x), x)", "1 + F'(x)"]
tests:
  - {answer: ["1 + F'(x)"], verdict: correct}
  - {answer: ["F'(x)"], verdict: wrong}
""",
    "interview": """\
prompt:
  zh: "为什么残差连接能缓解梯度消失？"
  en: "Why do residual connections ease vanishing gradients?"
solution:
  zh: "雅可比矩阵 $I + J_F$ 含单位矩阵，梯度总有一条不衰减的路径。"
  en: "The Jacobian $I + J_F$ contains the identity, so the gradient always has a path that does not shrink."
model_answer:
  zh: "$\\\\partial y/\\\\partial x = I + J_F$：即使 $J_F$ 很小，单位矩阵项也把梯度原样传回。"
  en: "$\\\\partial y/\\\\partial x = I + J_F$: even when $J_F$ is small, the identity term passes the gradient back unchanged."
rubric:
  - id: identity-term
    kind: required
    text: {zh: "指出单位矩阵项", en: "Names the identity term"}
    keywords: {zh: ["单位矩阵", "恒等"], en: ["identity"]}
  - id: never-vanish
    kind: misconception
    text: {zh: "梯度永远不会消失", en: "Gradients can never vanish"}
    keywords: {zh: ["永远不会消失"], en: ["never vanish"]}
followups: []
""",
    "ordering": """\
prompt:
  zh: "排出 Pre-LN 子层的计算顺序。"
  en: "Put the computation of a Pre-LN sub-layer in order."
solution:
  zh: "先 LayerNorm，再子层，最后加回输入。"
  en: "LayerNorm first, then the sub-layer, then add the input back."
steps:
  - {id: norm, text: {zh: "LayerNorm", en: "LayerNorm"}}
  - {id: sublayer, text: {zh: "子层 $F$", en: "Sub-layer $F$"}}
  - {id: add, text: {zh: "加回输入", en: "Add the input"}}
tests:
  - {answer: [norm, sublayer, add], verdict: correct}
  - {answer: [sublayer, norm, add], verdict: wrong}
""",
    "generated": """\
prompt:
  zh: "按下面的数字计算这个线性残差块，结果保留 3 位有效数字。"
  en: "Work through this linear residual block with the numbers below; give 3 significant figures."
solution:
  zh: "逐步计算见下方的数值解答。"
  en: "The worked numbers are below."
template: linear_residual_block
asks: [grad_x]
tolerance: {kind: sigfigs, value: 3}
tests:
  - {seed: 7, answer: {grad_x: key}, verdict: correct}
""",
}

TYPES = tuple(BODIES)


def template_yaml(kind: str, question_id: str | None = None) -> str:
    """One question of type `kind` as YAML text (a mapping, as the Author page edits it)."""
    return COMMON.format(id=question_id or f"my-{kind}-question", type=kind) + BODIES[kind]
