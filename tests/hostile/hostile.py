#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/hostile/hostile.py -- a hostile loopback server for
# tests/hostile-conn.sh: it listens on a free port of 127.0.0.1, prints
# "port=N" on stdout, and answers every connection with one kind of
# misbehaviour (MODE), counting connections on stderr ("accept N").
# Standard library only.  Modes:
#   close       accept, then close at once (FIN)
#   reset       accept, then reset (RST, SO_LINGER 0)
#   garbage     read the request, answer random bytes, close
#   http        answer "HTTP/1.1 404 Not Found" to the upgrade
#   stall       accept and read, never answer
#   tls-garbage as garbage, but for a client that expects TLS
#   ws-garbage  a valid 101 upgrade, then bytes that are no WebSocket frame
#   ws-text     a valid 101 upgrade, then text messages only, then silence
#   bad-hello   a valid upgrade; after the ClientHello a ServerHello of
#               random keys (its static key does not decrypt)
#   junk-hello  a valid upgrade; after the ClientHello a frame that is not
#               a HandshakeMessage
#   hs-stall    a valid upgrade, then silence (no ServerHello)
import base64
import hashlib
import os
import socket
import struct
import sys
import threading

WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def read_request(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            return None
        data += chunk
        if len(data) > 65536:
            return None
    return data


def upgrade(s):
    req = read_request(s)
    if req is None:
        return False
    key = b""
    for line in req.split(b"\r\n"):
        if line.lower().startswith(b"sec-websocket-key:"):
            key = line.split(b":", 1)[1].strip()
    acc = base64.b64encode(hashlib.sha1(key + WS_GUID).digest())
    s.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + acc +
              b"\r\n\r\n")
    return True


def ws_binary(payload, opcode=2):
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    return head + payload


def read_ws_message(s):
    """One client frame's payload (masked), or None."""
    head = b""
    while len(head) < 2:
        c = s.recv(2 - len(head))
        if not c:
            return None
        head += c
    n = head[1] & 0x7F
    ext = {126: 2, 127: 8}.get(n, 0)
    rest = b""
    while len(rest) < ext + 4:
        c = s.recv(ext + 4 - len(rest))
        if not c:
            return None
        rest += c
    if ext == 2:
        n = struct.unpack("!H", rest[:2])[0]
    elif ext == 8:
        n = struct.unpack("!Q", rest[:8])[0]
    mask = rest[ext:ext + 4]
    data = b""
    while len(data) < n:
        c = s.recv(n - len(data))
        if not c:
            return None
        data += c
    return bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def pb_bytes(field, value):
    """A protobuf length-delimited field (lengths below 2^14)."""
    n = len(value)
    length = bytes([n]) if n < 128 else bytes([0x80 | (n & 0x7F), n >> 7])
    return bytes([field << 3 | 2]) + length + value


def noise_frame(msg):
    return struct.pack("!I", len(msg))[1:] + msg


def stall(s):
    while s.recv(4096):
        pass


def serve(s, mode):
    if mode == "close":
        return
    if mode == "reset":
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                     struct.pack("ii", 1, 0))
        return
    if mode == "stall":
        stall(s)
        return
    if mode in ("garbage", "tls-garbage"):
        if mode == "garbage":
            read_request(s)
        else:
            s.recv(4096)
        s.sendall(b"\x17\x03" + os.urandom(300))
        return
    if mode == "http":
        read_request(s)
        s.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n"
                  b"Connection: close\r\n\r\nnot found")
        return
    if not upgrade(s):
        return
    if mode == "ws-garbage":
        s.sendall(b"\x8f\xff" + os.urandom(64))	# opcode 15, bad length
        stall(s)
        return
    if mode == "ws-text":
        s.sendall(ws_binary(b"hello", opcode=1))
        stall(s)
        return
    if mode == "hs-stall":
        stall(s)
        return
    if read_ws_message(s) is None:	# the ClientHello
        return
    if mode == "bad-hello":
        hello = (pb_bytes(1, os.urandom(32)) + pb_bytes(2, os.urandom(48)) +
                 pb_bytes(3, os.urandom(120)))
        msg = pb_bytes(3, hello)
    else:
        msg = os.urandom(40)
    s.sendall(ws_binary(noise_frame(msg)))
    stall(s)


def main():
    mode = sys.argv[1]
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    print("port=%d" % ls.getsockname()[1], flush=True)
    n = 0
    while True:
        s, _ = ls.accept()
        n += 1
        print("accept %d" % n, file=sys.stderr, flush=True)

        def run(s=s):
            try:
                serve(s, mode)
            except OSError:
                pass
            finally:
                s.close()
        threading.Thread(target=run, daemon=True).start()


if __name__ == "__main__":
    main()
