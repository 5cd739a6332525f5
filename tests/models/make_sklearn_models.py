"""Generates scikit-learn models exported to ONNX-ML with skl2onnx's *default* options (ZipMap included, the batch
dimension left dynamic): `sklearn_<name>.onnx`. The models MCU users export for tabular / IMU features:
LogisticRegression, LinearSVC, SVC with linear, RBF and polynomial kernels, a DecisionTree and a small RandomForest
(TreeEnsembleClassifier), StandardScaler + Normalizer pipelines, a RandomForest trained on the integer classes 3, 5,
7 (labels read through a table); two-class models (a DecisionTree, an RBF SVC, gradient boosting: onnxruntime's binary
rules), three-class gradient boosting (SOFTMAX), and regressors (LinearRegression, RandomForest / GradientBoosting
regressors: TreeEnsembleRegressor, SVR: SVMRegressor). tests/compiler/test_sklearn_exports.py compiles each (with
`--input_shape X=N,4`) and compares it with onnxruntime.

    .venv/bin/pip install scikit-learn==1.9.1 skl2onnx==1.20.0   # not project requirements: only this script
    python tests/models/make_sklearn_models.py [--out_dir tests/models]

Trained on the iris data set that ships inside scikit-learn (no download); every estimator is seeded.
"""

import argparse
import os


def models():
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        GradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer, StandardScaler
    from sklearn.svm import SVC, SVR, LinearSVC
    from sklearn.tree import DecisionTreeClassifier

    # target: "classes" (iris 0, 1, 2), "357" (the same as 3, 5, 7), "binary" (virginica or not), "value" (a
    # continuous feature product)
    return {
        "logreg": (LogisticRegression(max_iter=500, random_state=0), "classes"),
        "linear_svc": (LinearSVC(random_state=0), "classes"),
        "svc_linear": (SVC(kernel="linear", random_state=0), "classes"),
        "svc_rbf": (SVC(kernel="rbf", random_state=0), "classes"),
        "svc_poly": (SVC(kernel="poly", degree=3, random_state=0), "classes"),
        "tree": (DecisionTreeClassifier(max_depth=4, random_state=0), "classes"),
        "forest": (RandomForestClassifier(n_estimators=5, max_depth=4, random_state=0), "classes"),
        "scaler_normalizer_logreg": (
            make_pipeline(StandardScaler(), Normalizer(), LogisticRegression(max_iter=500, random_state=0)),
            "classes",
        ),
        "scaler_svc_rbf": (make_pipeline(StandardScaler(), SVC(kernel="rbf", random_state=0)), "classes"),
        "forest_labels_357": (RandomForestClassifier(n_estimators=3, max_depth=3, random_state=1), "357"),
        "binary_tree": (DecisionTreeClassifier(max_depth=3, random_state=0), "binary"),
        "binary_svc_rbf": (SVC(kernel="rbf", random_state=0), "binary"),
        "binary_boosting": (GradientBoostingClassifier(n_estimators=4, max_depth=2, random_state=0), "binary"),
        "boosting": (GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0), "classes"),
        "linear_regression": (LinearRegression(), "value"),
        "forest_regressor": (RandomForestRegressor(n_estimators=3, max_depth=3, random_state=0), "value"),
        "boosting_regressor": (GradientBoostingRegressor(n_estimators=4, max_depth=2, random_state=0), "value"),
        "svr_rbf": (SVR(kernel="rbf"), "value"),
    }


def main():
    import numpy as np
    import onnx
    from skl2onnx import to_onnx
    from sklearn.datasets import load_iris

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out_dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    x, y = load_iris(return_X_y=True)
    x = x.astype(np.float32)
    targets = {
        "classes": y,
        "357": np.array([3, 5, 7])[y],
        "binary": (y == 2).astype(np.int64),
        "value": x[:, 0] * x[:, 2] / 10.0,
    }
    for name, (model, target) in models().items():
        model.fit(x, targets[target])
        onx = to_onnx(model, x[:1])  # skl2onnx's defaults: ZipMap, input "X" of shape [None, 4]
        path = os.path.join(args.out_dir, f"sklearn_{name}.onnx")
        onnx.save(onx, path)
        print(f"wrote {path} ({os.path.getsize(path)} B)")


if __name__ == "__main__":
    main()
