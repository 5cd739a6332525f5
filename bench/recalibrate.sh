#!/bin/sh
# Recalibrates the compiler's cost model (compiler/report/cost_table.py) from fresh QEMU counts, in one command:
#   bench/recalibrate.sh [bazel flags, e.g. --disk_cache=...]
# 1. the bench (every bench model on its boards, -O2, per-layer counts): bench/results/bench_results.json;
# 2. the calibration sweep (one-layer models per kernel family and shape class, one image per core):
#    bench/results/sweep_results.json;
# 3. the fit: rewrites compiler/report/cost_table.py and prints the in-sample and leave-one-model-out tables;
# 4. re-records tests/compiler/data/codegen_golden.json (each model's net.json embeds the estimate: only net.json
#    digests change);
# 5. the test that holds the committed table to the measurements (in sample and out of sample).
# Rerun it whenever a CRT kernel, the code generator or the toolchain flags change what a layer executes, and commit
# cost_table.py, cost_measured.py and codegen_golden.json (and the tables calibrate prints into bench/README.md).
set -eu
cd "$(dirname "$0")/.."
bazel run "$@" //bench:bench > /dev/null
bazel run "$@" //bench:sweep
bazel run "$@" //bench:calibrate
.venv/bin/python tests/compiler/test_codegen_golden.py --update
.venv/bin/python -m pytest tests/compiler/test_cost_model.py -q
