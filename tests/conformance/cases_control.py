"""Conformance cases: IF and WHILE with constant-shape subgraphs (compiled to plain C if/else and loops). The runner
gives random inputs: the bool condition of IF picks both branches among them; the WHILE models run a fixed
number of rounds given by constants. Bit-exact branches, loop counts and nesting are tested further in
tests/compiler/test_control_flow.py, whose model builders these are."""

import numpy as np

from builders import ModelBuilder
from case import Case
from test_control_flow import _o, if_model, while_model


def counted_loop(rounds, dtype="int8", q=(0.05, -3)):
    """acc = x; repeat `rounds` times: acc = ADD(acc, x) (int8: saturating), the counter a constant-started loop
    value compared with a constant bound in the condition subgraph."""

    def build():
        b = ModelBuilder()
        x = b.input("x", [2, 3], dtype, *q)
        i0 = b.const("i0", np.zeros([1], np.int32), "int32")
        spec = [("i", [1], "int32", (None, None)), ("x", [2, 3], dtype, q), ("acc", [2, 3], dtype, q)]
        cond = b.subgraph()
        ci = [cond.input(nm, s, d, *qq) for nm, s, d, qq in spec]
        bound = cond.const("bound", np.full([1], rounds, np.int32), "int32")
        cond.output(cond.op("LESS", [ci[0], bound], out=cond.tensor("go", [1], "bool")))
        body = b.subgraph()
        bi = [body.input(nm, s, d, *qq) for nm, s, d, qq in spec]
        one = body.const("one", np.ones([1], np.int32), "int32")
        i1 = body.op("ADD", [bi[0], one], out=body.tensor("i1", [1], "int32"))
        acc1 = body.op("ADD", [bi[2], bi[1]], out=body.tensor("acc1", [2, 3], dtype, *q))
        body.output(i1, bi[1], acc1)
        outs = [b.tensor(f"{nm}_out", s, d, *qq) for nm, s, d, qq in spec]
        b.op(
            "WHILE",
            [i0, x, x],
            out=outs,
            options=_o("WhileOptionsT", condSubgraphIndex=cond.index, bodySubgraphIndex=body.index),
        )
        b.output(outs[2])
        return b

    return build


def cases():
    out = [
        Case("IF", dt, f"{t.lower()}_else_{e.lower()}", if_model(dt, (2, 3), t, e, qo))
        for dt, t, e, qo in (
            ("float32", "ADD", "SUB", None),
            ("int8", "ADD", "SUB", (0.1, 5)),
            ("int16", "MUL", "ADD", (0.004, 0)),
            ("int32", "SUB", "MUL", None),
        )
    ]
    out.append(Case("IF", "float32", "two_outputs_pass_through", if_model("float32", (3, 4), two_ops=True)))
    out += [
        Case(
            "WHILE",
            "float32",
            "bound_from_input_nested_if",
            while_model(nested_if=True),
            only_extra=True,
            extra_inputs=tuple(
                (np.array([n], np.int32), np.linspace(-1, 1, 4, dtype=np.float32), np.full(4, 0.25, np.float32))
                for n in (0, 1, 4, 9)
            ),
        )
    ]
    out += [
        Case("WHILE", dt, f"{r}_rounds", counted_loop(r, dt, q), qemu_sample=(dt, r) == ("int8", 3))
        for dt, q in (("int8", (0.05, -3)), ("float32", (None, None)))
        for r in (0, 3)
    ]
    return out
