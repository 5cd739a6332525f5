#!/bin/bash
# Estimated cycles of TFLite Micro + CMSIS-NN under the bench's plugin and timing model, for
# reference_figures.json (per_board.boards.<board>.<model>.tflm_cmsis_nn_cycles). Not part of any build or test.
#
# usage: SCRATCH=<dir> PLUGIN=<libaot_insn_count.so> bench/tflm_cycles.sh ARCH MODEL.tflite...
#   ARCH: cortex-m4+fp (mps2-an386) or cortex-m55 (mps3-an547)
#   ARENA=<bytes> (optional): the tensor arena's size when the harness's 1 MiB default is too small (the 224x224
#   MobileNet v2 uses 2,600,596 B).
# $SCRATCH is a TFLite Micro + CMSIS-NN build made with ../shared/docs/tflm-harness.md (its setup.sh, then
# build_objs.sh ARCH -> $SCRATCH/lib/ARCH/libtensorflow-microlite.a, and harness/ with main.cc, gen_model.py,
# startup/semihost and the link scripts). Each model's firmware is linked as the harness's bench.sh links it; QEMU
# then runs it with the bench's plugin (core=...) instead of the harness's counter. Prints one line per model:
#   ARCH MODEL board=B instructions=I cycles=C   (first Invoke(); markers' overhead removed)
# and writes the run's instructions per timing class beside the firmware ($SCRATCH/out/ARCH/MODEL/classes.json).
set -eu
A=$1; shift
PY=${PY:-$(dirname "$0")/../.venv/bin/python}
H=$SCRATCH/harness; T=$SCRATCH/tflm; L=$SCRATCH/lib/$A
case $A in
  cortex-m55) BOARD=mps3-an547; LD=link_an547.ld; CORE=cortex-m55;;
  cortex-m4+fp) BOARD=mps2-an386; LD=link_mps2.ld; CORE=cortex-m4;;
  *) echo "tflm_cycles: no timing model for $A" >&2; exit 2;;
esac
CXXF=$(grep '^CXXFLAGS ' "$SCRATCH/objs_$A.txt" | cut -d' ' -f2-)
CCF=$(grep '^CCFLAGS ' "$SCRATCH/objs_$A.txt" | cut -d' ' -f2-)
INC=$(grep '^INCLUDES ' "$SCRATCH/objs_$A.txt" | cut -d' ' -f2- | sed "s|-I\([^/ ]\)|-I$T/\1|g; s|-I$T/\. |-I$T |")
ARCHF=$(echo $CXXF | tr ' ' '\n' | grep -E '^-m(cpu|fpu|float-abi|thumb)' | tr '\n' ' ')
for MP in "$@"; do
  M=$(basename "$MP" .tflite); O=$SCRATCH/out/$A/$M; mkdir -p "$O"
  "$PY" "$H/gen_model.py" "$MP" "$O"
  arm-none-eabi-g++ $CXXF -O2 ${ARENA:+-DARENA_SIZE=$ARENA} $INC -I"$H" -I"$O" -c "$H/main.cc" -o "$O/main.o"
  for f in startup semihost; do arm-none-eabi-gcc $CCF -O2 -I"$H" -c "$H/$f.c" -o "$O/$f.o"; done
  arm-none-eabi-gcc $ARCHF -c "$O/model_data.c" -o "$O/model_data.o"
  arm-none-eabi-g++ $ARCHF -O2 -nostartfiles -T "$H/$LD" -Wl,--gc-sections -o "$O/fw.elf" "$O/main.o" "$O/startup.o" \
    "$O/semihost.o" "$O/model_data.o" "$L/libtensorflow-microlite.a" --specs=nano.specs --specs=nosys.specs -lm
  "$PY" - "$O/fw.elf" "$BOARD" "$CORE" "$A" "$M" <<'PYEOF'
import json, sys
sys.path.insert(0, __import__("os").environ.get("AOT_ROOT", "."))
from toolchains.tools import qemu_count
from toolchains.tools.elf_file import read_symbols
import os
elf, board, core, arch, model = sys.argv[1:]
syms = {s.name: s.address for s in read_symbols(open(elf, "rb").read())}
# The harness names its markers bench_mark_start/bench_mark_end; qemu_count looks for the bench's names.
qemu_count.marker_addresses = lambda _elf: (syms["bench_mark_start"], syms["bench_mark_end"])
run = qemu_count.count(elf, board, os.environ["PLUGIN"], timeout=3600, core=core)
# regions: AllocateTensors(), first Invoke(), second Invoke(); the classes are the last region's (the second
# Invoke(), which runs the same instructions as the first: the harness checks both give the same count)
assert run.regions[1] == run.regions[2], "the two Invoke() runs differ"
print(f"{arch} {model} board={board} instructions={run.regions[1]} cycles={run.cycle_regions[1]}")
json.dump(run.classes, open(os.path.join(os.path.dirname(elf), "classes.json"), "w"))
PYEOF
done
