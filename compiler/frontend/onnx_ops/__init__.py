"""ONNX frontend internals: values and layouts, the IR builder, constant folding, and one converter module
per op family (conv, pool, elementwise, matmul, reduce, shape_ops, quant)."""
