"""Comparing parameters after Adam/AdamW steps between two runs of one program.

Adam divides each gradient element by its own running magnitude: an element's step is about
lr·sign(gradient) whatever the gradient's size. Where the gradient is zero in exact arithmetic (the
attention key's bias: a constant added to every score of a row, to which softmax is blind) or
smaller than its rounding error, each run's gradient is rounding noise, and Adam turns that noise
into a full step of about lr in either direction, on the CPU as on `npu` and between two CPU runs
that only sum in another order (`permuted` in the programs that use this). Such an element cannot be
compared with the gradient-level tolerance; it is compared within 2·lr per step (two steps of at
most lr in opposite directions). An element counts as such when the reference's gradient of any
step is within the gradient tolerance of zero (|g| <= atol): there the comparison of gradients cannot
tell its sign. Every other element keeps the tolerance rtol/atol.
"""

from __future__ import annotations

import torch


def undecided(grads_per_step: list[dict[str, torch.Tensor]], atol: float) -> dict[str, torch.Tensor]:
    """Per parameter, the elements whose gradient is within atol of zero at some step."""
    out: dict[str, torch.Tensor] = {}
    for grads in grads_per_step:
        for name, g in grads.items():
            small = g.abs() <= atol
            out[name] = out[name] | small if name in out else small
    return out


def allowed(
    ref: torch.Tensor, rtol: float, atol: float, free: torch.Tensor | None, lr: float, steps: int
) -> torch.Tensor:
    """The allowed |a - ref| per element."""
    base = atol + rtol * ref.abs()
    return base if free is None else torch.where(free, torch.full_like(base, 2 * lr * steps), base)


def params_match(
    a: dict[str, torch.Tensor],
    ref: dict[str, torch.Tensor],
    free: dict[str, torch.Tensor],
    rtol: float,
    atol: float,
    lr: float,
    steps: int,
) -> dict[str, object]:
    """Whether every parameter matches under the rule above; also whether all match at the plain
    tolerance, the parameters that do not, and how many elements the rule frees."""
    plain = sorted(n for n in ref if not torch.allclose(a[n], ref[n], rtol=rtol, atol=atol))
    ruled = sorted(
        n
        for n in ref
        if bool(((a[n] - ref[n]).abs() > allowed(ref[n], rtol, atol, free.get(n), lr, steps)).any())
    )
    beyond = {
        n: int(((a[n] - ref[n]).abs() > atol + rtol * ref[n].abs()).sum()) for n in plain
    }  # elements beyond the plain tolerance, per parameter
    freed_beyond = sum(
        int((((a[n] - ref[n]).abs() > atol + rtol * ref[n].abs()) & free[n]).sum())
        for n in plain
        if n in free
    )
    return {
        "match": not ruled, "plain_match": not plain, "differ": ruled, "plain_differ": plain,
        "beyond": beyond, "beyond_in_free": freed_beyond, "free": sum(int(f.sum()) for f in free.values()),
    }  # fmt: skip
