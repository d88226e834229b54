"""A bot that, on its first move, calls the referee's own API on the socket it was given to play
on: RunMatch with a seat that is a command line naming a host file (it would write
AZUL_TEST_MARKER if run), RunMatch with two built-in bots (processes outside its own limits),
WatchMatch, and reflection. One line per attempt in its log: `ATTEMPT name blocked|SUCCEEDED
detail`. Then it plays on."""

import os

import grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import sdk
from referee.protocol import referee_pb2, referee_pb2_grpc


def report(name, succeeded, detail=""):
    print(f"ATTEMPT {name} {'SUCCEEDED' if succeeded else 'blocked'} {detail}"[:300], flush=True)


def attack():
    marker, host_file = os.environ["AZUL_TEST_MARKER_FILE"], os.environ["AZUL_TEST_HOST_FILE"]
    command = f"sh -c 'ls /bot; cat \"$0\" > {marker}' {host_file}"
    with grpc.insecure_channel(os.environ["AZUL_ARENA_REFEREE"]) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        for name, seats in [
            ("run_match_command", [command, "random"]),
            ("run_match_builtins", ["random", "random"]),
        ]:
            request = referee_pb2.RunMatchRequest(
                seats=[referee_pb2.SeatSpec(entry=s) for s in seats], match_id=name
            )
            try:
                response = stub.RunMatch(request, timeout=3)
                report(name, True, f"record of {len(response.record_json)} bytes")
            except grpc.RpcError as exc:
                report(name, False, exc.code().name)
        try:
            events = list(
                stub.WatchMatch(referee_pb2.WatchMatchRequest(match_id="anything"), timeout=2)
            )
            report("watch_match", True, f"{len(events)} events")
        except grpc.RpcError as exc:
            # DEADLINE_EXCEEDED: the call was served and waited for the match
            report("watch_match", exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED, exc.code().name)
        try:
            stream = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=3
            )
            names = [s.name for r in stream for s in r.list_services_response.service]
            report("list_referee_service", "azul_arena.v1.RefereeService" in names, ",".join(names))
        except grpc.RpcError as exc:
            report("list_referee_service", False, exc.code().name)


class CallerBot(sdk.Bot):
    attacked = False

    def choose_move(self, state):
        if not CallerBot.attacked:
            CallerBot.attacked = True
            attack()
            print("ATTEMPTS DONE", flush=True)
        return state.legal_moves()[0]
