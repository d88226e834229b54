"""A misbehaving bot speaking the raw protocol: `python rawbot.py MODE`.

Modes: wrong_id (answers with another request id), disconnect (closes its stream at the first
request and stays alive), bad_token, old_version, illegal_index, silent (never says Hello),
single_threaded (thinks AZUL_TEST_SLEEP seconds per move without reading its stream, as a naive
bot in any language would).
"""

from __future__ import annotations

import os
import queue
import sys
import time

mode = sys.argv[1]
if mode == "silent":
    time.sleep(120)
    sys.exit(0)

import grpc  # noqa: E402

from referee.protocol import bot_pb2  # noqa: E402

token = os.environ["AZUL_ARENA_TOKEN"] + ("x" if mode == "bad_token" else "")
version = 99 if mode == "old_version" else 1
out: queue.SimpleQueue = queue.SimpleQueue()
out.put(
    bot_pb2.ConnectRequest(
        hello=bot_pb2.Hello(protocol_version=version, bot_name=mode, token=token)
    )
)


def requests():
    while (item := out.get()) is not None:
        yield item


channel = grpc.insecure_channel(os.environ["AZUL_ARENA_REFEREE"])
stub = channel.stream_stream(
    "/azul_arena.v1.BotService/Connect",
    request_serializer=bot_pb2.ConnectRequest.SerializeToString,
    response_deserializer=bot_pb2.ConnectResponse.FromString,
)
call = stub(requests())
for msg in call:
    kind = msg.WhichOneof("message")
    if kind == "rejection":
        print("rejected:", msg.rejection.message, flush=True)
        time.sleep(30)  # stay alive: the referee must not wait for the process to tell
    if kind == "ping":
        out.put(bot_pb2.ConnectRequest(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
    if kind != "move_request":
        continue
    req = msg.move_request
    if mode == "disconnect":
        call.cancel()
        channel.close()
        print("stream closed, staying alive", flush=True)
        time.sleep(60)
    if mode == "single_threaded":
        time.sleep(float(os.environ.get("AZUL_TEST_SLEEP", "0.3")))
    reply = bot_pb2.MoveReply(request_id=req.request_id, move_index=0)
    if mode == "wrong_id":
        reply.request_id += 1000
    if mode == "illegal_index":
        reply.move_index = len(req.legal_moves) + 5
    out.put(bot_pb2.ConnectRequest(move_reply=reply))
