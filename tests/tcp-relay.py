#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A TCP relay for the tests that stop and restart "the server" without
# losing the sim's state (the sim keeps its accounts in memory only):
# wachat connects to the relay, the relay to the sim.  While the relay is
# not running, wachat's connections are refused, as with a server down.
#
#   tcp-relay.py free-port             print a free loopback port, exit
#   tcp-relay.py LISTEN-PORT TO-PORT   relay 127.0.0.1:LISTEN-PORT to
#                                      127.0.0.1:TO-PORT until killed;
#                                      prints "listening" once it is
import select
import socket
import sys


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def relay(listen_port, to_port):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", listen_port))
    ls.listen(16)
    print("listening", flush=True)
    peer = {}
    while True:
        r, _, _ = select.select([ls] + list(peer), [], [])
        for s in r:
            if s is ls:
                c, _ = ls.accept()
                try:
                    u = socket.create_connection(("127.0.0.1", to_port))
                except OSError:
                    c.close()
                    continue
                peer[c] = u
                peer[u] = c
                continue
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            other = peer.get(s)
            if other is None:
                continue
            if data:
                try:
                    other.sendall(data)
                    continue
                except OSError:
                    pass
            for x in (s, other):
                peer.pop(x, None)
                x.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["free-port"]:
        print(free_port())
    elif len(sys.argv) == 3:
        relay(int(sys.argv[1]), int(sys.argv[2]))
    else:
        sys.exit("usage: tcp-relay.py free-port | LISTEN-PORT TO-PORT")
