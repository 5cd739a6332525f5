"""Command line of the aot compiler: `aotc <command> [flags] ARGS`.

Commands live in compiler/commands (one module each) and register themselves in COMMANDS below. Flags are absl
flags, parsed after the command word. Errors in the input (the model, a flag, an inputs file) are CompileErrors:
printed as one paragraph on stderr with exit code 2, never as a traceback.
"""

import os
import sys

from absl import flags

from . import limits
from .budgets import parse_bytes
from .errors import CompileError

FLAGS = flags.FlagValues()
flags.DEFINE_string("prefix", None, "C prefix of every generated symbol (compile, testgen).", flag_values=FLAGS)
flags.DEFINE_string("out_dir", None, "Directory for the generated files (compile, testgen, report).", flag_values=FLAGS)
flags.DEFINE_string(
    "target", "host", "Core to generate code for: host or cortex-m0/m3/m4/m7/m33/m55.", flag_values=FLAGS
)
flags.DEFINE_string(
    "specialize",
    None,
    'Layer kinds made shape-specialized functions on cortex-m0/m3 (and "packed": two output channels per weight '
    "word): a comma-separated subset of conv, depthwise, fc, packed (the default: all four), or none.",
    flag_values=FLAGS,
)
flags.DEFINE_boolean(
    "strict_kernels",
    False,
    "compile, report: fail when a layer leaves the best kernels of its core "
    "because of its quantization parameters (naming each such layer and why).",
    flag_values=FLAGS,
)
flags.DEFINE_string(
    "inputs", None, "run: .npz with one array per model input (keys = input tensor names).", flag_values=FLAGS
)
flags.DEFINE_string(
    "outputs", None, "run: .npz to write the outputs to (keys = output tensor names).", flag_values=FLAGS
)
flags.DEFINE_string(
    "ram_budget", None, "compile: fail if the workspace exceeds this many bytes (e.g. 24K).", flag_values=FLAGS
)
flags.DEFINE_string(
    "flash_budget", None, "compile: fail if weights + parameters exceed this (e.g. 64K).", flag_values=FLAGS
)
flags.DEFINE_string(
    "mode", "exclusive", "workspace: exclusive (models run one at a time) or concurrent.", flag_values=FLAGS
)
flags.DEFINE_boolean(
    "compare_tflm", False, "report: also measure TFLite Micro's arena for the model.", flag_values=FLAGS
)
flags.DEFINE_string(
    "max_tensor_bytes", None, "Refuse models with a tensor larger than this (default 64M).", flag_values=FLAGS
)
flags.DEFINE_string(
    "max_weight_bytes", None, "Refuse models with more constant data than this (default 256M).", flag_values=FLAGS
)
flags.DEFINE_string("max_model_bytes", None, "Refuse model files larger than this (default 512M).", flag_values=FLAGS)
flags.DEFINE_boolean(
    "io_in_workspace",
    False,
    "compile, run: plan the inputs and outputs inside the workspace "
    "(accessors <prefix>_input_<name>(ws) / _output_<name>(ws); <prefix>_run(ws)).",
    flag_values=FLAGS,
)
flags.DEFINE_multi_string(
    "custom_op",
    [],
    "compile, report: run CUSTOM operator NAME with your C function, "
    "NAME=FUNCTION[,scratch=BYTES][,init=FUNCTION] (repeatable; crt/include/aot/user_kernel.h).",
    flag_values=FLAGS,
)
flags.DEFINE_multi_string(
    "offload",
    [],
    "compile, report: route built-in operators to your C function with the built-in "
    "kernel's arguments, PATTERN=FUNCTION[,init=FUNCTION]; PATTERN is an operator type "
    "(CONV_2D), #N (operator N) or name:GLOB (first output name) (repeatable).",
    flag_values=FLAGS,
)
flags.DEFINE_boolean("quiet", False, "Print nothing on success (Bazel actions use it).", flag_values=FLAGS)
flags.DEFINE_integer("count", 10, "testgen, refdata: number of seeded random input cases.", flag_values=FLAGS)
flags.DEFINE_multi_string(
    "freeze_input",
    [],
    "ONNX: compile a graph input as a constant, NAME=FILE.npy "
    "(repeatable; inputs with an initializer are constants already).",
    flag_values=FLAGS,
)
flags.DEFINE_multi_string(
    "dim", [], "ONNX: pin a symbolic input dimension, NAME=N (repeatable, e.g. --dim batch=1).", flag_values=FLAGS
)
flags.DEFINE_multi_string(
    "input_shape",
    [],
    "ONNX: the whole shape of a graph input, NAME=D0,D1,... (repeatable, e.g. --input_shape x=1,512), for "
    "dimensions the exporter left unnamed.",
    flag_values=FLAGS,
)
flags.DEFINE_integer("seed", 0, "testgen, refdata: seed of the random inputs.", flag_values=FLAGS)

USAGE = """usage: aotc <command> [flags] MODEL

commands:
  compile MODEL --prefix P --out_dir D [--target CORE] [--specialize conv,depthwise,fc|none] [--ram_budget 24K]
          [--flash_budget 64K] [--strict_kernels] [--custom_op NAME=FN[,scratch=N][,init=FN]]
          [--offload CONV_2D|#N|name:GLOB=FN[,init=FN]]
                  write P.h, P.c, P_weights.c and P.json (the model's C and its report)
  run MODEL --inputs IN.npz --outputs OUT.npz
                  compile for this machine with the system C compiler, run, write the outputs
  info MODEL      operators, tensors and the memory plan as tables
  report MODEL [--prefix P] [--out_dir D] [--compare_tflm]
                  per-layer MACs and kernels, workspace vs its lower bound, weights; with --out_dir also
                  P.json (every tensor's size/offset/lifetime) and P_plan.svg (the memory plan as a picture);
                  --compare_tflm: TFLite Micro's arena for the same model beside our workspace
  testgen MODEL --prefix P --out_dir D [--count N] [--seed S]
                  write P_test.c: seeded inputs, reference outputs from the oracle interpreter, a main() that
                  runs P_run() on each case and compares (bit-exact for int8)
  refdata MODEL --prefix P --out_dir D [--count N] [--seed S]
                  write P_ref.h / P_ref.c: seeded input cases and the reference outputs, for firmware checks
  workspace REPORT.json... --prefix NAME --out_dir D [--mode exclusive|concurrent]
                  write NAME_plan.svg: the models' plans as they share one workspace (what aot_workspace draws)
  bench [--only=kws,ad01]
                  the benchmark suite of this checkout (`bazel run //bench:bench`, see bench/README.md)

MODEL is a .tflite file. `aotc <command> --help` lists every flag.
"""


def _commands():
    from .commands import compile_cmd, info_cmd, refdata_cmd, report_cmd, run_cmd, testgen_cmd, workspace_cmd

    return {
        "report": (report_cmd.run_report, ()),
        "refdata": (refdata_cmd.run_refdata, ("prefix", "out_dir")),
        "compile": (compile_cmd.run_compile, ("prefix", "out_dir")),
        "run": (run_cmd.run_run, ("inputs",)),
        "info": (info_cmd.run_info, ()),
        "testgen": (testgen_cmd.run_testgen, ("prefix", "out_dir")),
        "workspace": (workspace_cmd.run_workspace, ("prefix", "out_dir")),
    }


# Commands that take several inputs instead of one MODEL.
_MANY_ARGS = ("workspace",)


def _fail(message: str) -> int:
    print(f"aotc: error: {' '.join(str(message).split())}", file=sys.stderr)
    return 2


def main(argv) -> int:
    prog = "aotc"
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if len(argv) >= 2 else 2
    command, rest = argv[1], list(argv[2:])
    if command == "bench":  # its flags are the benchmark runner's, not aotc's
        from .commands.bench_cmd import run_bench

        try:
            return run_bench(rest)
        except CompileError as e:
            return _fail(str(e))
    commands = _commands()
    if command not in commands:
        return _fail(f"unknown command '{command}'. Commands: {', '.join(sorted(commands))}.")
    if "--help" in rest or "-h" in rest:
        print(USAGE)
        print(FLAGS.main_module_help() if hasattr(FLAGS, "main_module_help") else "")
        return 0
    try:
        positional = FLAGS([prog] + rest)[1:]
    except flags.Error as e:
        return _fail(f"{e}. Run `aotc {command} --help` for the flags.")
    try:
        limits.configure(
            **{
                name: parse_bytes(getattr(FLAGS, name), "--" + name) if getattr(FLAGS, name) else None
                for name in ("max_tensor_bytes", "max_weight_bytes", "max_model_bytes")
            }
        )
    except CompileError as e:
        FLAGS.unparse_flags()
        return _fail(str(e))
    try:
        from . import driver
        from .frontend.onnx_reader import parse_dims, parse_frozen

        driver.ONNX_DIMS.clear()
        driver.ONNX_DIMS.update(parse_dims(FLAGS.dim))
        driver.ONNX_FROZEN.clear()
        driver.ONNX_FROZEN.update(parse_frozen(FLAGS.freeze_input))
        from .frontend.onnx_normalize import parse_input_shapes

        driver.ONNX_INPUT_SHAPES.clear()
        driver.ONNX_INPUT_SHAPES.update(parse_input_shapes(FLAGS.input_shape))
        from .ops.kernel_table import parse_specialize

        parse_specialize(FLAGS.specialize)  # a bad --specialize fails before any work
        from .user_kernels import options_from_flags as user_kernel_options

        user_kernel_options(FLAGS)
    except CompileError as e:
        FLAGS.unparse_flags()
        return _fail(str(e))
    fn, required = commands[command]
    missing = [f"--{name}" for name in required if not getattr(FLAGS, name)]
    if missing:
        return _fail(f"`{command}` needs {', '.join(missing)}.")
    if command in _MANY_ARGS:
        if not positional:
            return _fail(f"`{command}` needs at least one input file.")
    elif len(positional) != 1:
        return _fail(f"`{command}` takes exactly one MODEL argument, got {len(positional)}: {positional}.")
    try:
        return fn(positional if command in _MANY_ARGS else positional[0], FLAGS)
    except CompileError as e:
        return _fail(str(e))
    except Exception as e:  # noqa: BLE001 - the last line of defence: one paragraph, never a traceback
        if os.environ.get("AOT_DEBUG"):
            raise
        print(
            f"aotc: internal error: {type(e).__name__}: {' '.join(str(e).split())[:300]} (while running "
            f"`{command}` on {positional}). This is a bug in aot_rules, not in your model's format; please "
            "report it with the model. Set AOT_DEBUG=1 for the traceback.",
            file=sys.stderr,
        )
        return 3
    finally:
        FLAGS.unparse_flags()


def console_main() -> int:
    """The `aotc` console script."""
    return main(sys.argv)
