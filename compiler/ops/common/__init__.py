"""Helpers shared by the op lowerings and the kernels, below both: tensor checks and activation ranges (checks),
quantization arithmetic (multipliers, short_requant, the *_s8_fast proofs, int16, lookup tables), weight layouts of
the DSP / Helium / specialized kernels (dsp_layout, mve_layout, specialize, packed), the convolutions' shared
geometry and arguments (conv), and what a kernel is (kernel).  Nothing here imports a lowering, a kernel or the
kernel table (tests/compiler/test_import_graph.py)."""
