"""The comparison of the operator programs: each case runs on the CPU and on device `npu`, and its
tensors are compared (fp32: rtol 1e-5, atol 1e-6; exactly for integer and bool results).

A case is a run: a function of the device name ("cpu", then "npu") that returns the tensors to
compare, on the CPU. `function_run` and `module_run` make the usual ones, forward and backward (the
backward of the output weighted by a ramp from -1 to 1, so that every element's gradient differs).
`Results` holds each case's result by name, True, False or the first line of the RuntimeError the case
raised (so that one failure names itself and the other cases still run), and writes the program's
result line. The program imports torch_npu itself; this module needs only torch."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import torch
from result_line import write_result

RTOL, ATOL = 1e-5, 1e-6
#: The order the devices run in.
DEVICES = ("cpu", "npu")

Run = Callable[[str], Sequence[torch.Tensor]]


def close(a: torch.Tensor, b: torch.Tensor, *, equal_nan: bool = False) -> bool:
    """The same shape and every element within rtol 1e-5 / atol 1e-6."""
    return a.shape == b.shape and torch.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=equal_nan)


def paired(run: Run) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """`run`'s tensors on npu each with its counterpart on the cpu (ValueError if their numbers differ)."""
    cpu, npu = (list(run(device)) for device in DEVICES)
    return list(zip(npu, cpu, strict=True))


def agree(run: Run, *, exact: bool = False, equal_nan: bool = False) -> bool:
    """Whether `run` gives on npu the tensors it gives on the cpu: close (nan equal to nan if
    `equal_nan`), or equal if `exact`."""
    pairs = paired(run)
    if exact:
        return all(torch.equal(a, b) for a, b in pairs)
    return all(close(a, b, equal_nan=equal_nan) for a, b in pairs)


def weighted_sum(y: torch.Tensor) -> torch.Tensor:
    """The scalar a backward starts from: y's elements weighted by a ramp from -1 to 1."""
    return (y * torch.linspace(-1, 1, y.numel()).reshape(y.shape).to(y.device)).sum()


def function_run(
    fn: Callable[..., torch.Tensor | Sequence[torch.Tensor]], *inputs: torch.Tensor, backward: bool = True
) -> Run:
    """fn over copies of `inputs` on the device: its output (or each of the tuple or list of outputs
    it returns) and, if `backward`, each input's gradient after the backward of the outputs' weighted
    sums (forward only: the inputs still require gradients, as in the backward runs)."""

    def run(device: str) -> list[torch.Tensor]:
        args = [t.clone().to(device).requires_grad_() for t in inputs]
        out = fn(*args)
        several = isinstance(out, (tuple, list))
        outputs = list(out) if several else [out]
        if not backward:
            return [y.detach().cpu() for y in outputs]
        # One output: its weighted sum alone (sum() would add it to 0, one more operator on the device).
        loss = sum(weighted_sum(y) for y in outputs) if several else weighted_sum(out)
        loss.backward()
        return [*(y.detach().cpu() for y in outputs), *(a.grad.cpu() for a in args)]

    return run


def module_run(build: Callable[[], torch.nn.Module], x: torch.Tensor) -> Run:
    """The module `build` makes after torch.manual_seed(0), moved to the device, over a copy of x:
    its output, the input's gradient and its parameters' gradients after the backward of the output's
    weighted sum, and its buffers (a batch norm's running statistics)."""

    def run(device: str) -> list[torch.Tensor]:
        torch.manual_seed(0)
        module = build().to(device)
        inp = x.clone().to(device).requires_grad_()
        y = module(inp)
        weighted_sum(y).backward()
        grads = [p.grad.cpu() for p in module.parameters()]
        return [y.detach().cpu(), inp.grad.cpu(), *grads, *(b.cpu() for b in module.buffers())]

    return run


def error_line(error: RuntimeError) -> str:
    """A case's result when it raised: the first line of the error, up to 200 characters."""
    return (str(error).splitlines() or [""])[0][:200]


class Results(dict[str, object]):
    """Each case's result by name, in the order the cases ran."""

    @contextmanager
    def case(self, *names: str) -> Iterator[None]:
        """The body computes the results of `names`; a RuntimeError it raises becomes the result of
        each of them, and the program goes on."""
        try:
            yield
        except RuntimeError as error:
            for name in names:
                self[name] = error_line(error)

    def compare(self, name: str, run: Run, *, exact: bool = False, equal_nan: bool = False) -> None:
        """The case `name`: whether `run` agrees on npu and the cpu (`agree`)."""
        with self.case(name):
            self[name] = agree(run, exact=exact, equal_nan=equal_nan)

    def write(self) -> None:
        """The program's result line."""
        write_result(self)
