"""STATE-01: random call sequences against the reference model."""

from __future__ import annotations

from conformance.checks import CheckContext
from conformance.execute import Invocation
from conformance.scenarios.registry import ScenarioEnv, scenario

DEFAULT_EXAMPLES = 20


@scenario(
    "stateful", "Hypothesis-generated call sequences judged by the reference model", needs=("mspti", "mstx")
)
def stateful(env: ScenarioEnv) -> list[Invocation]:
    return []  # the checker starts its processes as the search goes


@stateful.checker
def check_stateful(ctx: CheckContext) -> None:
    with ctx.clause("STATE-01") as c:
        try:
            from conformance.stateful.explore import explore
        except ImportError as error:
            c.skip(f"the stateful search needs Hypothesis ({error})")
        examples = int(ctx.options.get("stateful_examples", DEFAULT_EXAMPLES))
        seed = int(ctx.options.get("stateful_seed", 0))
        result = explore(
            ctx.execute, profile=ctx.profile, acl="acl" in ctx.features, examples=examples, seed=seed
        )
        c.check(result.examples > 0, "no sequence was run")
        if result.failure is None:
            c.check(
                True, "", f"{result.examples} random sequences agreed with the model ({result.runs} runs)"
            )
        else:
            failure = result.failure
            c.fail(
                f"a sequence of {len(failure.commands)} command(s) disagrees with the model: "
                + "; ".join(failure.problems[:5])
            )
            c.note("minimal program:\n" + failure.script)
            for note in result.notes:
                c.note(note)
