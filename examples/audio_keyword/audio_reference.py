"""Build-time reference of the audio-to-keyword example: the synthetic clip, and what TFLite Micro computes from it.

The clip (synth_clip.py, seeded) goes through the two models in the `tflite_micro` Python interpreter exactly as
TFLite Micro's micro_speech example chains them: one interpreter of the audio preprocessor, invoked on successive
30 ms windows (480 samples) 20 ms (320 samples) apart so its state (the spectral subtraction's noise estimate)
carries from one window to the next; each invocation's 40 int8 features become one row of the 49x40 matrix, which is
the classifier's input (1x1960, row-major). The classifier's int8 scores are the expected output.

With `--float_preprocessor` (audio_preprocessor_float.tflite, the same front-end with float32 features), the same
windows also go through that model in its own interpreter, and its 49x40 float features are written as IEEE-754 bit
patterns, so the firmware can check them bit for bit as well.

Writes `<name>.h` / `<name>.c`: the clip, the framing (window, stride, frame count), the expected feature matrix and
scores, and the category labels, under the `audio_ref_` / `AUDIO_REF_` names; the firmware (main.c) recomputes all
of it with the AOT-compiled models and compares bit for bit.

    audio_reference.py --preprocessor audio_preprocessor_int8.tflite --classifier micro_speech_quantized.tflite \
        [--float_preprocessor audio_preprocessor_float.tflite] --seed 16 --out_dir DIR [--name audio_ref]
"""

import argparse
import os
import sys

import numpy as np

if __package__ in (None, ""):
    # Run as a script (Bazel's py_binary or by hand): the repository root holds the `compiler` package.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compiler.driver import load_model  # noqa: E402
from compiler.errors import CompileError  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402
from synth_clip import SAMPLE_RATE, frame_starts, stride_samples, synth_clip  # noqa: E402

# The classifier's categories, in output order (micro_speech_quantized's training labels; the .tflite has none).
LABELS = ("silence", "unknown", "yes", "no")


def reference(preprocessor, classifier, seed):
    """(clip, window, stride, starts, features [frames, feature_size] int8, scores int8, classifier graph)."""
    pre = load_model(preprocessor)
    cls = load_model(classifier)
    if (
        len(pre.inputs) != 1
        or pre.inputs[0].dtype != "int16"
        or len(pre.outputs) != 1
        or pre.outputs[0].dtype != "int8"
    ):
        raise CompileError(
            f"{preprocessor}: expected one int16 audio input and one int8 feature output "
            "(TFLite Micro's audio_preprocessor_int8)"
        )
    if len(cls.inputs) != 1 or cls.inputs[0].dtype != "int8" or len(cls.outputs) != 1 or cls.outputs[0].dtype != "int8":
        raise CompileError(
            f"{classifier}: expected one int8 feature input and one int8 score output "
            "(TFLite Micro's micro_speech_quantized)"
        )
    window = int(np.prod(pre.inputs[0].shape))
    feature_size = int(np.prod(pre.outputs[0].shape))
    matrix = int(np.prod(cls.inputs[0].shape))
    if matrix % feature_size:
        raise CompileError(
            f"{classifier}: its input ({matrix} values) is not a whole number of "
            f"{feature_size}-value feature rows of {preprocessor}"
        )
    frames = matrix // feature_size
    stride = stride_samples()
    clip = synth_clip(seed)
    starts = frame_starts(len(clip), frames, window, stride)
    if len(starts) != frames:
        raise CompileError(
            f"a {len(clip)}-sample clip gives {len(starts)} windows of {window} samples every "
            f"{stride}, the classifier needs {frames}"
        )
    # One interpreter for all windows (tflm_outputs keeps it across cases), as micro_speech keeps one.
    cases = [[clip[s : s + window].reshape(pre.inputs[0].shape)] for s in starts]
    features = np.stack([np.asarray(o[0]).reshape(-1) for o in tflm_outputs(preprocessor, cases, 1)])
    scores = np.asarray(tflm_outputs(classifier, [[features.reshape(cls.inputs[0].shape)]], 1)[0][0]).reshape(-1)
    if len(scores) != len(LABELS):
        raise CompileError(f"{classifier}: {len(scores)} scores, expected {len(LABELS)} ({', '.join(LABELS)})")
    return clip, window, stride, starts, features.astype(np.int8), scores.astype(np.int8)


def float_features(float_preprocessor, clip, window, starts, feature_size):
    """The float32 preprocessor's features for the same windows (its own interpreter, so its own state)."""
    pre = load_model(float_preprocessor)
    if (
        len(pre.inputs) != 1
        or pre.inputs[0].dtype != "int16"
        or int(np.prod(pre.inputs[0].shape)) != window
        or len(pre.outputs) != 1
        or pre.outputs[0].dtype != "float32"
        or int(np.prod(pre.outputs[0].shape)) != feature_size
    ):
        raise CompileError(
            f"{float_preprocessor}: expected one int16 input of {window} samples and one float32 "
            f"output of {feature_size} features (TFLite Micro's audio_preprocessor_float)"
        )
    cases = [[clip[s : s + window].reshape(pre.inputs[0].shape)] for s in starts]
    return np.stack(
        [np.asarray(o[0], dtype=np.float32).reshape(-1) for o in tflm_outputs(float_preprocessor, cases, 1)]
    )


def _rows(values, per_line):
    vals = [str(int(v)) for v in values]
    return ",\n".join("    " + ", ".join(vals[i : i + per_line]) for i in range(0, len(vals), per_line))


def write_sources(out_dir, name, seed, clip, window, stride, starts, features, scores, sources, ffeatures=None):
    N = name.upper()
    guard = N + "_H_"
    h = [
        f"/* {name}.h: generated by examples/audio_keyword/audio_reference.py (seed {seed}). Do not edit.",
        f" * Models: {sources[0]} -> {sources[1]}, expected values from the tflite_micro interpreter. */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        "#include <stdint.h>",
        "",
        f"#define {N}_SAMPLE_RATE {SAMPLE_RATE}",
        f"#define {N}_SEED {seed}",
        f"#define {N}_NUM_SAMPLES {len(clip)}",
        f"#define {N}_WINDOW {window} /* samples per preprocessor run (30 ms) */",
        f"#define {N}_STRIDE {stride} /* samples between runs (20 ms) */",
        f"#define {N}_FRAMES {len(starts)} /* preprocessor runs = feature rows */",
        f"#define {N}_FEATURE_SIZE {features.shape[1]}",
        f"#define {N}_NUM_SCORES {len(scores)}",
        "",
        f"extern const int16_t {name}_audio[{N}_NUM_SAMPLES];",
        f"extern const int8_t {name}_features_want[{N}_FRAMES * {N}_FEATURE_SIZE];",
        f"extern const int8_t {name}_scores_want[{N}_NUM_SCORES];",
        f"extern const char* const {name}_labels[{N}_NUM_SCORES];",
        "",
    ]
    if ffeatures is not None:
        h += [
            f"/* The float preprocessor ({sources[2]}) on the same windows: IEEE-754 bit patterns. */",
            f"#define {N}_HAVE_FLOAT 1",
            f"extern const uint32_t {name}_float_features_want[{N}_FRAMES * {N}_FEATURE_SIZE];",
            "",
        ]
    h += [
        f"#endif /* {guard} */",
        "",
    ]
    c = [
        f"/* {name}.c: generated by examples/audio_keyword/audio_reference.py (seed {seed}). Do not edit. */",
        f'#include "{name}.h"',
        "",
        f"const int16_t {name}_audio[{N}_NUM_SAMPLES] = {{",
        _rows(clip, 16),
        "};",
        "",
        f"const int8_t {name}_features_want[{N}_FRAMES * {N}_FEATURE_SIZE] = {{",
        _rows(features.reshape(-1), features.shape[1]),
        "};",
        "",
        f"const int8_t {name}_scores_want[{N}_NUM_SCORES] = {{",
        _rows(scores, 16),
        "};",
        "",
        f"const char* const {name}_labels[{N}_NUM_SCORES] = {{" + ", ".join(f'"{s}"' for s in LABELS) + "};",
        "",
    ]
    if ffeatures is not None:
        bits = [f"0x{int(b):08x}u" for b in np.ascontiguousarray(ffeatures, dtype="<f4").view("<u4").reshape(-1)]
        c += [
            f"const uint32_t {name}_float_features_want[{N}_FRAMES * {N}_FEATURE_SIZE] = {{",
            ",\n".join("    " + ", ".join(bits[i : i + 8]) for i in range(0, len(bits), 8)),
            "};",
            "",
        ]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, name + ".h"), "w") as f:
        f.write("\n".join(h))
    with open(os.path.join(out_dir, name + ".c"), "w") as f:
        f.write("\n".join(c))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preprocessor", required=True, help="audio_preprocessor_int8.tflite")
    parser.add_argument("--classifier", required=True, help="micro_speech_quantized.tflite")
    parser.add_argument("--float_preprocessor", help="audio_preprocessor_float.tflite (optional)")
    parser.add_argument("--seed", type=int, default=16, help="seed of the synthetic clip")
    parser.add_argument("--out_dir", required=True)
    parser.add_argument("--name", default="audio_ref", help="basename and C prefix of the generated files")
    args = parser.parse_args(argv)
    try:
        clip, window, stride, starts, features, scores = reference(args.preprocessor, args.classifier, args.seed)
        ffeatures = (
            float_features(args.float_preprocessor, clip, window, starts, features.shape[1])
            if args.float_preprocessor
            else None
        )
    except CompileError as e:
        print(f"audio_reference: {e}", file=sys.stderr)
        return 1
    write_sources(
        args.out_dir,
        args.name,
        args.seed,
        clip,
        window,
        stride,
        starts,
        features,
        scores,
        (
            os.path.basename(args.preprocessor),
            os.path.basename(args.classifier),
            os.path.basename(args.float_preprocessor or ""),
        ),
        ffeatures,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
