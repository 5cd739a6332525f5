"""The ONNX-ML operators (domain ai.onnx.ml) the compiler rewrites into standard ones, by name: onnx_ml.py (Scaler,
Normalizer, LinearClassifier, LinearRegressor), onnx_ml_svm.py (SVMClassifier, SVMRegressor, ArrayFeatureExtractor),
onnx_ml_tree.py (TreeEnsembleClassifier, TreeEnsembleRegressor); ZipMap is lowered before validation
(onnx_zipmap.py). onnx_validate refuses the others by name."""

from . import onnx_ml, onnx_ml_svm, onnx_ml_tree

RULES = {**onnx_ml.RULES, **onnx_ml_svm.RULES, **onnx_ml_tree.RULES}
SUPPORTED = tuple(RULES) + ("ZipMap",)

__all__ = ["RULES", "SUPPORTED"]
