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
    "target",
    "host",
    "Core to generate code for: host or cortex-m0/m3/m4/m7/m33/m55 (compile, report).",
    flag_values=FLAGS,
)
flags.DEFINE_string(
    "specialize",
    None,
    'Layer kinds made shape-specialized functions on cortex-m0/m3 (and "packed": two output channels per weight '
    'word; "xpair": two output pixels per input word instead, int8 weights): a comma-separated subset of conv, '
    "depthwise, fc, packed, xpair (the default: all but xpair), or none.",
    flag_values=FLAGS,
)
flags.DEFINE_string(
    "optimize",
    None,
    "compile, report, blob: speed (the default: each layer's fastest kernel) or size (the smallest code: float32 "
    "layers take the portable kernels on every core; integer layers' kernels unchanged).",
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
flags.DEFINE_enum(
    "stack_opt",
    "O2",
    ["O2", "Os"],
    "report --target cortex-*: the optimization level of the static stack bound (O2: -c opt, Os: fastbuild).",
    flag_values=FLAGS,
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
flags.DEFINE_enum(
    "weights",
    "const",
    ["const", "blob"],
    "compile: const (arrays compiled into the image) or blob (P_weights.bin, bound at run time with "
    "P_bind_weights(); a blob of another model of the same architecture can replace it without relinking).",
    flag_values=FLAGS,
)
flags.DEFINE_string(
    "like",
    None,
    "blob: the P.json of the model compiled with --weights blob whose code must read the new blob.",
    flag_values=FLAGS,
)
flags.DEFINE_string("out", None, "blob: the weights blob to write.", flag_values=FLAGS)
flags.DEFINE_string(
    "embed",
    None,
    "blob: also write NAME.h / NAME.c beside --out: the blob as the const array NAME in the weights section.",
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
    "The whole shape of a model input, NAME=D0,D1,... (repeatable, e.g. --input_shape x=1,512): ONNX dimensions "
    "the exporter left unnamed; TFLite inputs whose signature has -1s (compiled at that size, not the stored one).",
    flag_values=FLAGS,
)
flags.DEFINE_string(
    "calibration",
    None,
    "quantize: .npz calibration set, one array per model input (key = input name), samples on the first axis.",
    flag_values=FLAGS,
)
flags.DEFINE_boolean(
    "per_channel", True, "quantize: int8 weights per output channel (--noper_channel: per tensor).", flag_values=FLAGS
)
flags.DEFINE_enum(
    "activations", "int8", ["int8", "uint8"], "quantize: activation type (a .tflite: int8 only).", flag_values=FLAGS
)
flags.DEFINE_float(
    "min_top1",
    None,
    "quantize: fail unless the quantized model picks the float model's top-1 class on at least this fraction of "
    "the calibration samples (classifier outputs, e.g. 0.95).",
    flag_values=FLAGS,
)
flags.DEFINE_float(
    "min_snr_db",
    None,
    "quantize: fail if an output's signal-to-noise ratio against the float model is under this (dB).",
    flag_values=FLAGS,
)
flags.DEFINE_float(
    "max_abs_error",
    None,
    "quantize: fail if an output's largest absolute error against the float model is over this.",
    flag_values=FLAGS,
)
flags.DEFINE_boolean(
    "qdq_exact",
    False,
    "ONNX QDQ models: run Conv and Gemm/MatMul as onnxruntime runs the QDQ graph (the integer product on float32 "
    "kernels, requantized once, half to even): bit-exact with onnxruntime, slower than the int8 kernels.",
    flag_values=FLAGS,
)
flags.DEFINE_integer("seed", 0, "testgen, refdata: seed of the random inputs.", flag_values=FLAGS)

# The flags every command that reads a model accepts (limits, and the ONNX input shaping).
_MODEL_FLAGS = (
    "dim",
    "input_shape",
    "freeze_input",
    "qdq_exact",
    "max_tensor_bytes",
    "max_weight_bytes",
    "max_model_bytes",
)
_KERNEL_FLAGS = ("target", "specialize", "optimize", "strict_kernels", "io_in_workspace", "custom_op", "offload")

# command -> (usage lines, the flags it reads). `aotc <command> --help` prints both, with each flag's help text;
# tests/compiler/test_cli_help.py checks that every flag a command's module reads is listed here.
COMMAND_HELP = {
    "compile": (
        """compile MODEL --prefix P --out_dir D [--target CORE] [--specialize conv,depthwise,fc|none]
          [--optimize speed|size]
          [--ram_budget 24K] [--flash_budget 64K] [--strict_kernels] [--io_in_workspace]
          [--custom_op NAME=FN[,scratch=N][,init=FN]] [--offload CONV_2D|#N|name:GLOB=FN[,init=FN]]
          [--dim NAME=N] [--input_shape NAME=D0,D1,...] [--freeze_input NAME=FILE.npy] [--weights const|blob]
                  write P.h, P.c, P_weights.c and P.json (the model's C and its report); with
                  --weights blob also P_weights.bin, the constants P_bind_weights() binds at run time""",
        ("prefix", "out_dir", "ram_budget", "flash_budget", "quiet", "weights") + _KERNEL_FLAGS + _MODEL_FLAGS,
    ),
    "blob": (
        """blob MODEL --like P.json --prefix P --out W.bin [--embed NAME] [the compile flags of P]
                  write the weights blob of MODEL for the code of P (compiled with --weights blob): fails,
                  naming the first differing operator, when MODEL's architecture is not P's""",
        ("like", "prefix", "out", "embed", "quiet") + _KERNEL_FLAGS + _MODEL_FLAGS,
    ),
    "run": (
        """run MODEL --inputs IN.npz --outputs OUT.npz [--io_in_workspace]
                  compile for this machine with the system C compiler, run, write the outputs""",
        ("inputs", "outputs", "prefix", "specialize", "io_in_workspace") + _MODEL_FLAGS,
    ),
    "info": ("""info MODEL      operators, tensors and the memory plan as tables""", _MODEL_FLAGS),
    "report": (
        """report MODEL [--prefix P] [--out_dir D] [--target CORE] [--compare_tflm]
                  per-layer MACs and kernels, workspace vs its lower bound, weights; with --out_dir also
                  P.json (every tensor's size/offset/lifetime) and P_plan.svg (the memory plan as a picture);
                  --compare_tflm: TFLite Micro's arena for the same model beside our workspace; for a Cortex-M
                  --target the worst-case stack of P_run, compiled with arm-none-eabi-gcc at --stack_opt""",
        ("prefix", "out_dir", "compare_tflm", "stack_opt") + _KERNEL_FLAGS + _MODEL_FLAGS,
    ),
    "testgen": (
        """testgen MODEL --prefix P --out_dir D [--count N] [--seed S]
                  write P_test.c: seeded inputs, reference outputs from the oracle interpreter (TFLite Micro
                  for .tflite, onnxruntime for .onnx), a main() that runs P_run() on each case and compares
                  (bit-exact for int8)""",
        ("prefix", "out_dir", "count", "seed", "quiet") + _MODEL_FLAGS,
    ),
    "refdata": (
        """refdata MODEL --prefix P --out_dir D [--count N] [--seed S]
                  write P_ref.h / P_ref.c: seeded input cases and the reference outputs, for firmware checks""",
        ("prefix", "out_dir", "count", "seed", "quiet") + _MODEL_FLAGS,
    ),
    "quantize": (
        """quantize MODEL.onnx|MODEL.tflite --calibration CALIB.npz --prefix P --out_dir D [--noper_channel]
          [--activations int8|uint8] [--min_top1 F] [--min_snr_db DB] [--max_abs_error E]
                  quantize a float ONNX model with onnxruntime's static quantizer (QDQ, int8 weights) into
                  P.onnx, or a float .tflite with ai-edge-quantizer (int8; optional dependency:
                  requirements_tflite_quantize.txt) into P.tflite; P_quantize.json: float-vs-int8 agreement on
                  the calibration set per output (top-1 for classifiers, SNR, max abs error); fails under a
                  threshold""",
        (
            "prefix",
            "out_dir",
            "calibration",
            "per_channel",
            "activations",
            "min_top1",
            "min_snr_db",
            "max_abs_error",
            "quiet",
            "max_model_bytes",
        ),
    ),
    "workspace": (
        """workspace REPORT.json... --prefix NAME --out_dir D [--mode exclusive|concurrent]
                  write NAME_plan.svg: the models' plans as they share one workspace (what aot_workspace draws)""",
        ("prefix", "out_dir", "mode", "quiet"),
    ),
    "crt": (
        """crt --out_dir D
                  write the C runtime (D/include, D/src) that generated code links against, for builds
                  without Bazel (compile D/src once per core with -I D/include)""",
        ("out_dir", "quiet"),
    ),
}

_BENCH_USAGE = """  bench [--only=kws,ad01]
                  the benchmark suite of this checkout (`bazel run //bench:bench`, see bench/README.md)
"""

_FOOTER = """
MODEL is a .tflite (TensorFlow Lite) or .onnx file. ONNX inputs with symbolic dimensions take --dim NAME=N
(e.g. --dim batch=1), --input_shape NAME=D0,D1,... an input's whole shape (dimensions the exporter left
unnamed; for TFLite, the -1 dimensions of an input's signature); --freeze_input NAME=FILE.npy compiles a
graph input as a constant. --io_in_workspace plans the inputs and outputs inside the workspace.
`aotc <command> --help` lists every flag of that command.
"""


def _in_checkout() -> bool:
    """True when this compiler runs from an aot_rules checkout (which has the benchmark suite), not a wheel."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.exists(os.path.join(root, "bench", "BUILD.bazel"))


def usage() -> str:
    body = "\n".join("  " + text for text, _ in COMMAND_HELP.values())
    return (
        "usage: aotc <command> [flags] MODEL\n\ncommands:\n"
        + body
        + "\n"
        + (_BENCH_USAGE if _in_checkout() else "")
        + _FOOTER
    )


def command_help(command: str) -> str:
    """The usage of `command` and every flag it reads, with its help text and default."""
    text, names = COMMAND_HELP[command]
    lines = ["usage: aotc " + text, "", "flags:"]
    for name in names:
        flag = FLAGS[name]
        default = "" if flag.default in (None, [], False) else f" (default: {flag.default})"
        lines.append(f"  --{name}: {flag.help}{default}")
    return "\n".join(lines) + "\n" + _FOOTER


def _commands():
    from .commands import (
        blob_cmd,
        compile_cmd,
        crt_cmd,
        info_cmd,
        quantize_cmd,
        refdata_cmd,
        report_cmd,
        run_cmd,
        testgen_cmd,
        workspace_cmd,
    )

    return {
        "crt": (crt_cmd.run_crt, ("out_dir",)),
        "report": (report_cmd.run_report, ()),
        "refdata": (refdata_cmd.run_refdata, ("prefix", "out_dir")),
        "compile": (compile_cmd.run_compile, ("prefix", "out_dir")),
        "blob": (blob_cmd.run_blob, ("like", "prefix", "out")),
        "run": (run_cmd.run_run, ("inputs",)),
        "info": (info_cmd.run_info, ()),
        "quantize": (quantize_cmd.run_quantize, ("prefix", "out_dir", "calibration")),
        "testgen": (testgen_cmd.run_testgen, ("prefix", "out_dir")),
        "workspace": (workspace_cmd.run_workspace, ("prefix", "out_dir")),
    }


# Commands that take several inputs instead of one MODEL, and those that take none.
_MANY_ARGS = ("workspace",)
_NO_ARGS = ("crt",)


def _fail(message: str) -> int:
    print(f"aotc: error: {' '.join(str(message).split())}", file=sys.stderr)
    return 2


def main(argv) -> int:
    prog = "aotc"
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(usage())
        return 0 if len(argv) >= 2 else 2
    command, rest = argv[1], list(argv[2:])
    if command == "bench" and _in_checkout():  # its flags are the benchmark runner's, not aotc's
        from .commands.bench_cmd import run_bench

        try:
            return run_bench(rest)
        except CompileError as e:
            return _fail(str(e))
    commands = _commands()
    if command not in commands:
        return _fail(f"unknown command '{command}'. Commands: {', '.join(sorted(commands))}.")
    if "--help" in rest or "-h" in rest:
        print(command_help(command))
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
        from .frontend.shape_flags import parse_dims, parse_frozen, parse_input_shapes

        driver.ONNX_DIMS.clear()
        driver.ONNX_DIMS.update(parse_dims(FLAGS.dim))
        driver.ONNX_FROZEN.clear()
        driver.ONNX_FROZEN.update(parse_frozen(FLAGS.freeze_input))
        driver.ONNX_INPUT_SHAPES.clear()
        driver.ONNX_INPUT_SHAPES.update(parse_input_shapes(FLAGS.input_shape))
        from .frontend import qdq_mode

        qdq_mode.EXACT = FLAGS.qdq_exact
        from .ops.kernel_table import parse_optimize, parse_specialize

        parse_specialize(FLAGS.specialize)  # a bad --specialize or --optimize fails before any work
        parse_optimize(FLAGS.optimize)
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
    elif command in _NO_ARGS:
        if positional:
            return _fail(f"`{command}` takes no arguments, got {positional}.")
        positional = [None]
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
        from .frontend import qdq_mode

        qdq_mode.EXACT = False  # a process that runs several commands (the tests) starts each without it


def console_main() -> int:
    """The `aotc` console script."""
    return main(sys.argv)
