"""One rank of a torchrun job over the hccl backend: each collective of torch.distributed on device
`npu` (all_reduce, broadcast, all_gather in list and tensor form, reduce_scatter in list and tensor
form, barrier), under a CommunicationMonitor, then DDP training of a small model, three
SGD steps on every rank's own batch, beside the same DDP run on the CPU over a gloo group of the
same ranks. Prints one line, ``RANK <json>``: the collectives' results, the COMMUNICATION records the
process got (name, device, communicator) and whether the DDP runs agree (fp32: rtol 1e-5, atol 1e-6).

argv[1]: ``collectives``, ``ddp`` or ``all`` (both); argv[2]: the package whose CommunicationMonitor
records (``mspti``, the vendor-compatible one, or ``mspti_core``; default ``mspti_core``)."""

import importlib
import os
import sys

import torch
import torch.distributed as dist
import torch_npu  # noqa: F401  (registers the npu device)
from result_line import write_result
from torch.nn.parallel import DistributedDataParallel

what = sys.argv[1] if len(sys.argv) > 1 else "all"
package = importlib.import_module(sys.argv[2] if len(sys.argv) > 2 else "mspti_core")
dist.init_process_group(backend="hccl", init_method="env://")
rank, world = dist.get_rank(), dist.get_world_size()
torch.npu.set_device(int(os.environ["LOCAL_RANK"]))
line: dict[str, object] = {"rank": rank, "world": world}


def collectives() -> dict[str, bool]:
    """Each collective on `npu`, checked against the value every rank can compute alone."""
    ok: dict[str, bool] = {}
    base = torch.arange(8, dtype=torch.float32)
    mine = base + 10 * rank  # rank r holds base + 10 r

    x = mine.npu()
    dist.all_reduce(x)
    ok["all_reduce"] = torch.equal(x.cpu(), world * base + 10 * sum(range(world)))

    x = mine.npu()
    dist.broadcast(x, src=world - 1)
    ok["broadcast"] = torch.equal(x.cpu(), base + 10 * (world - 1))

    gathered = [torch.empty(8).npu() for _ in range(world)]
    dist.all_gather(gathered, mine.npu())
    ok["all_gather_list"] = all(torch.equal(g.cpu(), base + 10 * r) for r, g in enumerate(gathered))

    flat = torch.empty(8 * world).npu()
    dist.all_gather_into_tensor(flat, mine.npu())
    ok["all_gather_tensor"] = torch.equal(flat.cpu(), torch.cat([base + 10 * r for r in range(world)]))

    # Rank r contributes chunk c = base + 10 r + 100 c; rank c receives the sum over r of its chunk.
    chunks = [(base + 10 * rank + 100 * c).npu() for c in range(world)]
    out = torch.empty(8).npu()
    dist.reduce_scatter(out, chunks)
    want = world * base + 10 * sum(range(world)) + 100 * world * rank
    ok["reduce_scatter_list"] = torch.equal(out.cpu(), want)

    out = torch.empty(8).npu()
    dist.reduce_scatter_tensor(out, torch.cat([c.cpu() for c in chunks]).npu())
    ok["reduce_scatter_tensor"] = torch.equal(out.cpu(), want)

    dist.barrier()
    ok["barrier"] = True  # every rank got past it (a rank that hangs fails the test by its timeout)
    torch.npu.synchronize()
    return ok


def ddp_run(device: str, group: dist.ProcessGroup | None) -> dict[str, object]:
    """Three SGD steps of a DDP model on `device`; rank r trains on its own batch."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU("tanh"), torch.nn.Linear(32, 4)).to(
        device
    )
    ddp = DistributedDataParallel(model, process_group=group)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    data = torch.Generator().manual_seed(100 + rank)
    x, y = torch.randn(8, 16, generator=data), torch.randn(8, 4, generator=data)
    losses, grads = [], []
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(ddp(x.to(device)), y.to(device))
        loss.backward()
        grads.append([p.grad.detach().cpu().clone() for p in model.parameters()])
        opt.step()
        losses.append(loss.detach().cpu())
    return {"losses": losses, "grads": grads, "params": [p.detach().cpu() for p in model.parameters()]}


def close(a: list[torch.Tensor], b: list[torch.Tensor]) -> bool:
    return all(torch.allclose(x, y, rtol=1e-5, atol=1e-6) for x, y in zip(a, b, strict=True))


if what in ("collectives", "all"):
    records: list[list[object]] = []
    monitor = package.CommunicationMonitor()
    monitor.start(lambda r: records.append([r.name, r.device_id, r.comm_name]))
    line["collectives"] = collectives()
    monitor.stop()
    line["records"] = records

if what in ("ddp", "all"):
    npu = ddp_run("npu", None)
    cpu = ddp_run("cpu", dist.new_group(backend="gloo"))
    line["ddp"] = {
        "losses": close(npu["losses"], cpu["losses"]),
        "grads": all(close(a, b) for a, b in zip(npu["grads"], cpu["grads"], strict=True)),
        "params": close(npu["params"], cpu["params"]),
        "npu_losses": [float(v) for v in npu["losses"]],
    }
    # The averaged gradient is the same on every rank, so are the parameters after the steps.
    params = torch.cat([p.flatten() for p in npu["params"]]).npu()
    everyone = [torch.empty_like(params) for _ in range(world)]
    dist.all_gather(everyone, params)
    line["ddp"]["same_on_every_rank"] = all(torch.equal(e.cpu(), params.cpu()) for e in everyone)

dist.destroy_process_group()
# The ranks share torchrun's stdout: the line goes out in one write (result_line).
write_result(line, "RANK ")
