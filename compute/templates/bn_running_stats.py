"""BatchNorm's batch statistics and running averages in one training step (normalization).

For one channel with the n values x_1..x_n of a batch (spatial size 1), in training mode:

    mu_B      = (1/n) sum x_i                              the batch mean (normalizes the batch)
    var_B     = (1/n) sum (x_i - mu_B)^2                   the biased batch variance (normalizes it)
    run_mean' = (1 - m) run_mean + m mu_B                  PyTorch's momentum m (default 0.1)
    run_var'  = (1 - m) run_var  + m (n / (n - 1)) var_B   the running variance takes the
                                                           unbiased estimate

(PyTorch's `momentum` is the weight of the new batch; Keras' `momentum=0.99` is the weight of the
old running value, i.e. m = 0.01 here.) torch runs a real `nn.BatchNorm1d(1, momentum=m)` in
training mode on the batch and reads its buffers; the batch statistics are torch's mean and
biased variance. A mean that cancels to zero is snapped at its scale (compute.zeros); a variance
is never zero (a batch of equal values is redrawn).
"""

from __future__ import annotations

from compute import backend
from compute.params import ParamReader
from compute.templates._draw import grid, pick, size
from compute.texfmt import fill, key, num, operand, seq
from compute.zeros import snap_float

NAME = "bn_running_stats"
MAX_ABS = 1e6
MAX_N = 64

# difficulty -> (batch sizes, value grid, momenta, running-mean grid, running-var grid)
LEVELS = {
    "easy": ((4, 4), (-4, 4, 1), (0.1,), (-1, 1, 0.5), (0.5, 2, 0.5)),
    "medium": ((4, 5), (-3, 3, 0.5), (0.1, 0.2, 0.5), (-2, 2, 0.1), (0.2, 3, 0.1)),
    "hard": ((5, 6), (-3, 3, 0.1), (0.01, 0.05, 0.1, 0.3), (-2, 2, 0.01), (0.1, 3, 0.01)),
}


def draw(rng, difficulty):
    sizes, values, momenta, means, variances = LEVELS[difficulty]
    n = size(rng, *sizes)
    return {"x": grid(rng, *values, shape=n), "momentum": pick(rng, momenta),
            "running_mean": grid(rng, *means), "running_var": grid(rng, *variances)}


def degenerate(params):
    # A batch of equal values has variance 0: a corner case, not the step to practise.
    return len(set(params["x"])) == 1


def check(params):
    r = ParamReader(NAME, params)
    x = r.vector("x", max_len=MAX_N)
    if x is not None and len(x) < 2:
        r.fail("x", "needs at least 2 values (the unbiased variance divides by n - 1)")
    out = {"x": x, "momentum": r.number("momentum", lo=0, hi=1, lo_open=True),
           "running_mean": r.number("running_mean", lo=-MAX_ABS, hi=MAX_ABS),
           "running_var": r.number("running_var", lo=0, hi=MAX_ABS)}
    r.finish()
    return out


def answer(params):
    torch = backend.torch()
    x = torch.tensor(params["x"], dtype=torch.float64)
    m = params["momentum"]
    bn = torch.nn.BatchNorm1d(1, momentum=m, dtype=torch.float64)
    with torch.no_grad():
        bn.running_mean.fill_(params["running_mean"])
        bn.running_var.fill_(params["running_var"])
        bn.train()
        bn(x.view(-1, 1))
    n = len(params["x"])
    mean_scale = x.abs().mean().item()
    return {
        "batch_mean": snap_float(x.mean().item(), mean_scale, terms=n),
        "batch_var": x.var(unbiased=False).item(),
        "running_mean": snap_float(bn.running_mean.item(),
                                   (1 - m) * abs(params["running_mean"]) + m * mean_scale,
                                   terms=n),
        "running_var": bn.running_var.item(),
    }


def explain(params, answers):
    x, m, n = params["x"], params["momentum"], len(params["x"])
    unbiased = answers["batch_var"] * n / (n - 1)
    v = {"x": seq(x), "n": str(n), "nm1": str(n - 1), "m": num(m), "one_m": num(1 - m),
         "rm": num(params["running_mean"]), "rmop": operand(params["running_mean"]),
         "rv": num(params["running_var"]),
         "mu": key(answers["batch_mean"]), "muop": operand(answers["batch_mean"]),
         "var": key(answers["batch_var"]), "unb": num(unbiased, 6),
         "rm2": key(answers["running_mean"]), "rv2": key(answers["running_var"]),
         "sum": " + ".join(operand(v) if i else num(v) for i, v in enumerate(x))}
    # The setting only: what to compute is asked by the question (or the exercise's boxes).
    prompt = {
        "en": fill("A BatchNorm layer in training mode sees, for one channel, the $@n$ values "
                   "$x = @x$ of a batch. Before this step its running mean is $@rm$ and its "
                   "running variance $@rv$; momentum $m = @m$ (PyTorch's convention: "
                   r"$\text{new} = (1-m)\,\text{old} + m\,\text{batch statistic}$).", **v),
        "zh": fill("训练模式下的 BatchNorm 层在一个通道上收到一个批的 $@n$ 个值 $x = @x$。这一步之前，"
                   "它的滑动平均均值为 $@rm$，滑动平均方差为 $@rv$；动量 $m = @m$（PyTorch 的约定："
                   r"$\text{新值} = (1-m)\,\text{旧值} + m\,\text{批统计量}$）。", **v),
    }
    steps = (r"$$\mu_B = \frac{@sum}{@n} = @mu$$" "\n\n"
             r"$$\sigma_B^2 = \frac1{@n}\sum_i (x_i - @muop)^2 = @var$$" "\n\n"
             r"$$\frac{@n}{@nm1}\,\sigma_B^2 = @unb$$" "\n\n"
             r"$$\hat\mu \leftarrow @one_m \times @rmop + @m \times @muop = @rm2$$" "\n\n"
             r"$$\hat\sigma^2 \leftarrow @one_m \times @rv + @m \times @unb = @rv2$$")
    solution = {
        "en": fill("The batch is normalized with its own mean and its biased variance (divided "
                   "by $n$); the running variance is updated with the unbiased estimate "
                   "(divided by $n-1$):\n\n" + steps, **v),
        "zh": fill("这一批用它自己的均值和有偏方差（除以 $n$）做归一化；滑动平均方差则用无偏估计"
                   "（除以 $n-1$）更新：\n\n" + steps, **v),
    }
    return prompt, solution
