"""Every learner-facing sentence of the grader, in English and Chinese, in one place."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- reading the answer -------------------------------------------------------------------
    "unexpected_char": {"en": "the character {char} is not part of a formula",
                        "zh": "字符 {char} 不能出现在公式中"},
    "bad_subscript": {"en": "a subscript must follow _ (write x_0 or x_{l+1})",
                      "zh": "下划线 _ 后应跟下标（如 x_0 或 x_{l+1}）"},
    # sums, products and indexed families (reading/series.py, reading/families.py)
    "series_needs_range": {"en": "write the range of {op}: {op}_{{i=1}}^{{n}} (a bare {op}_l does "
                                 "not say where it starts, nor, for a product of matrices, in "
                                 "which order: {op}_{{l=1}}^{{L}} runs up, {op}_{{l=L}}^{{1}} down)",
                           "zh": "请写出 {op} 的范围：{op}_{{i=1}}^{{n}}（只写 {op}_l 说不清从哪里开始，"
                                 "对矩阵连乘也说不清顺序：{op}_{{l=1}}^{{L}} 由小到大，"
                                 "{op}_{{l=L}}^{{1}} 由大到小）"},
    "series_needs_body": {"en": "the sum or product has nothing after its range",
                          "zh": "求和或连乘的范围后面缺少被加（乘）的项"},
    "series_arguments": {"en": "{name} needs four arguments: {name}(expression, i, first, last)",
                         "zh": "{name} 需要四个参数：{name}(表达式, i, 起点, 终点)"},
    "series_bound_uses_index": {"en": "the bounds of a sum or product cannot use its own index "
                                      "{var}",
                                "zh": "求和或连乘的上下限不能用它自己的指标 {var}"},
    "series_bound_whole": {"en": "the bounds of a sum or product must be whole numbers",
                           "zh": "求和或连乘的上下限必须是整数"},
    "series_too_long": {"en": "the sum or product has too many terms to check (limit {limit}); "
                              "write its closed form, or the range with a name such as n",
                        "zh": "求和或连乘的项数过多，无法逐项检查（上限 {limit} 项）；"
                              "请写出它的闭式，或用 n 之类的名字表示范围"},
    "series_too_deep": {"en": "sums and products are nested too deeply (more than {limit})",
                        "zh": "求和与连乘嵌套过深（超过 {limit} 层）"},
    "dots_cannot_infer": {"en": "cannot tell the general term from the terms around ⋯: write the "
                                "first terms and the last in the same form, differing only in "
                                "an index (x_1 + x_2 + ⋯ + x_n), or write it with \\sum or \\prod",
                          "zh": "无法从 ⋯ 两侧的项推断通项：请把前几项和最后一项写成同一形式、只有下标不同"
                                "（x_1 + x_2 + ⋯ + x_n），或改用 \\sum、\\prod"},
    "dots_needs_family": {"en": "the subscript of {family} changes around ⋯: declare {family} as "
                                "a family (families: [{family}]) so that {family}_i is a member",
                          "zh": "{family} 的下标在 ⋯ 两侧变化：请把 {family} 声明为族"
                                "（families: [{family}]），{family}_i 才是它的成员"},
    "dots_needs_last": {"en": "⋯ must be followed by the last term (x_1 + x_2 + ⋯ + x_n)",
                        "zh": "⋯ 之后应写出最后一项（x_1 + x_2 + ⋯ + x_n）"},
    "bad_member_index": {"en": "the index of {name} must be a whole number or a formula of "
                               "integers such as l+1",
                         "zh": "{name} 的下标必须是整数，或 l+1 这样的整数表达式"},
    "bad_relation": {"en": "a relation must give one member from the ones before it, e.g. "
                           "x_{{l+1}} = x_l + F_l(x_l)",
                     "zh": "递推关系应由前面的项给出后一项，例如 x_{{l+1}} = x_l + F_l(x_l)"},
    "series_terms_exceeded": {"en": "the sums and products need more than {limit} terms at the "
                                    "values checked",
                              "zh": "在检查所用的取值下，求和与连乘需要超过 {limit} 项"},
    "product_derivative": {"en": "the derivative of a product over a range is not worked out "
                                  "here; write it as a sum (the product rule) first",
                           "zh": "此处不计算区间连乘的导数；请先用乘积法则写成求和"},
    "matrix_series": {"en": "a sum or product of matrices is checked only by sampling",
                      "zh": "矩阵的求和与连乘只能通过取样检查"},
    "member_derivative_order": {"en": "only first derivatives by a family member are checked",
                                "zh": "对族成员求导只检查一阶导数"},
    "member_derivative_not_smooth": {"en": "a derivative by a family member is checked only for "
                                           "smooth formulas (no |x|, sign, max, min)",
                                     "zh": "对族成员求导只检查光滑的式子（不含 |x|、sign、max、min）"},
    "indexed_symbolic": {"en": "members of a family are checked only by sampling",
                         "zh": "族成员只能通过取样检查"},
    "relation_too_far": {"en": "a member's index is too large to compute from its relation "
                               "(limit {limit})",
                         "zh": "该项的下标过大，无法由递推关系算出（上限 {limit}）"},
    # moments of random variables (reading/moments.py, values/moments.py)
    "moment_arguments": {"en": "{name} takes {count} argument(s) in brackets, e.g. {name}(X)",
                         "zh": "{name} 需要括号中的 {count} 个参数，如 {name}(X)"},
    "moment_not_exact": {"en": "inside a moment only numbers, declared names, + - × ÷, whole "
                               "powers, sums, products, |x| and sign can be checked",
                         "zh": "矩中只能检查数字、已声明的名称、加减乘除、整数次幂、求和、连乘、|x| 与 sign"},
    "moment_too_large": {"en": "the random variables need more than {limit} outcomes to check; "
                               "check the step with fewer of them",
                         "zh": "这些随机变量需要超过 {limit} 个结果才能检查，请用更少的随机变量检查这一步"},
    "moment_mixed_families": {"en": "{name} appears with members of {family}; declare whether "
                                    "they are independent (independent: [[{name}, {family}]])",
                              "zh": "{name} 与 {family} 的成员一同出现，请声明它们是否独立"
                                    "（independent: [[{name}, {family}]]）"},
    "moment_division_by_zero": {"en": "a denominator is 0 for this distribution",
                                "zh": "在此分布下分母为 0"},
    "moment_by_sampling": {"en": "moments are checked over distributions, not by sampling numbers",
                           "zh": "矩按分布检查，不按数值抽样检查"},
    "moment_derivative": {"en": "derivatives of moments are not supported",
                          "zh": "不支持对矩求导"},
    "moment_counterexample": {"en": "For example, take {laws}{iid}{point}: this line gives "
                                    "{answer}, {before} gives {expected}.",
                              "zh": "例如取分布 {laws}{iid}{point}：这一行得 {answer}，{before}得 "
                                    "{expected}。"},
    "moment_counterexample_answer": {"en": "For example, take {laws}{iid}{point}: your answer "
                                           "gives {answer}, the expected answer gives {expected}.",
                                     "zh": "例如取分布 {laws}{iid}{point}：你的答案得 {answer}，"
                                           "标准答案得 {expected}。"},
    "moment_blocks_independent": {"en": " (the groups separated by ; independent)",
                                  "zh": "（以 ; 分开的各组相互独立）"},
    "moment_iid": {"en": "; {names} i.i.d. over the index as the bare name",
                   "zh": "；{names} 的各下标成员独立同分布，与不带下标的名称同分布"},
    "moment_point": {"en": "; with {point}", "zh": "；且 {point}"},
    "moment_assumption_hint": {"en": "It would follow if {assumptions} (declare {declarations}).",
                               "zh": "若 {assumptions}，这一行才成立（声明 {declarations}）。"},
    "moment_assumption_or": {"en": ", or if ", "zh": "，或若 "},
    "moment_assumption_and": {"en": " and ", "zh": "，且 "},
    "moment_independent": {"en": "{a} and {b} are independent", "zh": "{a} 与 {b} 相互独立"},
    "moment_zero_mean": {"en": "{a} has mean 0", "zh": "{a} 的均值为 0"},
    "moment_no_assumption": {"en": "No independence or zero-mean declaration makes it hold.",
                             "zh": "任何独立或零均值的声明都不能使它成立。"},
    "bad_command_argument": {"en": "{command} needs a name in braces, e.g. {command}{{W}}",
                             "zh": "{command} 后需要花括号中的名字，例如 {command}{{W}}"},
    "unknown_environment": {"en": "only matrix environments (bmatrix, pmatrix) are understood",
                            "zh": "只支持矩阵环境（bmatrix、pmatrix）"},
    "unknown_command": {"en": "the LaTeX command {command} is not supported here",
                        "zh": "不支持 LaTeX 命令 {command}"},
    "unexpected_end": {"en": "the formula ends too early; expected {expected}",
                       "zh": "公式提前结束，此处应有 {expected}"},
    "incomplete": {"en": "the formula ends too early: a term is missing here",
                   "zh": "公式不完整：此处缺少一项"},
    "expected": {"en": "expected {expected} but found {found}",
                 "zh": "此处应为 {expected}，但读到 {found}"},
    "unexpected_token": {"en": "did not expect {found} here", "zh": "此处不应出现 {found}"},
    # typing slips, refused rather than graded (issue 29; reading/typos.py)
    "bracket_never_closed": {"en": "the {bracket} opened here is never closed",
                             "zh": "此处的 {bracket} 没有对应的右括号"},
    "bracket_closes_nothing": {"en": "this {bracket} closes no bracket: an opening bracket is "
                                     "missing before it",
                               "zh": "这个 {bracket} 没有对应的左括号：它前面缺少左括号"},
    "bracket_mismatch": {"en": "this {bracket} does not match the {opener} it closes",
                         "zh": "这个 {bracket} 与它要闭合的 {opener} 不配对"},
    "bracket_unpaired_bar": {"en": "this {bar} has no partner: write the value between two, "
                                   "as |x|",
                             "zh": "这个 {bar} 没有配对：请把值写在两条竖线之间，如 |x|"},
    "number_space_number": {"en": "two numbers separated only by a space ({first} {second}): "
                                  "write {first}*{second} for a product, or remove the space "
                                  "if it is one number",
                            "zh": "两个数之间只有空格（{first} {second}）：相乘请写 {first}*{second}，"
                                  "若是一个数请去掉空格"},
    "thousands_space": {"en": "did you mean {plain}? Write a number without spaces inside it "
                              "({written})",
                        "zh": "你是想写 {plain} 吗？数字中间不要加空格（{written}）"},
    "space_in_number": {"en": "a space inside the number {written}: write {number}",
                        "zh": "数字 {written} 中间有空格：请写成 {number}"},
    "malformed_number": {"en": "{written} is not a number: a number has at most one decimal "
                               "point and a whole exponent after e (9.54e-7); for Euler's "
                               "number e times something, write * (2*e)",
                         "zh": "{written} 不是一个数：数字最多有一个小数点，e 后的指数应为整数"
                               "（如 9.54e-7）；若表示自然常数 e 相乘，请写 *（如 2*e）"},
    "decimal_comma_formula": {"en": "did you mean {decimal}? Write a decimal point: in a "
                                    "formula a comma separates a function's arguments or a "
                                    "vector's entries",
                              "zh": "你是想写 {decimal} 吗？请用小数点：公式中的逗号用于分隔函数的参数"
                                    "或向量的元素"},
    "plus_minus_inside": {"en": "± is read only between the terms of the whole answer, as in "
                                "1 ± √2 (a pair of values); inside brackets, an exponent or a "
                                "list, write the values out",
                          "zh": "± 只能写在整个答案的各项之间，如 1 ± √2（表示一对值）；在括号、指数或"
                                "列表中请把各个值分别写出"},
    "plus_minus": {"en": "± gives two values, and this question wants one: write the one "
                         "that answers it",
                   "zh": "± 表示两个值，而本题只要一个值：请写出符合题意的那一个"},
    "empty": {"en": "the answer is empty", "zh": "答案为空"},
    "too_long": {"en": "the answer is too long (more than {limit} characters)",
                 "zh": "答案过长（超过 {limit} 个字符）"},
    "too_many_nodes": {"en": "the formula is too large (more than {limit} parts)",
                       "zh": "公式过大（超过 {limit} 个组成部分）"},
    "too_deep": {"en": "the formula is nested too deeply (more than {limit} levels)",
                 "zh": "公式嵌套过深（超过 {limit} 层）"},
    "exponent_tower": {"en": "exponent towers such as a^b^c^d are not accepted",
                       "zh": "不接受 a^b^c^d 这样的指数塔"},
    "exponent_too_large": {"en": "the exponent is too large (limit {limit})",
                           "zh": "指数过大（上限 {limit}）"},
    "number_too_large": {"en": "the number is too large", "zh": "数值过大"},
    "number_too_long": {"en": "a number has too many digits (limit {limit})",
                        "zh": "数字位数过多（上限 {limit} 位）"},
    "factorial_needs_integer": {"en": "a factorial needs a whole number, e.g. 5!",
                                "zh": "阶乘只能作用于整数，例如 5!"},
    "factorial_too_large": {"en": "the factorial is too large (limit {limit}!)",
                            "zh": "阶乘过大（上限 {limit}!）"},
    "prime_needs_function": {"en": "a prime ' belongs to a declared function such as F'(x)",
                             "zh": "撇号 ' 只能用于已声明的函数，如 F'(x)"},
    "not_finite": {"en": "NaN (not a number) is not accepted as an answer",
                   "zh": "不接受 NaN（非数）作为答案"},
    "derivative_order": {"en": "derivatives up to order {limit} are supported",
                         "zh": "最多支持 {limit} 阶导数"},
    "prime_needs_one_argument": {"en": "{name}' needs exactly one argument",
                                 "zh": "{name}' 只能有一个自变量"},
    "expected_call": {"en": "{name} is a function: write {name}(x)",
                      "zh": "{name} 是函数，请写成 {name}(x)"},
    "one_argument": {"en": "{name} takes one argument", "zh": "{name} 只接受一个参数"},
    "diff_arguments": {"en": "write diff(expression, x) or diff(expression, x, 2)",
                       "zh": "请写成 diff(表达式, x) 或 diff(表达式, x, 2)"},
    "ragged_matrix": {"en": "the rows of the matrix have different lengths",
                      "zh": "矩阵各行长度不一致"},
    "nested_matrix": {"en": "a matrix entry cannot itself be a matrix",
                      "zh": "矩阵的元素不能再是矩阵"},
    # -- notation and names (issue 10, items 3 and 5) -----------------------------------------
    "unknown_name": {"en": "{name} is not a function or name this question knows",
                     "zh": "{name} 不是本题认识的函数或名字"},
    "unknown_name_product": {"en": "{name} is not a function or name this question knows (to "
                                   "multiply, write {product})",
                             "zh": "{name} 不是本题认识的函数或名字（若表示相乘，请写成 {product}）"},
    "not_a_function": {"en": "{name} is not a function or name this question knows",
                       "zh": "{name} 不是本题认识的函数或名字"},
    "leibniz_undeclared": {"en": "in d{function}/d{var}, {function} is not a function this "
                                 "question declares: write the derivative with the question's "
                                 "names",
                           "zh": "d{function}/d{var} 中的 {function} 不是本题声明的函数，请用本题"
                                 "中的名字写出导数"},
    "two_arguments": {"en": "{name} takes two or more arguments, e.g. {name}(x, 0)",
                      "zh": "{name} 需要两个或更多参数，例如 {name}(x, 0)"},
    "two_arguments_exactly": {"en": "{name} takes two arguments, e.g. {name}(n, k)",
                              "zh": "{name} 需要两个参数，例如 {name}(n, k)"},
    "two_arguments_exactly_yx": {"en": "{name} takes two arguments, y first: {name}(y, x)",
                                 "zh": "{name} 需要两个参数，y 在前：{name}(y, x)"},
    "binomial_too_large": {"en": "the binomial coefficient is too large (limit binomial({limit}, k))",
                           "zh": "二项式系数过大（上限 binomial({limit}, k)）"},
    "factorial_derivative": {"en": "derivatives of factorials and binomials (digamma) are not "
                                   "supported",
                             "zh": "不支持对阶乘和二项式系数求导（需要 digamma 函数）"},
    "log_arguments": {"en": "log takes one argument, or two: log(x, base)",
                      "zh": "log 只接受一个参数，或两个参数：log(x, 底数)"},
    "numbered_log": {"en": "{name} followed by a letter: write {name}(x) or log_{base} x for the "
                           "logarithm to base {base}, or log({base}x) or log({base})*x for the "
                           "natural one",
                     "zh": "{name} 后面跟着字母：以 {base} 为底的对数请写 {name}(x) 或 log_{base} x，"
                           "自然对数请写 log({base}x) 或 log({base})*x"},
    "log_base": {"en": "the base of log_{base} must be a number or one letter; or write "
                       "log(x, base)",
                 "zh": "log_{base} 的底数应为数字或单个字母；也可写成 log(x, 底数)"},
    "function_power": {"en": "after {name}^ write a whole number from 1 up ({name}^2 x is "
                             "({name} x)^2), or -1 for the inverse function",
                       "zh": "{name}^ 后应为从 1 起的整数（{name}^2 x 即 ({name} x)^2），或表示反函数"
                             "的 -1"},
    "no_inverse_notation": {"en": "{name}^-1 is not read as an inverse function: write 1/{name}(x) "
                                  "for the reciprocal",
                            "zh": "{name}^-1 不作反函数读取；倒数请写成 1/{name}(x)"},
    "decimal_comma_asked": {"en": "did you mean {decimal}? Write a decimal point: a comma "
                                  "separates the entries of a vector",
                            "zh": "你是想写 {decimal} 吗？请用小数点：逗号用于分隔向量的各个元素"},
    "decimal_comma_thousands": {"en": "did you mean {decimal} or {thousands}? Write a decimal "
                                      "point, and no comma inside a number",
                                "zh": "你是想写 {decimal} 还是 {thousands}？请用小数点，数字中不要加逗号"},
    "thousands_separator": {"en": "did you mean {plain}? Write numbers without thousands "
                                  "separators: a comma separates the entries of a vector",
                            "zh": "你是想写 {plain} 吗？数字中不要加千位分隔符：逗号用于分隔向量的各个元素"},
    "note_function_power": {"en": "A power written on a function's name applies to its value: "
                                  "sin^2 x reads as (sin x)^2.",
                            "zh": "写在函数名上的幂作用于函数值：sin^2 x 读作 (sin x)^2。"},
    "note_function_argument_division": {
        "en": "A function's argument written without brackets stops at a division: ln x/y reads "
              "as (ln x)/y. For the function of the quotient, write ln(x/y).",
        "zh": "不加括号的函数参数到除号为止：ln x/y 读作 (ln x)/y。若要对商取函数，请写 ln(x/y)。"},
    "note_inverse_function": {"en": "A -1 written on a function's name means the inverse "
                                    "function: sin^-1 x reads as arcsin x, not 1/sin x.",
                              "zh": "写在函数名上的 -1 表示反函数：sin^-1 x 读作 arcsin x，而不是 "
                                    "1/sin x。"},
    "note_log_base_second": {"en": "log(x, b) is the logarithm of x to the base b: the base "
                                   "comes second.",
                             "zh": "log(x, b) 是以 b 为底 x 的对数：底数写在第二个位置。"},
    "note_leibniz": {"en": "Leibniz notation for a declared function reads as its derivative: "
                           "dF/dx is F'(x).",
                     "zh": "对已声明函数的莱布尼茨记号读作其导数：dF/dx 即 F'(x)。"},
    "note_leibniz_expression": {
        "en": "A Leibniz fraction reads as the derivative of its numerator: ∂F(x, W)/∂x is the "
              "partial derivative of F(x, W) by x, and ∂x/∂x is 1.",
        "zh": "莱布尼茨分式读作其分子的导数：∂F(x, W)/∂x 即 F(x, W) 对 x 的偏导数，∂x/∂x 等于 1。"},
    "note_unknown_gradient": {
        "en": "∂L/∂x_L of a name that is not declared (a loss) reads as one unknown value, the "
              "same wherever it is written the same way.",
        "zh": "未声明的名字（如损失）的 ∂L/∂x_L 读作一个未知值，写法相同处取值相同。"},
    "note_x_as_times": {"en": "The x between the numbers reads as a times sign: 9.54x10^-7 is "
                              "9.54×10^-7.",
                        "zh": "数字之间的 x 读作乘号：9.54x10^-7 即 9.54×10^-7。"},
    "note_approximate": {"en": "≈: in a derivation this line is checked as an approximation of "
                               "the line before.",
                         "zh": "≈：在推导中，这一行按近似值与上一行比较。"},
    "note_decimal_comma": {"en": "A comma separates numbers: 1,5 reads as the two numbers 1 and "
                                 "5. For one decimal number write 1.5.",
                           "zh": "逗号用于分隔数字：1,5 读作 1 和 5 两个数。若是一个小数，请写 1.5。"},
    "note_e_constant": {"en": "E reads as Euler's number e (this question has no name E).",
                        "zh": "E 读作自然常数 e（本题没有名为 E 的量）。"},
    "note_plus_minus": {"en": "± reads as a pair of values: 1 ± √2 is the two values 1 + √2 and "
                              "1 - √2, in that order.",
                        "zh": "± 读作一对值：1 ± √2 即 1 + √2 和 1 - √2 两个值，依此顺序。"},
    "note_percent": {"en": "A percent sign divides by 100: 12.5% reads as 0.125.",
                     "zh": "百分号表示除以 100：12.5% 读作 0.125。"},
    "note_letter_times_bracket": {"en": "A letter that is not a declared function multiplies what "
                                        "follows: f(x) reads as f·x.",
                                  "zh": "未声明为函数的字母与后面的括号相乘：f(x) 读作 f·x。"},
    "root_arguments": {"en": "write root(x, n) for the n-th root of x",
                       "zh": "x 的 n 次方根请写成 root(x, n)"},
    "names_other": {"en": "Your answer uses {names}; this question is about {about}.",
                    "zh": "你的答案用到了 {names}；本题的名字是 {about}。"},
    "names_case_slip": {"en": "Your answer uses {names}; this question is about {about} "
                              "(capital and small letters are different names).",
                        "zh": "你的答案用到了 {names}；本题的名字是 {about}（大写和小写字母是不同的"
                              "名字）。"},
    "names_unused": {"en": "Your answer uses {names}, which this question does not use.",
                     "zh": "你的答案用到了 {names}，本题并没有这个名字。"},
    "step_not_approximately": {"en": "Line {line} is not close enough to {before} "
                                     "(allowed: {tolerance}).",
                               "zh": "第 {line} 行与{before}相差超出允许范围（允许：{tolerance}）。"},
    "values_step": {"en": "This line gives {answer}, {before} gives {expected}.",
                    "zh": "这一行等于 {answer}，{before}等于 {expected}。"},
    # -- evaluating ---------------------------------------------------------------------------
    "add_shapes": {"en": "cannot add terms of different shapes ({shapes})",
                   "zh": "不能把形状不同的项相加（{shapes}）"},
    "matrix_division": {"en": "cannot divide by a matrix (use an inverse, e.g. A^-1)",
                        "zh": "不能除以矩阵（请用逆矩阵，如 A^-1）"},
    "mul_shapes": {"en": "cannot multiply a {left} matrix by a {right} matrix",
                   "zh": "不能将 {left} 矩阵与 {right} 矩阵相乘"},
    # vectors (issue 25): shape mistakes, named (sizes are the ones the checker sampled)
    "add_vector_scalar": {"en": "it adds a vector or matrix and a scalar ({shapes}); a scalar "
                                "cannot be added to a vector (a function declared under "
                                "functions but not under vectors returns a scalar: if it "
                                "returns a vector, declare it under vectors too)",
                          "zh": "把向量（或矩阵）与标量相加（{shapes}）；标量不能与向量相加（只在“函数”"
                                "中声明、未在“向量”中声明的函数取标量值：若它的值是向量，请同时在“向量”"
                                "中声明）"},
    "vector_mul_shapes": {"en": "the sizes do not fit in a product: a {left} matrix times a "
                                "{right} one (with the sizes the checker sampled; vectors are "
                                "columns). Is a transpose missing or extra, or a row written "
                                "where a column is meant?",
                          "zh": "乘积的尺寸不匹配：{left} 矩阵乘以 {right} 矩阵（按判分器抽样的尺寸，"
                                "向量为列向量）。是否缺少或多了转置，或把列向量写成了行向量？"},
    "vector_function_argument": {"en": "{name} is applied to an argument of another size than "
                                       "elsewhere in the derivation (it takes one column vector)",
                                 "zh": "{name} 的自变量与推导中其他地方的尺寸不同（它只接受一个列向量）"},
    "vector_function_order": {"en": "only the first derivative (the Jacobian) of {name} is known",
                              "zh": "只支持 {name} 的一阶导数（雅可比矩阵）"},
    "vector_derivative_order": {"en": "only first derivatives by a vector are checked (a "
                                      "Jacobian of a Jacobian is a third-order array)",
                                "zh": "只检查对向量的一阶导数（雅可比矩阵的雅可比是三阶数组）"},
    "vector_derivative_by": {"en": "{var} is not a column vector",
                             "zh": "{var} 不是列向量"},
    "jacobian_of_matrix": {"en": "the derivative of a matrix by a vector is not a matrix; "
                                 "differentiate a vector or a scalar",
                           "zh": "矩阵对向量求导不是矩阵；请对向量或标量求导"},
    "definition_shape": {"en": "the relation defining {name} does not give a column vector",
                         "zh": "定义 {name} 的关系式给出的不是列向量"},
    "gradient_needs_vector": {"en": "\\nabla_{var} needs {var} declared as a vector",
                              "zh": "\\nabla_{var} 要求 {var} 被声明为向量"},
    "shape_row_for_column": {"en": "This line is a row vector where {before} is a column "
                                   "vector (a transpose is missing or extra).",
                             "zh": "这一行是行向量，而{before}是列向量（缺少或多了一个转置）。"},
    "shape_transposed": {"en": "This line is a {rows}×{cols} matrix where {before} is "
                               "{cols}×{rows}: it is transposed (a Jacobian's rows are the "
                               "outputs, its columns the inputs).",
                         "zh": "这一行是 {rows}×{cols} 矩阵，而{before}是 {cols}×{rows} 矩阵："
                               "它被转置了（雅可比矩阵的行对应输出，列对应输入）。"},
    "shape_other": {"en": "This line is {answer}, {before} is {expected}.",
                    "zh": "这一行是{answer}，{before}是{expected}。"},
    "matrix_exponent": {"en": "a matrix cannot be an exponent", "zh": "矩阵不能作为指数"},
    "matrix_power": {"en": "a matrix power must be a whole number between -{limit} and {limit}",
                     "zh": "矩阵的幂必须是 -{limit} 到 {limit} 之间的整数"},
    "matrix_power_square": {"en": "only a square matrix has powers (this one is {shape})",
                            "zh": "只有方阵才能求幂（此矩阵为 {shape}）"},
    "singular_matrix": {"en": "the matrix has no inverse", "zh": "该矩阵不可逆"},
    "function_argument_shapes": {"en": "the arguments of {name} have different shapes",
                                 "zh": "{name} 的各个参数形状不同"},
    "cannot_evaluate": {"en": "this formula cannot be evaluated", "zh": "无法计算此公式"},
    # -- deciding -----------------------------------------------------------------------------
    "cannot_decide": {"en": "The grader could not decide whether your answer is equivalent; "
                            "please ask your instructor.",
                      "zh": "判分器无法确定你的答案是否等价，请咨询老师。"},
    "correct": {"en": "Correct.", "zh": "正确。"},
    "wrong_formula": {"en": "Not equivalent to the expected answer.",
                      "zh": "与标准答案不等价。"},
    "counterexample": {"en": "For example, with {point}: your answer gives {answer}, "
                             "the expected answer gives {expected}.",
                       "zh": "例如，取 {point} 时：你的答案等于 {answer}，标准答案等于 {expected}。"},
    "counterexample_step": {"en": "For example, with {point}: this line gives {answer}, {before} "
                                  "gives {expected}.",
                            "zh": "例如，取 {point} 时：这一行等于 {answer}，{before}等于 {expected}。"},
    # One side undefined where the other is a real number, when the two are real together on too
    # little to compare (grader/README.md, "Declared domains and the one real-domain rule").
    "domain_answer": {"en": "For example, with {point}: your answer is undefined (not a real "
                            "number) while the expected answer gives {expected}; the two are "
                            "not defined for the same values.",
                      "zh": "例如，取 {point} 时：你的答案无定义（不是实数），而标准答案等于 "
                            "{expected}；两者的定义域不同。"},
    "domain_expected": {"en": "For example, with {point}: the expected answer is undefined (not "
                              "a real number) while your answer gives {answer}; the two are not "
                              "defined for the same values.",
                        "zh": "例如，取 {point} 时：标准答案无定义（不是实数），而你的答案等于 "
                              "{answer}；两者的定义域不同。"},
    "domain_step_line": {"en": "For example, with {point}: this line is undefined (not a real "
                               "number) while {before} gives {expected}; the two are not defined "
                               "for the same values.",
                         "zh": "例如，取 {point} 时：这一行无定义（不是实数），而{before}等于 "
                               "{expected}；两者的定义域不同。"},
    "domain_step_before": {"en": "For example, with {point}: {before} is undefined (not a real "
                                 "number) while this line gives {answer}; the two are not "
                                 "defined for the same values.",
                           "zh": "例如，取 {point} 时：{before}无定义（不是实数），而这一行等于 "
                                 "{answer}；两者的定义域不同。"},
    # A right answer (or a verified step) whose real domain differs from the other side's: the
    # two are compared where both are real (grader/README.md, the one real-domain rule).
    "domain_note_answer": {"en": "Equal where both are defined; at {point} your answer is "
                                 "undefined (not a real number) while the expected answer is "
                                 "{expected}.",
                           "zh": "两者在都有定义处相等；取 {point} 时你的答案无定义（不是实数），"
                                 "而标准答案等于 {expected}。"},
    "domain_note_expected": {"en": "Equal where both are defined; at {point} the expected answer "
                                   "is undefined (not a real number) while your answer is "
                                   "{answer}.",
                             "zh": "两者在都有定义处相等；取 {point} 时标准答案无定义（不是实数），"
                                   "而你的答案等于 {answer}。"},
    "domain_note_step_line": {"en": "Equal where both are defined; at {point} this line is "
                                    "undefined (not a real number) while {before} is {expected}.",
                              "zh": "两者在都有定义处相等；取 {point} 时这一行无定义（不是实数），"
                                    "而{before}等于 {expected}。"},
    "domain_note_step_before": {"en": "Equal where both are defined; at {point} {before} is "
                                      "undefined (not a real number) while this line is "
                                      "{answer}.",
                                "zh": "两者在都有定义处相等；取 {point} 时{before}无定义（不是实数），"
                                      "而这一行等于 {answer}。"},
    "value_not_real": {"en": "a value that is not a real number", "zh": "非实数值"},
    "value_undefined": {"en": "an undefined value (outside its real domain, a division by zero "
                              "or an overflow)",
                        "zh": "无定义的值（超出实数定义域、除以零或溢出）"},
    "shape_mismatch": {"en": "Wrong shape: your answer is {answer}, the expected answer is "
                             "{expected}.",
                       "zh": "形状不对：你的答案是{answer}，标准答案是{expected}。"},
    "shape_scalar": {"en": "a scalar", "zh": "标量"},
    "shape_vector": {"en": "a vector of length {n}", "zh": "长度为 {n} 的向量"},
    "shape_matrix": {"en": "a {rows}×{cols} matrix", "zh": "{rows}×{cols} 矩阵"},
    "shape_square": {"en": "a matrix", "zh": "矩阵"},
    "shape_column": {"en": "a column vector", "zh": "列向量"},
    "shape_row": {"en": "a row vector", "zh": "行向量"},
    "malrule_match": {"en": "Not correct. {feedback}", "zh": "不正确。{feedback}"},
    "note_division_then_product": {
        "en": "A product written right after a division is multiplied, not divided: 1/2x reads "
              "as (1/2)·x. To divide by both, write 1/(2x).",
        "zh": "除号后面紧挨着的乘积是乘上去的，不算进分母：1/2x 读作 (1/2)·x。若要除以两者，"
              "请写 1/(2x)。"},
    "unreadable": {"en": "Could not read your answer at character {column}: {reason}.",
                   "zh": "第 {column} 个字符处无法读取你的答案：{reason}。"},
    "cannot_grade": {"en": "Your answer was read but cannot be graded: {reason}.",
                     "zh": "已读取你的答案，但无法判分：{reason}。"},
    "misconfigured": {"en": "The question is misconfigured (its {part} cannot be read: "
                            "{reason}). This is not your fault.",
                      "zh": "题目配置有误（其{part}无法读取：{reason}），这不是你的问题。"},
    "part_expected": {"en": "expected answer", "zh": "标准答案"},
    "part_malrule": {"en": "mal-rule", "zh": "错误规则"},
    "part_start": {"en": "starting line", "zh": "起始式"},
    "part_relations": {"en": "declared relations", "zh": "声明的递推关系"},
    "timeout": {"en": "Grading took too long and was stopped; please simplify your answer.",
                "zh": "判分超时已被终止，请简化你的答案。"},
    "bad_request": {"en": "Malformed request: {reason}", "zh": "请求格式错误：{reason}"},
    # -- numbers ------------------------------------------------------------------------------
    "needs_number": {"en": "a number is expected, but your answer contains {names}",
                     "zh": "此处需要数值，但你的答案含有 {names}"},
    "not_real": {"en": "your answer is not a real number", "zh": "你的答案不是实数"},
    "number_wrong": {"en": "Not within the tolerance ({tolerance}).",
                     "zh": "不在允许误差范围内（{tolerance}）。"},
    "entries_wrong": {"en": "Not within the tolerance ({tolerance}) at entries {entries}.",
                      "zh": "第 {entries} 个元素不在允许误差范围内（{tolerance}）。"},
    "entry_wrong": {"en": "Not within the tolerance ({tolerance}) at entry {entries}.",
                    "zh": "第 {entries} 个元素不在允许误差范围内（{tolerance}）。"},
    "entries_wrong_matrix": {"en": "Not within the tolerance ({tolerance}) at {entries}.",
                             "zh": "{entries}的元素不在允许误差范围内（{tolerance}）。"},
    "matrix_entry": {"en": "row {row}, column {col}", "zh": "第 {row} 行第 {col} 列"},
    "looks_transposed": {"en": "This looks like the transpose of the expected answer: rows and "
                               "columns are swapped.",
                         "zh": "这看起来是标准答案的转置：行和列互换了。"},
    "too_few_digits": {"en": "Give {n} significant figures (you gave {given}).",
                       "zh": "请给出 {n} 位有效数字（你给出了 {given} 位）。"},
    "tol_relative": {"en": "relative error {value}", "zh": "相对误差 {value}"},
    "tol_absolute": {"en": "absolute error {value}", "zh": "绝对误差 {value}"},
    "tol_sigfigs": {"en": "{value} significant figures", "zh": "{value} 位有效数字"},
    # -- numbers the way people round them; values that do not exist (issue 10, items 6-7) ------
    "number_infinite": {"en": "Your answer is infinite; the expected answer is a finite number.",
                        "zh": "你的答案是无穷大，而标准答案是一个有限的数。"},
    "undefined_value": {"en": "{what} is undefined", "zh": "{what} 无定义"},
    "undefined_division_everywhere": {
        "en": "it divides by {what}, which is 0 for every value of the variables, so it is "
              "undefined everywhere",
        "zh": "它除以 {what}，而该式对变量的任何取值都等于 0，因此处处无定义"},
    "undefined_log_everywhere": {
        "en": "it takes the logarithm of {what}, which is 0 for every value of the variables, so "
              "it is undefined everywhere",
        "zh": "它对 {what} 取对数，而该式对变量的任何取值都等于 0，因此处处无定义"},
    "undefined_power_everywhere": {
        "en": "it raises {what} to a negative power, and {what} is 0 for every value of the "
              "variables, so it is undefined everywhere",
        "zh": "它把 {what} 取负数次幂，而该式对变量的任何取值都等于 0，因此处处无定义"},
    "value_of_constant": {"en": "Your answer equals {answer}.", "zh": "你的答案等于 {answer}。"},
    "value_of_constant_step": {"en": "This line equals {answer}, {before} equals {expected}.",
                               "zh": "这一行等于 {answer}，{before}等于 {expected}。"},
    # -- derivations --------------------------------------------------------------------------
    "derivation_correct": {"en": "Every line follows from the one before, and the last line is "
                                 "the target.",
                           "zh": "每一行都由上一行推出，且最后一行就是目标式。"},
    "step_does_not_follow": {"en": "Line {line} does not follow from {before}.",
                             "zh": "第 {line} 行不能由{before}推出。"},
    # {before} above: the line a step was compared with (the last one before it that followed)
    "compared_line": {"en": "line {line}", "zh": "第 {line} 行"},
    "compared_start": {"en": "the starting line", "zh": "起始式"},
    "step_cannot_decide": {"en": "Line {line} could not be checked.",
                           "zh": "第 {line} 行无法验证。"},
    "step_cannot_decide_because": {"en": "Line {line} could not be checked: {reason}.",
                                   "zh": "第 {line} 行无法验证：{reason}。"},
    "step_unreadable": {"en": "Line {line} cannot be read: {reason}.",
                        "zh": "第 {line} 行无法读取：{reason}。"},
    "last_not_target": {"en": "Every line follows, but the last line is not the target.",
                        "zh": "每一行都成立，但最后一行不是目标式。"},
    "no_lines": {"en": "The derivation has no lines.", "zh": "推导没有任何一行。"},
    "too_many_lines": {"en": "The derivation has {count} lines; at most {limit} are checked at "
                             "once. Check it in parts of up to {limit} lines (start each part "
                             "from the last line of the one before).",
                       "zh": "推导共有 {count} 行，一次最多检查 {limit} 行。请分段检查，每段不超过 "
                             "{limit} 行（每段从上一段的最后一行开始）。"},
    "block_too_long": {"en": "The pasted derivation has {count} characters; at most {limit} are "
                             "checked at once. Check it in parts.",
                       "zh": "粘贴的推导共有 {count} 个字符，一次最多检查 {limit} 个。请分段检查。"},
    # -- question types -----------------------------------------------------------------------
    "choice_correct": {"en": "Correct.", "zh": "正确。"},
    "choice_wrong": {"en": "Not quite: {right} of {total} options judged correctly.",
                     "zh": "不完全正确：{total} 个选项中判断正确 {right} 个。"},
    "choice_wrong_single": {"en": "Not correct: that is not the right option.",
                            "zh": "不正确：这不是正确的选项。"},
    "choice_unknown": {"en": "unknown option id {ids}", "zh": "未知选项 {ids}"},
    "ordering_correct": {"en": "Correct order.", "zh": "顺序正确。"},
    "ordering_wrong": {"en": "Not in order: step {position} should not be \"{step}\".",
                       "zh": "顺序有误：第 {position} 步不应是“{step}”。"},
    "ordering_bad": {"en": "the answer must list each step id exactly once",
                     "zh": "答案必须恰好列出每个步骤一次"},
    "generated_summary": {"en": "{right} of {total} answers correct.",
                          "zh": "{total} 个答案中正确 {right} 个。"},
    "interview_not_graded": {"en": "Interview answers are compared with the rubric by you, not "
                                   "graded automatically.",
                             "zh": "面试题不自动判分，请对照评分要点自行检查。"},
}


LANGUAGES = ("en", "zh")


def language(lang: object) -> str:
    """The language to answer in: "zh" or "en"; anything else (missing, unknown) is English."""
    return lang if lang in LANGUAGES else "en"


# Between the items of a list inside one message ("row 1, column 2; row 2, column 1").
LIST_SEPARATOR = {"en": "; ", "zh": "、"}


def message(key: str, lang: str = "en", **params: object) -> str:
    entry = MESSAGES.get(key) or MESSAGES["cannot_evaluate"]
    template = entry.get(lang) or entry["en"]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
