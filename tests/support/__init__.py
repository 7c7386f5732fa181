"""Helpers shared by the test folders and the benchmarks, imported as ``tests.support.*``.

- ``app_servers``: the app served in process (no socket) or by uvicorn on loopback.
- ``event_streams``: one answer's event stream, read to its end.
- ``server_processes``: real ``citeline serve`` processes (the scale tests and benchmark).
- ``query_workers``: the query workers below a demo or a server, found through ``/proc``.
- ``caller_keys``: real signing keys for caller tokens.
- ``engine_doubles``, ``scripted_engine``, ``replay_engine``: answer engines that stand in
  for ``citeline.answer`` where a test must count calls, hold a stream, or replay one.
- ``openai_stub``: a local server speaking the OpenAI streaming protocol.
- ``question_sets``: the development collections (benchmarks/questions/*/collection.toml)
  read apart from citeline, and the checks their sets must pass; ``gold_addresses``:
  benchmarks/questions/gold_ids.py loaded, and the check against citeline's own index.
"""
