"""Conformance cases: resource variables (VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE) and CALL_ONCE, in every type
TFLite Micro's variables take. Each model accumulates its input into a variable, so the runner's consecutive
invocations (one TFLite Micro interpreter, one reset of the generated code) check the state carried between them.
The models are those of tests/compiler/test_resource_variables.py (which also checks that the state matters)."""

from case import Case
from test_resource_variables import accumulator

INITS = {"float32": 0.5, "int8": 7, "int16": -300, "int32": 123456}


def cases():
    out = []
    for dt in ("float32", "int8", "int16", "int32"):
        # int8 / int16 accumulate in a small range so that several invocations stay unsaturated
        fr = (-1.0, 1.0)
        for op in ("VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE"):
            out.append(Case(op, dt, "accumulator_default_value", accumulator(dt, shape=(2, 3)), float_range=fr))
            out.append(
                Case(
                    op, dt, "accumulator_call_once_init", accumulator(dt, shape=(3, 4), init=INITS[dt]), float_range=fr
                )
            )
        out.append(
            Case(
                "CALL_ONCE",
                dt,
                "init_then_accumulate",
                accumulator(dt, shape=(2, 5), init=INITS[dt]),
                qemu_sample=dt == "int8",
            )
        )
    out.append(
        Case(
            "CALL_ONCE",
            "float32",
            "init_subgraph_runs_an_add",
            accumulator("float32", shape=(4, 5), init=0.25, init_by_op=True),
        )
    )
    return out
