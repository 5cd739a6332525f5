"""Generates the MobileNet-style 96x96 int8 vision models committed next to this script.

The shared models hold no vision network with depthwise-separable blocks at 96x96, the shape of the person-detection
class of models; these stand in for them in the tests and benchmarks:
- mobilenet_v1_025_96_int8.tflite: MobileNet v1, width 0.25, 96x96x1 input, 2 classes (person-detection layout);
- mobilenet_v2_035_96_int8.tflite: MobileNet v2, width 0.35, 96x96x3 input, 10 classes (inverted residuals: ADD).
Weights are Keras' seeded random initialisation, with every BatchNormalization set from the statistics of its input
on seeded random images (so activations neither vanish nor explode, as in a trained network); the TFLite converter
then quantizes them to int8 (per-channel weights, int8 activations calibrated on the same kind of images), exactly as
it does for trained models. They classify nothing but exercise every kernel with realistic quantization parameters.

TensorFlow is not a dependency of the project; run this once in a separate venv to regenerate:
    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu==2.15.1 "numpy<2"
    /tmp/tfvenv/bin/python tests/models/make_vision_models.py
"""

import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


def _images(input_shape, seed, count):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=(count,) + input_shape).astype(np.float32)


def _normalize_batchnorms(model, images):
    """Data-dependent init: each BatchNormalization standardizes what actually reaches it."""
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            x = tf.keras.Model(model.inputs, layer.input)(images, training=False).numpy()
            axes = tuple(range(x.ndim - 1))
            gamma, beta, _, _ = layer.get_weights()
            layer.set_weights(
                [np.ones_like(gamma), np.full_like(beta, 0.5), x.mean(axis=axes), x.var(axis=axes) + 1e-3]
            )


def _convert(model, input_shape, seed):
    rng = np.random.default_rng(seed)
    _normalize_batchnorms(model, _images(input_shape, seed + 100, 16))

    def representative():
        for _ in range(32):
            yield [rng.uniform(-1.0, 1.0, size=(1,) + input_shape).astype(np.float32)]

    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    return conv.convert()


def mobilenet_v1():
    tf.keras.utils.set_random_seed(96)
    shape = (96, 96, 1)
    # A fixed batch of 1 keeps the classifier's reshape static (no SHAPE/STRIDED_SLICE/PACK in the graph).
    inp = tf.keras.Input(shape=shape, batch_size=1)
    model = tf.keras.applications.MobileNet(
        input_tensor=inp, alpha=0.25, weights=None, classes=2, include_top=True, classifier_activation="softmax"
    )
    return _convert(model, shape, 1)


def mobilenet_v2():
    tf.keras.utils.set_random_seed(35)
    shape = (96, 96, 3)
    inp = tf.keras.Input(shape=shape, batch_size=1)
    model = tf.keras.applications.MobileNetV2(
        input_tensor=inp, alpha=0.35, weights=None, classes=10, include_top=True, classifier_activation="softmax"
    )
    return _convert(model, shape, 2)


if __name__ == "__main__":
    for name, build in (
        ("mobilenet_v1_025_96_int8.tflite", mobilenet_v1),
        ("mobilenet_v2_035_96_int8.tflite", mobilenet_v2),
    ):
        path = os.path.join(HERE, name)
        data = build()
        with open(path, "wb") as f:
            f.write(data)
        print(f"wrote {path} ({len(data)} bytes)")
